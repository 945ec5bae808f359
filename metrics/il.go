package metrics

import (
	"math"
	"sort"

	"github.com/sdcbench/sdcbench/internal/covariance"
)

// Value-level information-loss measures of metrics.md §2.4, §2.5, §2.8 and §2.10.
func init() {
	Register(Func(Info{ID: "il1s_sum_sdc", Unit: "raw", Better: Lower,
		Description: "sum of |x−x'|/(√2·S) over cells (sdcMicro dUtility IL1s; Morais (2022) IL1s; metrics.md §2.4)"},
		IL1sSumSDC))
	Register(Func(Info{ID: "il1s_rel", Unit: "%", Better: Lower,
		Description: "100·Σ|x−x'|/S ÷ Σ|x'−x̄|/S (MAGGA study code IL2r; metrics.md §2.4)"}, IL1sRel))
	Register(Func(Info{ID: "il1rel", Unit: "%", Better: Lower,
		Description: "100·mean |x−x'|/|x| (|x'| if x = 0; x = x' = 0 cells excluded) (Morais (2022) IL1 Eq. 5.11; metrics.md §2.5)"},
		IL1Rel))
	Register(Func(Info{ID: "il1rel_sum_sdc", Unit: "%", Better: Lower,
		Description: "Σ over x ≠ 0 of 100·|x−x'|/|x| (sdcMicro dUtility IL1; Morais (2022) tables; metrics.md §2.5)"},
		IL1RelSumSDC))
	Register(Func(Info{ID: "mse", Unit: "raw", Better: Lower,
		Description: "mean squared error of the values (Morais (2022) EQM; metrics.md §2.8)"}, MSE))
	Register(Func(Info{ID: "mae", Unit: "raw", Better: Lower,
		Description: "mean absolute error of the values (Morais (2022) EAM; metrics.md §2.8)"}, MAE))
	Register(Func(Info{ID: "mse_cov", Unit: "raw", Better: Lower,
		Description: "mean squared difference of the full covariance matrices (Morais (2022) EQM Σ; metrics.md §2.8)"},
		MSECov))
	Register(Func(Info{ID: "mae_cov", Unit: "raw", Better: Lower,
		Description: "mean absolute difference of the full covariance matrices (Morais (2022) EAM Σ; metrics.md §2.8)"},
		MAECov))
	Register(Func(Info{ID: "mse_cor", Unit: "frac", Better: Lower,
		Description: "mean squared difference of the full correlation matrices (Morais (2022) EQM ρ; metrics.md §2.8)"},
		MSECor))
	Register(Func(Info{ID: "mae_cor", Unit: "frac", Better: Lower,
		Description: "mean absolute difference of the full correlation matrices (Morais (2022) EAM ρ; metrics.md §2.8)"},
		MAECor))
	Register(Func(Info{ID: "gini_diff", Unit: "pp", Better: Lower,
		Description: "mean over attributes of |Gini(X) − Gini(X')|, laeken weighted Gini (Morais (2022) Eq. 5.14-5.15; metrics.md §2.10)"},
		GiniDiff))
}

// IL1sSumSDC returns il1s_sum_sdc, sdcMicro's dUtility(method = "IL1s") (metrics.md §2.4):
//
//	Σ_l Σ_j |x_jl − x'_jl|/(√2·S_l)
//
// over all cells, not divided by n·p, with S_l the SD of the original's observed cells
// (sd(x, na.rm = TRUE)). Cells that give NaN (a missing value in either table, 0/0 in a
// constant column) are dropped and ±Inf cells are kept, as in R's sum(…, na.rm = TRUE);
// Aux "ndropped" counts the dropped cells. Without missing or constant columns it equals
// n·p·il1s. NaN if n < 2.
func IL1sSumSDC(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	x, xm := in.Orig.Data, in.Masked.Data
	if n < 2 {
		return nan()
	}
	sc := in.Scaling()
	sd := sc.SD
	var sum float64
	dropped := 0
	for l := 0; l < p; l++ {
		den := math.Sqrt2 * sd[l]
		for i := 0; i < n; i++ {
			v := math.Abs(x[i*p+l]-xm[i*p+l]) / den
			if sc.Rescaled(l) && both(x[i*p+l], xm[i*p+l]) {
				v = math.Abs(sc.DiffSD(l, x[i*p+l], xm[i*p+l])) / math.Sqrt2
			}
			if math.IsNaN(v) {
				dropped++
				continue
			}
			sum += v
		}
	}
	res := Result{Value: sum}
	if dropped > 0 {
		res.Aux = map[string]float64{"ndropped": float64(dropped)}
	}
	return res
}

// IL1sRel returns il1s_rel, MAGGA study's code "IL2r" (metrics.md §2.4), in %:
//
//	100·[Σ_{l∈C,j} |x_jl − x'_jl|/S_l] / [Σ_{l∈C,j} |x'_jl − x̄_l|/S_l]
//
// over the non-constant columns C and the cells observed in both tables (a cell missing in
// either is left out of both sums). NaN if C is empty, n < 2 or the denominator is 0.
func IL1sRel(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	x, xm := in.Orig.Data, in.Masked.Data
	cols := in.KeptColumns()
	if n < 2 || len(cols) == 0 {
		return nan()
	}
	s := in.Scaling()
	var num, den float64
	for _, l := range cols {
		for i := 0; i < n; i++ {
			if !both(x[i*p+l], xm[i*p+l]) {
				continue
			}
			if s.Rescaled(l) {
				num += math.Abs(s.DiffSD(l, x[i*p+l], xm[i*p+l]))
				den += math.Abs(s.Z(l, xm[i*p+l]))
				continue
			}
			num += math.Abs(x[i*p+l]-xm[i*p+l]) / s.SD[l]
			den += math.Abs(xm[i*p+l]-s.Mean[l]) / s.SD[l]
		}
	}
	if den == 0 {
		return nan()
	}
	res := Result{Value: 100 * num / den}
	if k := p - len(cols); k > 0 {
		res.Notes = append(res.Notes, constantNote(k))
	}
	return res
}

// IL1Rel returns il1rel, Morais (2022)'s Eq. 5.11 (metrics.md §2.5), in %:
//
//	100·mean over valid cells of |x − x'|/d,  d = |x| if x ≠ 0, else |x'|,
//
// where a cell with x = x' = 0 is excluded (Aux "nexcl" counts them) and a cell missing in
// either table is skipped (Aux "nskip"). Raw values. NaN if no cell is valid.
func IL1Rel(in *Input) Result {
	ro, rm := in.Rescaled() // relative errors: exact on rescaled columns, no overflow in x − x'
	x, xm := ro.Data, rm.Data
	var sum float64
	cnt, excl, skip := 0, 0, 0
	for i, v := range x {
		w := xm[i]
		if !both(v, w) {
			skip++
			continue
		}
		d := math.Abs(v)
		if v == 0 {
			d = math.Abs(w)
		}
		if d == 0 {
			excl++
			continue
		}
		sum += math.Abs(v-w) / d
		cnt++
	}
	if cnt == 0 {
		return nan()
	}
	res := Result{Value: 100 * sum / float64(cnt), Aux: map[string]float64{"nexcl": float64(excl)}}
	if skip > 0 {
		res.Aux["nskip"] = float64(skip)
	}
	return res
}

// IL1RelSumSDC returns il1rel_sum_sdc, sdcMicro's dUtility(method = "IL1") (metrics.md §2.5):
//
//	Σ over cells with x ≠ 0 of 100·|x − x'|/|x|,
//
// not divided by the number of cells; a cell missing in either table is skipped, as
// sdcMicro's sum(…, na.rm = TRUE).
func IL1RelSumSDC(in *Input) Result {
	ro, rm := in.Rescaled()
	x, xm := ro.Data, rm.Data
	var sum float64
	for i, v := range x {
		if v != 0 && both(v, xm[i]) {
			sum += 100 * math.Abs(v-xm[i]) / math.Abs(v)
		}
	}
	return Result{Value: sum}
}

// MSE returns mse = (1/N)·Σ_j Σ_l (x_jl − x'_jl)² on raw values over the N cells observed in
// both tables (N = np without missing cells; metrics.md §2.8). NaN when N = 0.
func MSE(in *Input) Result { return Result{Value: meanErr(in.Orig.Data, in.Masked.Data, true)} }

// MAE returns mae = (1/N)·Σ_j Σ_l |x_jl − x'_jl| on raw values over the N cells observed in
// both tables (metrics.md §2.8).
func MAE(in *Input) Result { return Result{Value: meanErr(in.Orig.Data, in.Masked.Data, false)} }

// meanErr returns the mean squared or absolute difference of a and b over the indices where
// both are observed (not NaN); NaN if there is none.
func meanErr(a, b []float64, squared bool) float64 {
	var s float64
	cnt := 0
	for i, v := range a {
		if !both(v, b[i]) {
			continue
		}
		cnt++
		d := v - b[i]
		if squared {
			s += d * d
		} else {
			s += math.Abs(d)
		}
	}
	if cnt == 0 {
		return math.NaN()
	}
	return s / float64(cnt)
}

// MSECov returns mse_cov = (1/p²)·Σ_{h,l} (V_hl − V'_hl)² over the full p×p sample
// covariance matrices (n−1), diagonal included (metrics.md §2.8). With missing cells each
// matrix is R's cov(…, use = "pairwise.complete.obs") (cor(…) for the correlation
// measures). NaN if n < 2 or an entry is undefined (a constant column, fewer than 2 rows
// observed on a pair).
func MSECov(in *Input) Result { return matErr(in, false, true) }

// MAECov returns mae_cov = (1/p²)·Σ_{h,l} |V_hl − V'_hl| (metrics.md §2.8).
func MAECov(in *Input) Result { return matErr(in, false, false) }

// MSECor returns mse_cor = (1/p²)·Σ_{h,l} (r_hl − r'_hl)² over the full correlation matrices
// (metrics.md §2.8); the diagonal contributes 0. NaN if a column is constant in X or X'.
func MSECor(in *Input) Result { return matErr(in, true, true) }

// MAECor returns mae_cor = (1/p²)·Σ_{h,l} |r_hl − r'_hl| (metrics.md §2.8).
func MAECor(in *Input) Result { return matErr(in, true, false) }

func matErr(in *Input, cor, squared bool) Result {
	n, p := in.Orig.N, in.Orig.P
	if n < 2 || p == 0 {
		return nan()
	}
	var a, b []float64
	switch {
	case hasNaN(in.Orig.Data, in.Masked.Data) && cor:
		a, b = pairwiseCor(in.Orig.Data, n, p), pairwiseCor(in.Masked.Data, n, p)
	case hasNaN(in.Orig.Data, in.Masked.Data):
		a, b = pairwiseCov(in.Orig.Data, n, p), pairwiseCov(in.Masked.Data, n, p)
	default:
		a = covariance.Matrix(in.Orig.Data, n, p)
		b = covariance.Matrix(in.Masked.Data, n, p)
		if cor {
			a, b = covariance.Correlation(a, p), covariance.Correlation(b, p)
		}
	}
	if hasNaN(a, b) {
		return nan()
	}
	return Result{Value: meanErr(a, b, squared)}
}

// GiniDiff returns gini_diff = mean over attributes l of |G(X_l) − G(X'_l)|, in percentage
// points (metrics.md §2.10, Morais (2022) Eq. 5.14-5.15), with G the weighted Gini coefficient
// of Gini (R laeken). The weights are the column Opt.Weight of the original (all 1 when it
// is ""), and that column is not itself an attribute. Both coefficients of an attribute are
// computed on the records whose value is observed in both tables (and whose weight is
// observed). Aux holds the per-attribute differences under the column names. NaN if an
// attribute has Σωx = 0 or no record observed in both tables.
func GiniDiff(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	ro, rm := in.Rescaled()
	if n == 0 {
		return nan()
	}
	var w []float64
	wc := -1
	if in.Opt.Weight != "" {
		if wc = colIndex(in.Orig.Names, in.Opt.Weight); wc < 0 {
			return nanNote("weight column " + in.Opt.Weight + " not found")
		}
		w = in.Orig.Col(wc)
	}
	res := Result{Aux: map[string]float64{}}
	var sum float64
	cnt := 0
	neg := false
	for l := 0; l < p; l++ {
		if l == wc {
			continue
		}
		a, b := ro.Col(l), rm.Col(l) // a Gini coefficient is scale-free
		a, b, wl := observedPairs(a, b, w)
		if len(a) == 0 {
			return nanNote(NoteMissing + "column " + in.Orig.Names[l] + " has no value observed in both tables")
		}
		for i := range a {
			neg = neg || a[i] < 0 || b[i] < 0
		}
		d := math.Abs(Gini(a, wl) - Gini(b, wl))
		res.Aux[in.Orig.Names[l]] = d
		sum += d
		cnt++
	}
	if cnt == 0 {
		return nan()
	}
	res.Value = sum / float64(cnt)
	if neg {
		res.Notes = append(res.Notes, "negative values: the Gini coefficient is hard to interpret")
	}
	return res
}

// Gini returns the weighted Gini coefficient of x in percent, as R's laeken::gini computes it
// (metrics.md §2.10): with x sorted ascending (stable by index), W_i = Σ_{j≤i} ω_j,
//
//	G = 100·[(2·Σ_i ω_i x_i W_i − Σ_i ω_i² x_i) / ((Σω)·(Σωx)) − 1].
//
// If w is nil every weight is 1. NaN if Σωx = 0. x and w are not modified.
func Gini(x, w []float64) float64 {
	n := len(x)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	var cum, s1, s2, sw, swx float64
	for _, i := range idx {
		wi := wt(i)
		cum += wi
		s1 += wi * x[i] * cum
		s2 += wi * wi * x[i]
		sw += wi
		swx += wi * x[i]
	}
	if swx == 0 {
		return math.NaN()
	}
	return 100 * ((2*s1-s2)/(sw*swx) - 1)
}

// observedPairs returns a, b and w (nil stays nil) restricted to the indices where a, b and w
// are all observed; without a missing value they are returned as they are.
func observedPairs(a, b, w []float64) (a2, b2, w2 []float64) {
	if !hasNaN(a, b, w) {
		return a, b, w
	}
	for i := range a {
		if !both(a[i], b[i]) || (w != nil && math.IsNaN(w[i])) {
			continue
		}
		a2, b2 = append(a2, a[i]), append(b2, b[i])
		if w != nil {
			w2 = append(w2, w[i])
		}
	}
	return a2, b2, w2
}
