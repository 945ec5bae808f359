package dp_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/dp"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestRubin checks §10 item 6.
func TestRubin(t *testing.T) {
	mi := dp.CombineRubin([]int{28, 35}, 100, 100, false)
	fs := dp.CombineRubin([]int{28, 35}, 100, 100, true)
	for i, c := range []struct{ got, want float64 }{
		{mi.QBar, 0.315}, {mi.B, 0.00245}, {mi.VBar, 0.0021455}, {mi.T, 0.0058205}, {fs.T, 0.0015295},
	} {
		if !scalar.EqualWithinAbs(c.got, c.want, 1e-10) {
			t.Errorf("case %d: got %.7f, want %.7f", i, c.got, c.want)
		}
	}
	if one := dp.CombineRubin([]int{30}, 100, 100, true); one.B != 0 || one.T != one.VBar {
		t.Errorf("M = 1: b = %v, T_fs = %v, want 0 and the fallback v̄ = %v", one.B, one.T, one.VBar)
	}
}

// TestLaplaceBayes checks §10 item 7.
func TestLaplaceBayes(t *testing.T) {
	w := dp.LaplaceBayes([]float64{30.7}, 100, 2, 1, 1, 1)
	mean, variance := dp.MixtureMoments(w, 1, 102)
	for i, c := range []struct{ got, want float64 }{{mean, 0.311269}, {variance, 0.002134}, {w[30], 0.268068}, {w[31], 0.596597}} {
		if !scalar.EqualWithinAbs(c.got, c.want, 5e-7) {
			t.Errorf("case %d: got %.6f, want %.6f", i, c.got, c.want)
		}
	}
}

// TestDMExact checks §10 item 8: enumeration and convolution give the same marginals, and
// dm_collapsed and dm_alg6 agree with them within MCMC error.
func TestDMExact(t *testing.T) {
	alpha, _ := dp.Alpha(dp.MV2008, 30, 2)
	if math.Abs(alpha-4.695529) > 5e-7 {
		t.Fatalf("α = %v, want 4.695529", alpha)
	}
	m := &dp.CatModel{XT: [][]int{{12, 10, 8}}, N: 30, NT: 30, Alpha: alpha, Gamma: 0.5}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	states, mode, We, err := m.DMEnumerate(5e6)
	if err != nil || states != 496 || dp.StateCount(30, 3) != 496 {
		t.Fatalf("states = %d (%v), StateCount = %v; want 496", states, err, dp.StateCount(30, 3))
	}
	if mode[0] != 13 || mode[1] != 10 || mode[2] != 7 {
		t.Errorf("argmax w = %v, want (13, 10, 7)", mode)
	}
	W := m.DMExact()
	wantE := []float64{0.428465, 0.332420, 0.239115}
	wantV := []float64{0.032609, 0.030147, 0.025403}
	ab := 3*0.5 + 30.0
	for i := range W {
		for v := range W[i] {
			if !scalar.EqualWithinAbs(W[i][v], We[i][v], 1e-12) {
				t.Fatalf("category %d, x = %d: convolution %v, enumeration %v", i, v, W[i][v], We[i][v])
			}
		}
		e, vr := dp.MixtureMoments(W[i], 0.5, ab)
		if !scalar.EqualWithinAbs(e, wantE[i], 5e-7) || !scalar.EqualWithinAbs(vr, wantV[i], 5e-7) {
			t.Errorf("category %d: E, Var = %.6f, %.6f; want %.6f, %.6f", i, e, vr, wantE[i], wantV[i])
		}
	}
	if testing.Short() {
		return
	}
	rng := rand.New(rand.NewPCG(1, 1))
	co := m.Collapsed(5000, 200000, 0, rng)
	al := dp.Alg6{Iter: 210000, Burn: 10000, Ponto: 500}.Run(m, rng)
	for i := range wantE {
		ce := mean(co.Draws[i])
		ae := mean(al.Draws[i])
		// Monte Carlo SE from the ESS of each chain.
		seC := math.Sqrt(wantV[i] / metrics.ESSGeyer(co.Draws[i]))
		seA := math.Sqrt(wantV[i] / metrics.ESSGeyer(al.Draws[i]))
		if math.Abs(ce-wantE[i]) > 4*seC || math.Abs(ae-wantE[i]) > 4*seA {
			t.Errorf("category %d: collapsed %.5f (4SE %.5f), alg6 %.5f (4SE %.5f), exact %.6f", i, ce, 4*seC, ae, 4*seA, wantE[i])
		}
	}
}

// TestExactVsGibbs checks that the exact posterior and long Gibbs and MH-L chains agree
// within Monte Carlo error on a small case (n = nt = 20, M = 2, ε = 2).
func TestExactVsGibbs(t *testing.T) {
	if testing.Short() {
		t.Skip("long chains")
	}
	const n = 20
	alpha, _ := dp.Alpha(dp.MV2008, n, 1)
	xt := []int{5, 9}
	w := dp.ExactBinary(nil, xt, n, n, alpha, 1, 1)
	em, ev := dp.MixtureMoments(w, 1, n+2)
	s := dp.NewBinarySampler(n, n, 2, alpha, 1, 1)
	set := dp.Chain{Burn: 1000, Keep: 200000, Thin: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, mhl := range []bool{false, true} {
		dr := &dp.BinaryDraws{P: make([]float64, set.Keep), X: make([]int, set.Keep)}
		if mhl {
			s.MHL(dr, xt, set, 3, dp.RoundedUniform, rng)
		} else {
			s.Gibbs(dr, xt, set, rng)
		}
		gm := mean(dr.P)
		se := math.Sqrt(ev / metrics.ESSGeyer(dr.P))
		if math.Abs(gm-em) > 4*se {
			t.Errorf("mhl=%v: chain mean %.5f, exact %.5f (4SE %.5f)", mhl, gm, em, 4*se)
		}
		// P(x = k) from the chain against the exact marginal weights w(k)·… of x.
		var xs float64
		for _, x := range dr.X {
			xs += float64(x)
		}
		var ex float64
		for k, wk := range w {
			ex += float64(k) * wk
		}
		if math.Abs(xs/float64(len(dr.X))-ex) > 0.1 {
			t.Errorf("mhl=%v: E[x] chain %.3f, exact %.3f", mhl, xs/float64(len(dr.X)), ex)
		}
	}
}

// TestMethodsReject checks that the registered methods reject invalid inputs by name.
func TestMethodsReject(t *testing.T) {
	bin := dp.BinaryDataset("b", 100, 30)
	cat := dp.CategoricalDataset("c", []string{"a", "b", "c"}, []int{12, 10, 8})
	bad := datasets.New("bad", []string{"y"}, 3, 1, []float64{0, 1, 2})
	for i, c := range []struct {
		method string
		d      *datasets.Dataset
		params map[string]string
		want   string
	}{
		{"charest_exact", bin, map[string]string{"eps": "0"}, "eps must be > 0"},
		{"charest_exact", bin, map[string]string{"eps": "-2"}, "eps must be > 0"},
		{"charest_gibbs", bin, map[string]string{"M": "0"}, "M must be ≥ 1"},
		{"charest_exact", cat, nil, "needs one 0/1 column"},
		{"dm_exact", bin, nil, "needs C ≥ 2"},
		{"charest_exact", bad, nil, "must be 0 or 1"},
		{"charest_mhl", bin, map[string]string{"mhl_L": "0"}, "mhl_L must be ≥ 1"},
		{"charest_gibbs", bin, map[string]string{"thin": "0"}, "thin"},
		{"dm_alg6", cat, map[string]string{"burn": "40000"}, "burn < niter"},
		{"charest_exact", bin, map[string]string{"gamma1": "0"}, "gamma1"},
	} {
		m, err := methods.Lookup(c.method)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Info().Resolve(c.params)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, err = m.Protect(context.Background(), c.d, p, rand.New(rand.NewPCG(1, 1)))
		if err == nil || !errors.Is(err, dp.ErrInvalid) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "dp: ") {
			t.Errorf("case %d (%s %v): err = %v, want a dp: error containing %q", i, c.method, c.params, err, c.want)
		}
	}
	if _, err := dp.CountsFromProportions([]float64{0.5, 0.6}, 10); !errors.Is(err, dp.ErrInvalid) {
		t.Errorf("proportions summing to 1.1: err = %v", err)
	}
	if _, err := dp.CountsFromProportions([]float64{1.5, -0.5}, 10); !errors.Is(err, dp.ErrInvalid) || !strings.Contains(err.Error(), "p must be in [0, 1]") {
		t.Errorf("p outside [0, 1]: err = %v", err)
	}
}

// TestMethodsRun runs every method once and checks the release's shape and Info keys.
func TestMethodsRun(t *testing.T) {
	bin := dp.BinaryDataset("b", 100, 30)
	cat := dp.CategoricalDataset("c", []string{"a", "b", "c"}, []int{12, 10, 8})
	for _, c := range []struct {
		method string
		d      *datasets.Dataset
		params map[string]string
	}{
		{"bb_synth", bin, nil}, {"dm_synth", cat, nil}, {"rubin_mi", bin, map[string]string{"M": "3"}},
		{"rubin_fs", cat, map[string]string{"M": "2"}}, {"laplace_counts", bin, nil}, {"laplace_counts", cat, nil},
		{"laplace_counts", bin, map[string]string{"estimator": "naive"}},
		{"charest_exact", bin, map[string]string{"M": "2", "nt": "50"}},
		{"charest_gibbs", bin, map[string]string{"keep": "100", "thin": "2", "rao_blackwell": "true"}},
		{"charest_mhl", bin, map[string]string{"keep": "100", "mhl_proposal": "discrete_excl", "x_mode": "random"}},
		{"dm_exact", cat, map[string]string{"alpha_scope": "total", "target": "orig_posterior"}},
		{"dm_collapsed", cat, map[string]string{"niter": "3000", "burn": "1000"}},
		{"dm_alg6", cat, map[string]string{"niter": "3000", "burn": "1000", "adapt": "always", "ess_method": "ar_spectrum"}},
	} {
		m, _ := methods.Lookup(c.method)
		p, err := m.Info().Resolve(c.params)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := m.Protect(context.Background(), c.d, p, rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			t.Fatalf("%s: %v", c.method, err)
		}
		if rel.Masked.N != c.d.N || rel.Masked.P != c.d.P {
			t.Errorf("%s: masked %d×%d, want %d×%d", c.method, rel.Masked.N, rel.Masked.P, c.d.N, c.d.P)
		}
		if c.method == "bb_synth" || c.method == "dm_synth" {
			continue
		}
		in := &metrics.Input{Orig: c.d, Masked: rel.Masked, Diag: rel.Diag}
		for _, id := range []string{"post_mean", "coverage_hpd", "hpd_width"} {
			mt, _ := metrics.Lookup(id)
			if v := mt.Eval(in).Value; math.IsNaN(v) {
				t.Errorf("%s: %s = NaN", c.method, id)
			}
		}
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
