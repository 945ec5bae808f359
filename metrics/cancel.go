package metrics

import (
	"context"
	"fmt"

	"github.com/sdcbench/sdcbench/datasets"
)

// Cancellation (docs/metrics.md §0.7). A measure runs under Input.Ctx: the measures whose cost
// grows faster than n·p (prl, dbrl, sse_sst_lb, dis_suda, id_rank and the attacks) check it
// once per record, per block of records or per key subset, and return at its first check after
// it is done, with a NaN value and a note. Evaluate then returns Ctx's error instead of values,
// so that a run cancelled at its time limit stops computing rather than being abandoned.

// Err returns nil while the evaluation may go on, and the error of in.Ctx
// (context.Canceled or context.DeadlineExceeded) once it is done. A nil Ctx is never done.
func (in *Input) Err() error {
	if in.Ctx == nil {
		return nil
	}
	return in.Ctx.Err()
}

// context returns in.Ctx, or context.Background() when it is nil.
func (in *Input) context() context.Context {
	if in.Ctx == nil {
		return context.Background()
	}
	return in.Ctx
}

// cancelled is the Result of a measure stopped by its context: NaN and a note naming why.
func cancelled(err error) Result { return nanNote("cancelled: " + err.Error()) }

// EvaluateContext is Evaluate under ctx: once ctx is done, the measure being computed stops
// at its next check and EvaluateContext returns ctx's error (wrapped, naming the measure).
func EvaluateContext(ctx context.Context, orig, masked *datasets.Dataset, ids ...string) (map[string]float64, error) {
	return (&Input{Orig: orig, Masked: masked, Ctx: ctx}).Evaluate(ids...)
}

// evalErr returns the error Evaluate reports when in.Ctx is done after measure id.
func (in *Input) evalErr(id string) error {
	if err := in.Err(); err != nil {
		return fmt.Errorf("metrics: %s: %w", id, err)
	}
	return nil
}
