package metrics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestDiagDeclared checks Info.Diag, which `sdcbench rescore` relies on: every measure that
// does not declare that it reads the release's diagnostics gives the same result with and
// without them, so a stored release (which holds none) recomputes it exactly.
func TestDiagDeclared(t *testing.T) {
	const n, p = 24, 3
	rng := rand.New(rand.NewPCG(27, 4))
	orig, masked := make([]float64, n*p), make([]float64, n*p)
	for i := range orig {
		orig[i] = 10 + 5*rng.NormFloat64()
		masked[i] = orig[i] + rng.NormFloat64()
	}
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i / 4 * 4) // groups of 4, numbered by their smallest member
	}
	full := diag.Diagnostics{
		Partition: &diag.Partition{K: 7, Groups: 3},
		Search:    &diag.Search{ILStart: 12.5, GBest: 4, CPU: 1.5, Pattern: true, G0: 5, Evals: 9},
		Posterior: &diag.Posterior{Target: []float64{0.3}, Mean: []float64{0.4}, Var: []float64{0.01},
			Level: 0.9, Normal: true, AccRate: 0.5},
		FCRM:  &diag.FCRM{Iters: 11, LastDelta: 0.002, Objective: 0.7},
		Audit: &diag.Audit{EpsLB: 0.5, EpsClaimed: 1, EpsPair: 0.9, EpsHat: 0.6, TPR: 0.7, FPR: 0.3, Trials: 100},
		PRAM:  &diag.PRAM{ExpectedChanged: 3, InvarianceErr: 1e-3},
	}
	names := []string{"a", "b", "c"}
	eval := func(m metrics.Metric, d diag.Diagnostics) (res metrics.Result, panicked bool) {
		defer func() {
			if recover() != nil {
				panicked = true
			}
		}()
		in := &metrics.Input{Orig: datasets.New("o", names, n, p, orig), Masked: datasets.New("m", names, n, p, masked),
			Labels: labels, Diag: d}
		return m.Eval(in), false
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, info := range metrics.List() {
		if info.Diag {
			continue
		}
		m, err := metrics.Lookup(info.ID)
		if err != nil {
			t.Fatal(err)
		}
		with, p1 := eval(m, full)
		without, p2 := eval(m, diag.Diagnostics{})
		if p1 != p2 {
			t.Errorf("%s: panics with diagnostics %v, without %v: it reads them; declare Info.Diag", info.ID, p1, p2)
			continue
		}
		if !same(with.Value, without.Value) {
			t.Errorf("%s = %v with the release's diagnostics, %v without: it reads them; declare Info.Diag", info.ID, with.Value, without.Value)
		}
		for k, v := range with.Aux {
			if !same(v, without.Aux[k]) {
				t.Errorf("%s_%s = %v with the release's diagnostics, %v without: declare Info.Diag", info.ID, k, v, without.Aux[k])
			}
		}
	}
}
