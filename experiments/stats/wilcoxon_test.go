package stats

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// Reference values: R 4.2.2, stats::wilcox.test, printed with sprintf("%.17g").
var (
	x1 = []float64{1.2, 3.4, 2.2, 5.0, 3.4, 0.7}
	y1 = []float64{2.8, 4.1, 3.4, 6.3, 5.5}
	x2 = []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	y2 = []float64{1.15, 0.88, 0.90, 0.74, 1.21}
	xs = []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	ys = []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
)

// seq returns f(1), ..., f(n) scaled by a, as R's a*f(1:n) + b.
func seq(n int, f func(float64) float64, a, b float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a*f(float64(i+1)) + b
	}
	return out
}

func roundAll(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.RoundToEven(v) // R's round() is IEC 60559, half to even
	}
	return out
}

func TestRankSum(t *testing.T) {
	nan := math.NaN()
	x3 := seq(60, math.Sin, 10, 0)
	y3 := seq(55, math.Cos, 10, 1)
	for i, tc := range []struct {
		r      string // the R call
		x, y   []float64
		opt    *WilcoxonOptions
		stat   float64
		p      float64
		method string
		warn   error
	}{
		{r: "wilcox.test(x1, y1)", x: x1, y: y1, stat: 6, p: 0.11730556401208671,
			method: "Wilcoxon rank sum test with continuity correction", warn: ErrTies},
		{r: "wilcox.test(x1, y1, correct = FALSE)", x: x1, y: y1, opt: &WilcoxonOptions{NoCorrect: true},
			stat: 6, p: 0.09725442843900324, method: "Wilcoxon rank sum test", warn: ErrTies},
		{r: "wilcox.test(x2, y2)", x: x2, y: y2, stat: 35, p: 0.2544122544122544,
			method: "Wilcoxon rank sum exact test"},
		{r: "wilcox.test(x2, y2, exact = FALSE)", x: x2, y: y2, opt: &WilcoxonOptions{Exact: ExactNever},
			stat: 35, p: 0.24462360512698336, method: "Wilcoxon rank sum test with continuity correction"},
		{r: "wilcox.test(x2, y2, exact = FALSE, correct = FALSE)", x: x2, y: y2,
			opt: &WilcoxonOptions{Exact: ExactNever, NoCorrect: true}, stat: 35, p: 0.22067136191984679,
			method: "Wilcoxon rank sum test"},
		{r: "wilcox.test(c(1,2,3), c(4,5,6))", x: []float64{1, 2, 3}, y: []float64{4, 5, 6}, stat: 0,
			p: 0.10000000000000001, method: "Wilcoxon rank sum exact test", warn: ErrTooFew},
		{r: "wilcox.test(c(10,2,30,4,5), c(6))", x: []float64{10, 2, 30, 4, 5}, y: []float64{6}, stat: 2,
			p: 1, method: "Wilcoxon rank sum exact test", warn: ErrTooFew},
		{r: "wilcox.test(10*sin(1:60), 10*cos(1:55)+1)", x: x3, y: y3, stat: 1554, p: 0.5928591556556162,
			method: "Wilcoxon rank sum test with continuity correction"},
		{r: "wilcox.test(x3[1:49], y3[1:30])", x: x3[:49], y: y3[:30], stat: 690, p: 0.65493714966975225,
			method: "Wilcoxon rank sum exact test"},
		{r: "wilcox.test(x3[1:49], y3[1:30], exact = FALSE)", x: x3[:49], y: y3[:30],
			opt: &WilcoxonOptions{Exact: ExactNever}, stat: 690, p: 0.65305811111638834,
			method: "Wilcoxon rank sum test with continuity correction"},
		{r: "wilcox.test(c(1,2,NA,4), c(3,NA,5,6,7))", x: []float64{1, 2, nan, 4}, y: []float64{3, nan, 5, 6, 7},
			stat: 1, p: 0.11428571428571428, method: "Wilcoxon rank sum exact test", warn: ErrTooFew},
		{r: "wilcox.test(round(x3), round(y3))", x: roundAll(x3), y: roundAll(y3), stat: 1547,
			p: 0.56546045857925864, method: "Wilcoxon rank sum test with continuity correction"},
	} {
		c := RankSum(tc.x, tc.y, tc.opt)
		checkComparison(t, i, tc.r, c, tc.stat, tc.p, tc.method, tc.warn)
	}
}

func TestSignedRank(t *testing.T) {
	nan := math.NaN()
	for i, tc := range []struct {
		r      string
		x, y   []float64
		opt    *WilcoxonOptions
		stat   float64
		p      float64
		method string
		warn   error
	}{
		{r: "wilcox.test(xs, ys, paired = TRUE)", x: xs, y: ys, stat: 40, p: 0.0390625,
			method: "Wilcoxon signed rank exact test"},
		{r: "wilcox.test(xs, ys, paired = TRUE, exact = FALSE)", x: xs, y: ys, opt: &WilcoxonOptions{Exact: ExactNever},
			stat: 40, p: 0.044010984012951455, method: "Wilcoxon signed rank test with continuity correction"},
		{r: "wilcox.test(xs, ys, paired = TRUE, exact = FALSE, correct = FALSE)", x: xs, y: ys,
			opt: &WilcoxonOptions{Exact: ExactNever, NoCorrect: true}, stat: 40, p: 0.038151710173415156,
			method: "Wilcoxon signed rank test"},
		{r: "wilcox.test(c(1,2,3,4,5,6,7,8), c(1,1,2,2,3,3,4,9), paired = TRUE)",
			x: []float64{1, 2, 3, 4, 5, 6, 7, 8}, y: []float64{1, 1, 2, 2, 3, 3, 4, 9}, stat: 26, p: 0.049411620390209882,
			method: "Wilcoxon signed rank test with continuity correction", warn: ErrZeros},
		{r: "wilcox.test(sin(1:60), cos(1:60), paired = TRUE)", x: seq(60, math.Sin, 1, 0), y: seq(60, math.Cos, 1, 0),
			stat: 965, p: 0.7155598218427256, method: "Wilcoxon signed rank test with continuity correction"},
		{r: "wilcox.test(sin(1:49), cos(1:49), paired = TRUE)", x: seq(49, math.Sin, 1, 0), y: seq(49, math.Cos, 1, 0),
			stat: 631, p: 0.85916779382709418, method: "Wilcoxon signed rank exact test"},
		{r: "wilcox.test(c(1.5,NA,3.25,4,2), c(1,2,NA,1,7), paired = TRUE)",
			x: []float64{1.5, nan, 3.25, 4, 2}, y: []float64{1, 2, nan, 1, 7}, stat: 3, p: 1,
			method: "Wilcoxon signed rank exact test", warn: ErrTooFew},
		{r: "wilcox.test(c(-1.1,2.3,3.7,0.4,5.9,-0.2))", x: []float64{-1.1, 2.3, 3.7, 0.4, 5.9, -0.2}, stat: 17,
			p: 0.21875000000000008, method: "Wilcoxon signed rank exact test"},
		{r: "wilcox.test(c(1,2,3), c(0.5,0.4,0.1), paired = TRUE)", x: []float64{1, 2, 3}, y: []float64{0.5, 0.4, 0.1},
			stat: 6, p: 0.25000000000000006, method: "Wilcoxon signed rank exact test", warn: ErrTooFew},
		{r: "wilcox.test(round(3*sin(1:30)), round(3*cos(1:30)), paired = TRUE)",
			x: roundAll(seq(30, math.Sin, 3, 0)), y: roundAll(seq(30, math.Cos, 3, 0)), stat: 186.5,
			p: 0.78787968155330279, method: "Wilcoxon signed rank test with continuity correction", warn: ErrTies},
	} {
		c := SignedRank(tc.x, tc.y, tc.opt)
		checkComparison(t, i, tc.r, c, tc.stat, tc.p, tc.method, tc.warn)
	}
}

func checkComparison(t *testing.T, i int, r string, c Comparison, stat, p float64, method string, warn error) {
	t.Helper()
	if c.Statistic != stat {
		t.Errorf("case %d (%s): statistic %v, want %v", i, r, c.Statistic, stat)
	}
	if !scalar.EqualWithinAbsOrRel(c.P, p, 1e-9, 1e-9) {
		t.Errorf("case %d (%s): p %.17g, want %.17g", i, r, c.P, p)
	}
	if c.Method != method {
		t.Errorf("case %d (%s): method %q, want %q", i, r, c.Method, method)
	}
	if c.Exact != strings.Contains(method, "exact") {
		t.Errorf("case %d (%s): Exact = %v", i, r, c.Exact)
	}
	found := warn == nil && len(c.Warnings) == 0
	for _, w := range c.Warnings {
		if warn != nil && errors.Is(w, warn) {
			found = true
		}
	}
	if !found {
		t.Errorf("case %d (%s): warnings %v, want %v", i, r, c.Warnings, warn)
	}
}

func TestWilcoxonDegenerate(t *testing.T) {
	// R: wilcox.test(c(1,2), c(1,2), paired = TRUE) gives V = 0 and p = NA.
	c := SignedRank([]float64{1, 2}, []float64{1, 2}, nil)
	if c.Statistic != 0 || !math.IsNaN(c.P) {
		t.Errorf("all-zero differences: V=%v p=%v, want 0 and NaN", c.Statistic, c.P)
	}
	c = RankSum(nil, []float64{1}, nil)
	if !math.IsNaN(c.P) || !errors.Is(c.Warnings[0], ErrNoObs) {
		t.Errorf("empty x: %+v", c)
	}
	if !panics(func() { SignedRank([]float64{1}, []float64{1, 2}, nil) }) {
		t.Error("SignedRank did not panic on a length mismatch")
	}
}

func TestExactDistributions(t *testing.T) {
	// Invariants: counts sum to the total; the distributions are symmetric.
	for _, mn := range [][2]int{{1, 1}, {3, 5}, {7, 2}, {12, 12}, {49, 49}} {
		d := rankSumDist(mn[0], mn[1])
		if got, want := len(d.counts), mn[0]*mn[1]+1; got != want {
			t.Fatalf("rankSumDist%v: %d counts, want %d", mn, got, want)
		}
		want := scalar.Round(math.Exp(lchoose(mn[0]+mn[1], mn[0])), 0)
		if !scalar.EqualWithinRel(d.total, want, 1e-12) {
			t.Errorf("rankSumDist%v: total %v, want C(m+n,m)=%v", mn, d.total, want)
		}
		for k := range d.counts {
			if d.counts[k] != d.counts[len(d.counts)-1-k] {
				t.Errorf("rankSumDist%v not symmetric at %d", mn, k)
				break
			}
		}
	}
	for _, n := range []int{1, 2, 10, 49} {
		d := signedRankDist(n)
		var s float64
		for _, c := range d.counts {
			s += c
		}
		if s != d.total {
			t.Errorf("signedRankDist(%d): sum %v, want %v", n, s, d.total)
		}
	}
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}
