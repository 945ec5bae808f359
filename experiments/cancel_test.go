package experiments_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/metrics"
)

// ctxMetric is a test measure that computes (sleeps in 1 ms steps) for ctxMetricFor unless
// its Input's context is done first; ctxMetricLongest records its longest evaluation.
type ctxMetric struct{}

var ctxMetricFor, ctxMetricLongest atomic.Int64 // nanoseconds

func init() { metrics.Register(ctxMetric{}) }

func (ctxMetric) Info() metrics.Info {
	return metrics.Info{ID: "test_slow_ctx", Unit: "raw", Better: metrics.Lower, Description: "test measure that checks its context"}
}

func (ctxMetric) Eval(in *metrics.Input) metrics.Result {
	t0 := time.Now()
	defer func() {
		if d := int64(time.Since(t0)); d > ctxMetricLongest.Load() {
			ctxMetricLongest.Store(d)
		}
	}()
	for time.Since(t0) < time.Duration(ctxMetricFor.Load()) {
		if in.Err() != nil {
			return metrics.Result{Value: -1}
		}
		time.Sleep(time.Millisecond)
	}
	return metrics.Result{Value: 1}
}

// TestMeasuresCancelledAtTimeLimit: a measure running past time_limit is cancelled through its
// Input's context, not abandoned: it returns promptly and frees its worker, so that a grid of
// such runs takes about the time limit per run (before, each measure computed on for its
// full 20 s while holding the worker).
func TestMeasuresCancelledAtTimeLimit(t *testing.T) {
	spec := strings.Replace(hookSpec, "replicates = 10", "replicates = 1\ntime_limit = \"100ms\"", 1)
	spec = strings.Replace(spec, `metrics = ["sse_sst"]`, `metrics = ["sse_sst", "test_slow_ctx"]`, 1)
	s, err := experiments.Parse([]byte(spec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctxMetricFor.Store(int64(20 * time.Second))
	defer ctxMetricFor.Store(0)
	ctxMetricLongest.Store(0)
	t0 := time.Now()
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir(), Workers: 1})
	elapsed := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Timeouts != 4 || sum.Done != 4 {
		t.Errorf("%d timeouts of %d runs, want 4 of 4", sum.Timeouts, sum.Done)
	}
	if l := time.Duration(ctxMetricLongest.Load()); l > 5*time.Second {
		t.Errorf("the measure computed for %v under a 100 ms limit: not cancelled", l)
	}
	if elapsed > 10*time.Second {
		t.Errorf("4 runs of 100 ms took %v on one worker: the cancelled measures held it", elapsed)
	}
}
