package dp_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/sdcbench/sdcbench/methods/dp"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestAlpha checks the reference α table of docs/dp.md item 1.
func TestAlpha(t *testing.T) {
	for i, c := range []struct {
		rule dp.AlphaRule
		nt   int
		eps  float64
		want float64
	}{
		{dp.MV2008, 100, 2, 15.651764},
		{dp.Printed, 100, 2, 36.787944},
		{dp.Printed, 107, 2, 39.363100}, // SUSEP: the seed's "α = 39.37" (L1625–1626)
		{dp.MV2008, 107, 2, 16.7474},
		{dp.MV2008, 100, 0.1, 950.8332},
		{dp.Printed, 100, 0.1, 245.9603},
		{dp.MV2008, 100, 0.4, 203.3245},
		{dp.Printed, 100, 0.4, 182.2119},
		{dp.MV2008, 500, 1, 290.988},
		{dp.Printed, 1000, 3, 135.335},
		{dp.MV2008, 100, 250, 2.669190e-107},
		{dp.Printed, 100, 250, 7.2556e-107}, // the table prints 7.26e−107
	} {
		got, err := dp.Alpha(c.rule, c.nt, c.eps)
		if err != nil || !scalar.EqualWithinRel(got, c.want, 5e-4) {
			t.Errorf("case %d: Alpha(%v, %d, %v) = %v, %v; want %v", i, c.rule, c.nt, c.eps, got, err, c.want)
		}
	}
	if a, _ := dp.Alpha(dp.MV2008, 100, 2); math.Abs(a-15.651764) > 5e-7 {
		t.Errorf("mv2008 α = %.7f, want 15.651764", a)
	}
	if a, _ := dp.Alpha(dp.Printed, 107, 2); math.Abs(a-39.363100) > 5e-7 {
		t.Errorf("printed α = %.7f, want 39.363100", a)
	}
	// SUSEP reproduction: printed + total scope gives α_i = 39.36/8 = 4.920.
	b := dp.Budget{Eps: 2, M: 1, NT: 107, Rule: dp.Printed, Total: true}
	if a, err := b.CellAlpha(8); err != nil || math.Abs(a-4.92039) > 1e-5 {
		t.Errorf("printed+total α_i = %v, %v; want 4.92039", a, err)
	}
}

// TestInvalid checks that invalid inputs give clear errors wrapping dp.ErrInvalid.
func TestInvalid(t *testing.T) {
	for i, err := range []error{
		dp.Budget{Eps: 0, M: 1, NT: 100}.Validate(),
		dp.Budget{Eps: -1, M: 1, NT: 100}.Validate(),
		dp.Budget{Eps: math.NaN(), M: 1, NT: 100}.Validate(),
		dp.Budget{Eps: 2, M: 0, NT: 100}.Validate(),
		dp.CheckCounts([]int{30, 60}, 100),
		dp.CheckCounts([]int{-1, 101}, 100),
		dp.CheckProportion(1.2),
		dp.CheckProportion(-0.1),
		dp.CheckProportion(math.NaN()),
		func() error { _, err := dp.Alpha(dp.MV2008, 0, 1); return err }(),
		func() error { _, err := dp.ParseAlphaRule("mv2009"); return err }(),
		(&dp.CatModel{XT: [][]int{{1, 2}}, N: 3, NT: 4, Alpha: 1, Gamma: 1}).Validate(),
	} {
		if err == nil || !errors.Is(err, dp.ErrInvalid) {
			t.Errorf("case %d: err = %v, want an ErrInvalid", i, err)
		}
	}
	if err := dp.CheckCounts([]int{30, 70}, 100); err != nil {
		t.Errorf("valid counts: %v", err)
	}
}

// TestSynthMoments checks §10 item 2 against 10⁶ draws of bb_synth within 4 SE.
func TestSynthMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("10⁶ draws")
	}
	const alpha, n = 15.651764, 1000000
	rng := rand.New(rand.NewPCG(1, 1))
	xt := make([]int, n)
	dp.SynthBinary(xt, 30, 100, 100, alpha, rng)
	var s, s2, eq30 float64
	for _, v := range xt {
		q := float64(v) / 100
		s += q
		s2 += q * q
		if v == 30 {
			eq30++
		}
	}
	mean := s / n
	variance := s2/n - mean*mean
	if se := math.Sqrt(0.003965 / n); math.Abs(mean-0.347681) > 4*se {
		t.Errorf("E[x̃/nt] = %.6f, want 0.347681 ± %.6f", mean, 4*se)
	}
	if math.Abs(variance-0.003965) > 0.00005 {
		t.Errorf("Var[x̃/nt] = %.6f, want 0.003965", variance)
	}
	if p, se := eq30/n, math.Sqrt(0.049404*(1-0.049404)/n); math.Abs(p-0.049404) > 4*se {
		t.Errorf("P(x̃ = 30) = %.6f, want 0.049404", p)
	}
	// Rubin's q̄ has the same expectation: a bias of +0.0477.
	if math.Abs(mean-0.3-0.0477) > 0.0005 {
		t.Errorf("Rubin bias %.4f, want 0.0477", mean-0.3)
	}
}

// TestExactBinary checks §10 items 3, 4 and 12 (charest_exact) and item 5.
func TestExactBinary(t *testing.T) {
	a1, _ := dp.Alpha(dp.MV2008, 100, 2)
	a2, _ := dp.Alpha(dp.MV2008, 100, 1)
	a250, _ := dp.Alpha(dp.MV2008, 100, 250)
	for i, c := range []struct {
		xt               []int
		alpha            float64
		mean, variance   float64
		argmax           int
		hpd, et          [2]float64
		checkHPD, checkW bool
		w                map[int]float64
	}{
		{xt: []int{30}, alpha: a1, mean: 0.251466, variance: 0.007667, argmax: 24,
			hpd: [2]float64{0.08496, 0.42413}, et: [2]float64{0.09253, 0.43332}, checkHPD: true},
		{xt: []int{0}, alpha: a1, mean: 0.020824, variance: 0.000421, argmax: 0,
			hpd: [2]float64{0, 0.06191}, et: [2]float64{0.00054, 0.07584}, checkHPD: true},
		{xt: []int{100}, alpha: a1, mean: 0.979176, variance: 0.000421, argmax: 100,
			hpd: [2]float64{0.93809, 1}, et: [2]float64{0.92416, 0.99946}, checkHPD: true},
		{xt: []int{28, 35}, alpha: a2, mean: 0.128532, variance: 0.006209, argmax: -1,
			hpd: [2]float64{0, 0.27268}, et: [2]float64{0.00928, 0.30464}, checkHPD: true},
		{xt: []int{100}, alpha: a250, mean: 0.980681, variance: 0.000362, argmax: 100, checkW: true,
			w: map[int]float64{100: 0.505000, 99: 0.251231, 98: 0.124347}},
		{xt: []int{30}, alpha: a250, mean: 0.311611, variance: 0.005914, argmax: -1},
	} {
		w := dp.ExactBinary(nil, c.xt, 100, 100, c.alpha, 1, 1)
		for x, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("case %d: w(%d) = %v", i, x, v)
			}
		}
		mean, variance := dp.MixtureMoments(w, 1, 102)
		if !scalar.EqualWithinAbs(mean, c.mean, 5e-7) || !scalar.EqualWithinAbs(variance, c.variance, 5e-7) {
			t.Errorf("case %d: E, Var = %.6f, %.6f; want %.6f, %.6f", i, mean, variance, c.mean, c.variance)
		}
		if c.argmax >= 0 && dp.ArgMax(w) != c.argmax {
			t.Errorf("case %d: argmax w = %d, want %d", i, dp.ArgMax(w), c.argmax)
		}
		for x, want := range c.w {
			if !scalar.EqualWithinAbs(w[x], want, 5e-7) {
				t.Errorf("case %d: w(%d) = %.6f, want %.6f", i, x, w[x], want)
			}
		}
		if c.checkHPD {
			m := metrics.NewBetaMixture(w, 1, 102)
			lo, hi := m.HPD(0.95)
			elo, ehi := m.Quantile(0.025), m.Quantile(0.975)
			if !scalar.EqualWithinAbs(lo, c.hpd[0], 5e-6) || !scalar.EqualWithinAbs(hi, c.hpd[1], 5e-6) {
				t.Errorf("case %d: HPD = [%.5f, %.5f], want %v", i, lo, hi, c.hpd)
			}
			if !scalar.EqualWithinAbs(elo, c.et[0], 5e-6) || !scalar.EqualWithinAbs(ehi, c.et[1], 5e-6) {
				t.Errorf("case %d: ET = [%.5f, %.5f], want %v", i, elo, ehi, c.et)
			}
		}
	}
	// Item 5: with no synthesis (the original data) the posterior is Beta(31, 71).
	if m := metrics.NewBetaMixture([]float64{1}, 31, 102); !scalar.EqualWithinAbs(m.Mean(), 0.303922, 5e-7) {
		t.Errorf("Beta(31, 71) mean = %v", m.Mean())
	}
}
