package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Marginal diagnostics of a release (docs/perturbative.md): they back the pattern checks of
// the perturbative experiments (Morais 2022, Tables 29-35) without a side table. None of them
// is a loss or a risk, so they are not compared (Better: None).
func init() {
	Register(Func(Info{ID: "marg_kept", Unit: "count", Better: None,
		Description: "number of columns whose sorted values equal the original's exactly"}, MargKept))
	Register(Func(Info{ID: "neg_cols", Unit: "count", Better: None,
		Description: "number of columns with a negative released value"}, NegCols))
	Register(Func(Info{ID: "zeros_kept", Unit: "count", Better: None,
		Description: "number of columns released with min ≥ 0 and y = 0 exactly where x = 0"}, ZerosKept))
	Register(Func(Info{ID: "mean_dev_max", Unit: "frac", Better: None,
		Description: "max over columns of |mean(x') − mean(x)|/SD(x)"}, MeanDevMax))
	Register(Func(Info{ID: "cov_dev_max", Unit: "frac", Better: None,
		Description: "max over column pairs of |cov(x'_a,x'_b) − cov(x_a,x_b)|/(SD(x_a)·SD(x_b))"}, CovDevMax))
	Register(Func(Info{ID: "var_ratio_max", Unit: "frac", Better: None,
		Description: "max over columns of var(x')/var(x)"}, VarRatioMax))
	Register(Func(Info{ID: "max_ratio_max", Unit: "frac", Better: None,
		Description: "max over columns of max(x')/max(x)"}, MaxRatioMax))
	Register(Func(Info{ID: "desc_col1", Unit: "raw", Better: None,
		Description: "mean of the first released column, with its min, quartiles (R type 7), max and variance as components",
		Components:  []string{"min", "q1", "median", "q3", "max", "var"}}, DescCol1))
}

func colOf(data []float64, n, p, j int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = data[i*p+j]
	}
	return c
}

// MargKept counts the columns that are a permutation of the original column.
func MargKept(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	k := 0
	for j := 0; j < p; j++ {
		a, b := colOf(in.Orig.Data, n, p, j), colOf(in.Masked.Data, n, p, j)
		slices.Sort(a)
		slices.Sort(b)
		if slices.Equal(a, b) {
			k++
		}
	}
	return Result{Value: float64(k)}
}

// NegCols counts the columns with a negative released value.
func NegCols(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	k := 0
	for j := 0; j < p; j++ {
		for i := 0; i < n; i++ {
			if in.Masked.Data[i*p+j] < 0 {
				k++
				break
			}
		}
	}
	return Result{Value: float64(k)}
}

// ZerosKept counts the columns released with no negative value and 0 exactly where x = 0.
func ZerosKept(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	k := 0
	for j := 0; j < p; j++ {
		ok := true
		for i := 0; i < n && ok; i++ {
			x, y := in.Orig.Data[i*p+j], in.Masked.Data[i*p+j]
			ok = y >= 0 && (x != 0 || y == 0)
		}
		if ok {
			k++
		}
	}
	return Result{Value: float64(k)}
}

// obsCol returns column j of a row-major n×p table without its missing (NaN) cells, as R's
// na.rm = TRUE: the marginal diagnostics use each column's observed values (metrics.md §0.4).
func obsCol(data []float64, n, p, j int) []float64 {
	c := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		if v := data[i*p+j]; !math.IsNaN(v) {
			c = append(c, v)
		}
	}
	return c
}

// MeanDevMax returns max_j |mean(x'_j) − mean(x_j)|/SD(x_j), each over the column's observed
// values.
func MeanDevMax(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	var worst float64
	for j := 0; j < p; j++ {
		mx, sx := stat.MeanStdDev(obsCol(in.Orig.Data, n, p, j), nil)
		my := stat.Mean(obsCol(in.Masked.Data, n, p, j), nil)
		worst = math.Max(worst, math.Abs(my-mx)/sx)
	}
	return Result{Value: worst}
}

// CovDevMax returns the largest covariance change in units of SD(x_a)·SD(x_b); with a missing
// cell, on the complete cases (metrics.md §0.4).
func CovDevMax(in *Input) Result {
	if cc := in.complete(); cc != nil {
		return cc.eval(CovDevMax)
	}
	n, p := in.Orig.N, in.Orig.P
	xs := make([][]float64, p)
	ys := make([][]float64, p)
	sd := make([]float64, p)
	for j := range xs {
		xs[j], ys[j] = colOf(in.Orig.Data, n, p, j), colOf(in.Masked.Data, n, p, j)
		sd[j] = stat.StdDev(xs[j], nil)
	}
	var worst float64
	for a := 0; a < p; a++ {
		for b := a; b < p; b++ {
			d := stat.Covariance(ys[a], ys[b], nil) - stat.Covariance(xs[a], xs[b], nil)
			worst = math.Max(worst, math.Abs(d)/(sd[a]*sd[b]))
		}
	}
	return Result{Value: worst}
}

// VarRatioMax returns max_j var(x'_j)/var(x_j), each over the column's observed values.
func VarRatioMax(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	worst := math.Inf(-1)
	for j := 0; j < p; j++ {
		worst = math.Max(worst, stat.Variance(obsCol(in.Masked.Data, n, p, j), nil)/stat.Variance(obsCol(in.Orig.Data, n, p, j), nil))
	}
	return Result{Value: worst}
}

// MaxRatioMax returns max_j max(x'_j)/max(x_j), each over the column's observed values; NaN
// if a column has no observed value.
func MaxRatioMax(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	worst := math.Inf(-1)
	for j := 0; j < p; j++ {
		a, b := obsCol(in.Masked.Data, n, p, j), obsCol(in.Orig.Data, n, p, j)
		if len(a) == 0 || len(b) == 0 {
			return nan()
		}
		worst = math.Max(worst, slices.Max(a)/slices.Max(b))
	}
	return Result{Value: worst}
}

// DescCol1 describes the first released column (Morais 2022 Tables 29-33 describe each
// variable; the first is the one the study discusses), over its observed values.
func DescCol1(in *Input) Result {
	c := obsCol(in.Masked.Data, in.Orig.N, in.Orig.P, 0)
	n := len(c)
	if n == 0 {
		return nan()
	}
	mean, v := stat.MeanVariance(c, nil)
	slices.Sort(c)
	q := func(f float64) float64 { // R type 7
		h := f * float64(n-1)
		lo := int(math.Floor(h))
		if lo+1 >= n {
			return c[n-1]
		}
		return c[lo] + (h-float64(lo))*(c[lo+1]-c[lo])
	}
	return Result{Value: mean, Aux: map[string]float64{"min": c[0], "q1": q(0.25), "median": q(0.5),
		"q3": q(0.75), "max": c[n-1], "var": v}}
}
