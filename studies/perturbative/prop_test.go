package perturbative

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// zeroInflated draws n×p non-negative, skewed, zero-inflated values.
func zeroInflated(seed uint64, n, p int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(seed, 3))
	data := make([]float64, n*p)
	for i := range data {
		if rng.Float64() > 0.3 {
			data[i] = math.Round(math.Exp(5 + rng.NormFloat64()))
		}
	}
	names := []string{"a", "b", "c"}[:p]
	return datasets.New("zi", names, n, p, data)
}

// TestExpectOnRandomData: on random zero-inflated data, the replicate mean of every metric
// with an exact expectation lies within 4 SE of it, for additive, zero-kept, restricted and
// correlated2 noise (the analytic checks as a property).
func TestExpectOnRandomData(t *testing.T) {
	d := zeroInflated(9, 3000, 3)
	for _, tc := range []struct {
		method string
		raw    map[string]string
		nz     Noise
	}{
		{"noise_additive", map[string]string{"noise_pct": "10"}, Noise{Kind: "additive", Level: 0.1}},
		{"noise_additive0", map[string]string{"noise_pct": "10"}, Noise{Kind: "additive", Level: 0.1, KeepZeros: true}},
		{"restrict(noise_additive)", map[string]string{"noise_pct": "20"}, Noise{Kind: "additive", Level: 0.2, Restrict: true}},
		{"noise_correlated2", map[string]string{"delta": "0.2"}, Noise{Kind: "correlated2", Level: 0.2}},
		{"restrict(noise_correlated2)", map[string]string{"delta": "0.2"}, Noise{Kind: "correlated2", Level: 0.2, Restrict: true}},
	} {
		m, err := methods.Lookup(tc.method)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Info().Resolve(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		want := Expect(d, tc.nz)
		c := &Cell{Method: tc.method, Vals: map[string][]float64{}}
		for rep := range uint64(30) {
			rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(rep, 77)))
			if err != nil {
				t.Fatal(err)
			}
			in := &metrics.Input{Orig: d, Masked: rel.Masked}
			for id := range want {
				if id == "eigen" {
					continue // its formula omits the sampling term (see the analytic report)
				}
				mt, _ := metrics.Lookup(id)
				c.Vals[id] = append(c.Vals[id], mt.Eval(in).Value)
			}
		}
		for id, w := range want {
			if id == "eigen" {
				continue
			}
			if ch := expectCheck(c, id, w); !ch.OK {
				t.Errorf("%s %s: mean %g ± %g, expectation %g (z = %.2f)", tc.method, id, ch.Mean, ch.SE, w, ch.Z())
			}
		}
	}
}
