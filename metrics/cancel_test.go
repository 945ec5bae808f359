package metrics

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
)

// countCtx is a context whose Err is nil for its first limit calls and context.Canceled from
// then on; calls counts every Err call. It makes "the measure checks its context inside its
// loops" testable without timing.
type countCtx struct {
	limit int64
	calls atomic.Int64
}

func (c *countCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *countCtx) Done() <-chan struct{}       { return nil }
func (c *countCtx) Value(any) any               { return nil }
func (c *countCtx) Err() error {
	if c.calls.Add(1) > c.limit {
		return context.Canceled
	}
	return nil
}

// noisyPair returns an n×p table of standard normals and a release with noise of SD 0.3.
func noisyPair(n, p int, seed uint64) (*datasets.Dataset, *datasets.Dataset) {
	r := rand.New(rand.NewPCG(seed, 1))
	x, y := make([]float64, n*p), make([]float64, n*p)
	for i := range x {
		x[i] = r.NormFloat64()
		y[i] = x[i] + 0.3*r.NormFloat64()
	}
	names := make([]string, p)
	for j := range names {
		names[j] = "v" + itoa(j)
	}
	return datasets.New("x", names, n, p, x), datasets.New("y", names, n, p, y)
}

// TestMeasuresCheckContext: every long measure checks Input.Ctx inside its loops (many times
// per evaluation, not only before and after), stops once it is done with a NaN value and a
// "cancelled" note, and Evaluate then returns the context's error. An uncancelled context
// leaves the values unchanged.
func TestMeasuresCheckContext(t *testing.T) {
	census, _ := datasets.Load("census")
	big, bigRel := noisyPair(2500, 4, 5) // prl's scale path needs 2,000 rows
	aux := Options{Attack: AttackOptions{Aux: census.Names[:3], Attacks: 200}}
	td, _ := datasets.Load("testdata")
	tdRisk := Options{Keys: td.Names[:7], Weight: "sampling_weight", ModRisk: ModRiskOptions{Method: "CE"}}
	cases := []struct {
		name, id  string
		orig, rel *datasets.Dataset
		opt       Options
		minChecks int64
	}{
		{"prl all pairs", "prl", census, wobbly(census), Options{PRLAgree: "exact", PRLDigits: 1}, 1080},
		{"prl scale path", "prl", big, bigRel, Options{}, 2500},
		{"dbrl", "dbrl", census, wobbly(census), Options{}, 1080},
		{"sse_sst_lb", "sse_sst_lb", census, wobbly(census), Options{K: 3}, 1080},
		{"dis_suda", "dis_suda_mean", census, census, Options{Keys: census.Names[:3]}, 8},
		{"risky_cells", "risky_cells", census, census, Options{Keys: census.Names[:3]}, 4},
		{"suda_contrib_max", "suda_contrib_max", census, census, Options{Keys: census.Names[:3]}, 8},
		{"id_rank", "id_rank", census, wobbly(census), Options{}, int64(census.P)},
		{"dld", "dld", census, wobbly(census), Options{}, 4},
		{"singling_out", "singling_out", census, wobbly(census), aux, 200},
		{"linkability", "linkability", census, wobbly(census), aux, 200},
		{"inference", "inference", census, wobbly(census), aux, 200},
		{"modrisk", "modrisk_gr1", td, td, tdRisk, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := (&Input{Orig: c.orig, Masked: c.rel, Opt: c.opt}).Evaluate(c.id)
			if err != nil {
				t.Fatal(err)
			}
			all := &countCtx{limit: math.MaxInt64}
			got, err := (&Input{Orig: c.orig, Masked: c.rel, Opt: c.opt, Ctx: all}).Evaluate(c.id)
			if err != nil {
				t.Fatal(err)
			}
			if !sameValue(got[c.id], want[c.id]) {
				t.Errorf("with a context %v, without %v", got[c.id], want[c.id])
			}
			if n := all.calls.Load(); n < c.minChecks {
				t.Errorf("%d context checks, want at least %d (inside the loops)", n, c.minChecks)
			}
			// cancelled half-way through its checks
			half := &countCtx{limit: all.calls.Load() / 2}
			in := &Input{Orig: c.orig, Masked: c.rel, Opt: c.opt, Ctx: half}
			m, _ := Lookup(c.id)
			res := m.Eval(in)
			if !math.IsNaN(res.Value) || len(res.Notes) == 0 || !strings.HasPrefix(res.Notes[0], "cancelled") {
				t.Errorf("cancelled: value %v, notes %q; want NaN and a cancelled note", res.Value, res.Notes)
			}
			if n := half.calls.Load(); n > all.calls.Load()/2+64 {
				t.Errorf("%d checks after cancellation at %d: the measure did not stop", n, all.calls.Load()/2)
			}
			half = &countCtx{limit: all.calls.Load() / 2}
			_, err = (&Input{Orig: c.orig, Masked: c.rel, Opt: c.opt, Ctx: half}).Evaluate(c.id)
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), c.id) {
				t.Errorf("Evaluate after cancellation: %v, want context.Canceled naming %s", err, c.id)
			}
		})
	}
}

// wobbly returns d plus deterministic noise of 5 % of each value.
func wobbly(d *datasets.Dataset) *datasets.Dataset {
	out := d.Clone()
	for i := range out.Data {
		out.Data[i] *= 1 + 0.05*math.Sin(float64(i))
	}
	return out
}

func sameValue(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestEvaluateContextDeadline: EvaluateContext under a passed deadline returns
// context.DeadlineExceeded before computing anything.
func TestEvaluateContextDeadline(t *testing.T) {
	d, _ := datasets.Load("census")
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	if _, err := EvaluateContext(ctx, d, d, "il1s"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
	if v, err := EvaluateContext(context.Background(), d, d, "il1s"); err != nil || v["il1s"] != 0 {
		t.Errorf("il1s of the original = %v, %v; want 0", v, err)
	}
}
