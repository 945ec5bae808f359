package stats

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestAdjust(t *testing.T) {
	nan := math.NaN()
	p := []float64{0.01, 0.02, 0.03, 0.04, 0.05, 0.5, 0.0001, 0.2}
	pn := []float64{0.04, nan, 0.01, 0.03, 0.9}
	for i, tc := range []struct {
		r    string // R 4.2.2
		p    []float64
		m    Adjustment
		want []float64
	}{
		{r: `p.adjust(p, "holm")`, p: p, m: Holm,
			want: []float64{0.070000000000000007, 0.12, 0.14999999999999999, 0.16, 0.16, 0.5, 0.00080000000000000004, 0.40000000000000002}},
		{r: `p.adjust(p, "BH")`, p: p, m: BH,
			want: []float64{0.040000000000000001, 0.05333333333333333, 0.059999999999999998, 0.064000000000000001, 0.066666666666666666, 0.5, 0.00080000000000000004, 0.22857142857142856}},
		{r: `p.adjust(c(0.04, NA, 0.01, 0.03, 0.9), "holm")`, p: pn, m: Holm,
			want: []float64{0.089999999999999997, nan, 0.040000000000000001, 0.089999999999999997, 0.90000000000000002}},
		{r: `p.adjust(c(0.04, NA, 0.01, 0.03, 0.9), "BH")`, p: pn, m: BH,
			want: []float64{0.05333333333333333, nan, 0.040000000000000001, 0.05333333333333333, 0.90000000000000002}},
		{r: `p.adjust(p, "none")`, p: p, m: NoAdjust, want: p},
	} {
		got := Adjust(nil, tc.p, tc.m)
		for j := range got {
			if !(math.IsNaN(got[j]) && math.IsNaN(tc.want[j])) && !scalar.EqualWithinAbsOrRel(got[j], tc.want[j], 1e-12, 1e-12) {
				t.Errorf("case %d (%s): [%d] = %v, want %v", i, tc.r, j, got[j], tc.want[j])
			}
		}
	}
	if !panics(func() { Adjust(nil, p, "bonferroni") }) {
		t.Error("unknown method did not panic")
	}
}

func TestSummary(t *testing.T) {
	// R: qx <- c(3.1, -2, 7.5, 0, 0, 12.25, 4.4, NaN, Inf)
	//    quantile(qx[is.finite(qx)], c(0, .1, .25, .5, .75, .9, 1)); mean(...); sd(...)
	s := NewSample([]float64{3.1, -2, 7.5, 0, 0, 12.25, 4.4, math.NaN(), math.Inf(1)})
	if s.Missing != 2 || len(s.Values) != 7 {
		t.Fatalf("NewSample: %d values, %d missing", len(s.Values), s.Missing)
	}
	for i, tc := range []struct{ p, want float64 }{
		{0, -2}, {0.1, -0.79999999999999982}, {0.25, 0}, {0.5, 3.1000000000000001},
		{0.75, 5.9500000000000002}, {0.9, 9.4000000000000021}, {1, 12.25},
	} {
		if got := s.Quantile(tc.p); !scalar.EqualWithinAbsOrRel(got, tc.want, 1e-12, 1e-12) {
			t.Errorf("case %d: Quantile(%v) = %v, want %v", i, tc.p, got, tc.want)
		}
	}
	sum := s.Summary()
	if !scalar.EqualWithinRel(sum.Mean, 3.6071428571428572, 1e-12) || !scalar.EqualWithinRel(sum.SD, 4.9699453863052803, 1e-12) {
		t.Errorf("mean %v sd %v", sum.Mean, sum.SD)
	}
	if sum.N != 7 || sum.Missing != 2 || sum.Min != -2 || sum.Max != 12.25 || sum.Q1 != 0 || sum.Median != 3.1 {
		t.Errorf("summary %+v", sum)
	}
	empty := NewSample([]float64{math.NaN()}).Summary()
	if !math.IsNaN(empty.Median) || !errors.Is(empty.Warnings[0], ErrNoData) {
		t.Errorf("empty summary %+v", empty)
	}
	one := NewSample([]float64{4}).Summary()
	if one.Median != 4 || !math.IsNaN(one.SD) {
		t.Errorf("one-value summary %+v", one)
	}
}

func TestRank(t *testing.T) {
	// R: rank(c(3, 1, 4, 1, 5, 9, 2, 6, 5)) = 4.0 1.5 5.0 1.5 6.5 9.0 3.0 8.0 6.5
	got := Rank(nil, []float64{3, 1, 4, 1, 5, 9, 2, 6, 5})
	want := []float64{4, 1.5, 5, 1.5, 6.5, 9, 3, 8, 6.5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Rank = %v, want %v", got, want)
		}
	}
}

// RoundingTimes is the example matrix of ?friedman.test (Hollander & Wolfe 1973, p. 140).
var roundingTimes = [][]float64{
	{5.40, 5.50, 5.55}, {5.85, 5.70, 5.75}, {5.20, 5.60, 5.50}, {5.55, 5.50, 5.40}, {5.90, 5.85, 5.70},
	{5.45, 5.55, 5.60}, {5.40, 5.40, 5.35}, {5.45, 5.50, 5.35}, {5.25, 5.15, 5.00}, {5.85, 5.80, 5.70},
	{5.25, 5.20, 5.10}, {5.65, 5.55, 5.45}, {5.60, 5.35, 5.45}, {5.05, 5.00, 4.95}, {5.50, 5.50, 5.40},
	{5.45, 5.55, 5.50}, {5.55, 5.55, 5.35}, {5.45, 5.50, 5.55}, {5.50, 5.45, 5.25}, {5.65, 5.60, 5.40},
	{5.70, 5.65, 5.55}, {6.30, 6.30, 6.25},
}

func TestFriedman(t *testing.T) {
	nan := math.NaN()
	for i, tc := range []struct {
		r     string
		y     [][]float64
		stat  float64
		df    int
		p     float64
		ranks []float64 // colMeans(t(apply(y, 1, rank)))
		cd    float64   // qtukey(0.95, k, Inf)/sqrt(2) * sqrt(k*(k+1)/(6*N))
	}{
		{r: "friedman.test(RoundingTimes)", y: roundingTimes, stat: 11.142857142857142, df: 2, p: 0.003805040775511363,
			ranks: []float64{2.4090909090909092, 2.1363636363636362, 1.4545454545454546},
			cd:    2.3437005879021418 * math.Sqrt(3*4/(6*22.0))},
		{r: "friedman.test(matrix(c(1,2,3,4, 2,1,4,3, 1,3,2,4, 1,2,4,3, 2,2,1,3), 5, byrow=TRUE))",
			y:    [][]float64{{1, 2, 3, 4}, {2, 1, 4, 3}, {1, 3, 2, 4}, {1, 2, 4, 3}, {2, 2, 1, 3}, {nan, 1, 2, 3}},
			stat: 7.5306122448979593, df: 3, p: 0.056777087556424854, ranks: []float64{1.5, 2.1, 2.8, 3.6},
			cd: 2.5690317774207276 * math.Sqrt(4*5/(6*5.0))},
	} {
		f := Friedman(tc.y, 0)
		if !scalar.EqualWithinRel(f.Statistic, tc.stat, 1e-12) || f.DF != tc.df || !scalar.EqualWithinAbsOrRel(f.P, tc.p, 1e-9, 1e-9) {
			t.Errorf("case %d (%s): got %v df %d p %v", i, tc.r, f.Statistic, f.DF, f.P)
		}
		for j, r := range tc.ranks {
			if !scalar.EqualWithinRel(f.MeanRanks[j], r, 1e-12) {
				t.Errorf("case %d: mean ranks %v, want %v", i, f.MeanRanks, tc.ranks)
				break
			}
		}
		if !scalar.EqualWithinRel(f.CD, tc.cd, 1e-6) {
			t.Errorf("case %d: CD %v, want %v", i, f.CD, tc.cd)
		}
	}
}

func TestStudentizedRange(t *testing.T) {
	// R: ptukey(q, k, Inf), whose own error is about 2e-7 for k = 27 (see the integrate() check below).
	for i, tc := range []struct {
		q    float64
		want [4]float64 // k = 2, 3, 7, 27
	}{
		{0.5, [4]float64{0.27632639016824834, 0.066578054864695618, 0.00015384283994166622, 0}},
		{1, [4]float64{0.52049987781305163, 0.24071264122928304, 0.0077759945056023886, 6.9489990742182756e-11}},
		{2.5, [4]float64{0.9229001282564584, 0.81949106279330819, 0.42999275000045367, 0.0067460155069341094}},
		{3.3, [4]float64{0.98037558502328759, 0.94868909358101372, 0.77208067805937108, 0.15775150907924068}},
		{5, [4]float64{0.99959304798255488, 0.99881600876901322, 0.99255944330038326, 0.91585374366598871}},
	} {
		for j, k := range []int{2, 3, 7, 27} {
			if got := StudentizedRangeCDF(tc.q, k); !scalar.EqualWithinAbs(got, tc.want[j], 1e-6) {
				t.Errorf("case %d: ptukey(%v, %d, Inf) = %.12g, want %.12g", i, tc.q, k, got, tc.want[j])
			}
		}
	}
	// R: f <- function(q, k) k*integrate(function(z) dnorm(z)*(pnorm(z)-pnorm(z-q))^(k-1),
	//                                    -Inf, Inf, rel.tol = 1e-13)$value
	for i, tc := range []struct {
		q    float64
		k    int
		want float64
	}{
		{2.5, 27, 0.00674601844084381}, {3.3, 27, 0.15775129550393896}, {3.3, 7, 0.77208067811731806},
	} {
		if got := StudentizedRangeCDF(tc.q, tc.k); !scalar.EqualWithinAbs(got, tc.want, 1e-10) {
			t.Errorf("case %d: f(%v, %d) = %.15g, want %.15g", i, tc.q, tc.k, got, tc.want)
		}
	}
	// R: qtukey(0.95, k, Inf)/sqrt(2) and qtukey(0.90, k, Inf)/sqrt(2)
	for i, tc := range []struct {
		k        int
		q05, q10 float64
	}{
		{2, 1.9599639847662103, 1.6448536269820513},
		{3, 2.3437005879021418, 2.0522927305491994},
		{4, 2.5690317774207276, 2.2913414969963037},
		{5, 2.7277743825185543, 2.4595157644295171},
		{10, 3.1636837535027902, 2.9198888406470949},
		{27, 3.6964133544407578, 3.4789713785026932},
	} {
		if got := NemenyiQ(0.05, tc.k); !scalar.EqualWithinAbs(got, tc.q05, 1e-6) {
			t.Errorf("case %d: NemenyiQ(0.05, %d) = %.10g, want %.10g", i, tc.k, got, tc.q05)
		}
		if got := NemenyiQ(0.10, tc.k); !scalar.EqualWithinAbs(got, tc.q10, 1e-6) {
			t.Errorf("case %d: NemenyiQ(0.10, %d) = %.10g, want %.10g", i, tc.k, got, tc.q10)
		}
	}
}

// TestSpearman: R's cor(x, y, method = "spearman") on a tied case, and the NaN cases.
func TestSpearman(t *testing.T) {
	// R: cor(c(1, 2, 2, 4, 5), c(5, 3, 4, 1, 1), method = "spearman") = -0.9473684210526317
	if got, want := Spearman([]float64{1, 2, 2, 4, 5}, []float64{5, 3, 4, 1, 1}), -0.9473684210526317; math.Abs(got-want) > 1e-12 {
		t.Errorf("Spearman = %v, want %v", got, want)
	}
	for _, c := range [][2][]float64{{{1}, {2}}, {{1, 2}, {1}}, {{1, math.NaN(), 3}, {1, 2, 3}}, {{1, 1, 1}, {1, 2, 3}}} {
		if got := Spearman(c[0], c[1]); !math.IsNaN(got) {
			t.Errorf("Spearman(%v, %v) = %v, want NaN", c[0], c[1], got)
		}
	}
}
