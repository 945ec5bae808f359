package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/registry"
)

// Confidence-interval overlap of a linear model (docs/synthetic.md): Karr, Kohnen, Oganian,
// Reiter and Sanil 2006, "A framework for evaluating the utility of data altered to protect
// confidentiality", the measure synthpop's compare.fit.synds reports.
func init() {
	Register(Func(Info{ID: "ci_overlap", Label: "CI overlap", Unit: "frac", Better: Higher,
		Components:  []string{"min", "n_coef"},
		Description: "mean over the coefficients of a linear model (option ci_model) of the overlap of the 95% intervals fitted on the original and on the release (Karr et al. 2006)"},
		CIOverlap))
}

// parseLinearModel splits "y ~ x1 + x2" (or "y ~ .") into the response and the predictors;
// "." stands for every other column and is returned as the single predictor ".".
func parseLinearModel(s string) (response string, predictors []string, err error) {
	lhs, rhs, ok := strings.Cut(s, "~")
	response = strings.TrimSpace(lhs)
	if !ok || response == "" || strings.ContainsAny(response, "+~") {
		return "", nil, errors.New(`want "response ~ x1 + x2" or "response ~ ."`)
	}
	for _, p := range strings.Split(rhs, "+") {
		p = strings.TrimSpace(p)
		if p == "" {
			return "", nil, errors.New(`empty predictor: want "response ~ x1 + x2" or "response ~ ."`)
		}
		if slices.Contains(predictors, p) || p == response {
			return "", nil, fmt.Errorf("predictor %q listed twice or equal to the response", p)
		}
		predictors = append(predictors, p)
	}
	if slices.Contains(predictors, ".") && len(predictors) > 1 {
		return "", nil, errors.New(`"." stands alone on the right of ~`)
	}
	return response, predictors, nil
}

// CIOverlap returns ci_overlap: for the linear model of Opt.Synth.CIModel fitted by least
// squares on the original and on the release (each on its own complete cases, as R's lm),
// the mean over the coefficients, intercept included, of Karr et al.'s interval overlap
//
//	J = ½ [ (U − L)/(u_o − l_o) + (U − L)/(u_r − l_r) ],  U = min(u_o, u_r), L = max(l_o, l_r),
//
// where [l, u] is the coefficient's 95% interval b ± t_{0.975, n−k}·se (R's confint). J is 1
// for identical intervals, 0 when they touch and negative when they are apart. A categorical
// predictor enters as treatment dummies of the categories present in either table (the
// first one as reference); a coefficient that either fit cannot estimate, or whose interval
// has zero width (an exact fit), is left out.
// A column is a name or "#N", its 1-based position among the compared columns (so that one
// spec can name the model on datasets with different column names). Aux: "min", the smallest J, and "n_coef", the number of coefficients compared. NaN (with a
// note) when ci_model is not set, names an absent column or has a categorical response.
func CIOverlap(in *Input) Result {
	if in.Opt.Synth.CIModel == "" {
		return nanNote(`ci_overlap needs a model: set ci_model = "y ~ x1 + x2" in [metric_options]`)
	}
	resp, preds, err := parseLinearModel(in.Opt.Synth.CIModel)
	if err != nil {
		return nanNote("ci_model: " + err.Error())
	}
	a, b := in.Orig, in.Masked
	col := func(name string) (int, error) {
		j := a.ColIndex(name)
		if pos, err := strconv.Atoi(strings.TrimPrefix(name, "#")); j < 0 && err == nil && strings.HasPrefix(name, "#") {
			if pos < 1 || pos > a.P {
				return -1, fmt.Errorf("ci_model: column position %s outside 1..%d", name, a.P)
			}
			j = pos - 1
		}
		if j < 0 {
			return -1, fmt.Errorf("ci_model: no column %q%s among the compared columns (%s)", name,
				registry.DidYouMean(name, a.Names), strings.Join(a.Names, ", "))
		}
		return j, nil
	}
	y, err := col(resp)
	if err != nil {
		return nanNote(err.Error())
	}
	if a.IsCategorical(y) {
		return nanNote(fmt.Sprintf("ci_model: response %q is categorical; ci_overlap fits a linear model", resp))
	}
	var xs []int
	if len(preds) == 1 && preds[0] == "." {
		for j := 0; j < a.P; j++ {
			if j != y {
				xs = append(xs, j)
			}
		}
	} else {
		for _, p := range preds {
			j, err := col(p)
			if err != nil {
				return nanNote(err.Error())
			}
			xs = append(xs, j)
		}
	}
	lo, hi, okA := lmIntervals(a, y, xs, a, b)
	lr, hr, okB := lmIntervals(b, y, xs, a, b)
	if okA == nil || okB == nil {
		return nanNote("ci_model: fewer complete records than coefficients")
	}
	var sum float64
	minJ := math.Inf(1)
	k := 0
	for c := range lo {
		if !okA[c] || !okB[c] {
			continue
		}
		if !(hi[c] > lo[c] && hr[c] > lr[c]) { // a zero-width interval: an exact fit
			continue
		}
		num := math.Min(hi[c], hr[c]) - math.Max(lo[c], lr[c])
		j := 0.5 * (num/(hi[c]-lo[c]) + num/(hr[c]-lr[c]))
		sum += j
		minJ = math.Min(minJ, j)
		k++
	}
	if k == 0 {
		return nanNote("ci_model: no coefficient estimable in both fits")
	}
	return Result{Value: sum / float64(k), Aux: map[string]float64{"min": minJ, "n_coef": float64(k)}}
}

// lmIntervals fits column y of d on the columns xs (with intercept) by least squares over
// d's complete cases and returns the 95% intervals of the coefficients. The design's
// columns are the same for both tables: a categorical predictor gives a dummy for every
// category present in a or b but the first. ok[c] is false for an aliased coefficient;
// ok is nil when the complete cases do not outnumber the estimable coefficients.
func lmIntervals(d *datasets.Dataset, y int, xs []int, a, b *datasets.Dataset) (lo, hi []float64, ok []bool) {
	var rows []int
	for i := 0; i < d.N; i++ {
		complete := d.At(i, y) == d.At(i, y)
		for _, j := range xs {
			complete = complete && d.At(i, j) == d.At(i, j)
		}
		if complete {
			rows = append(rows, i)
		}
	}
	n := len(rows)
	cols := [][]float64{constCol(n, 1)}
	for _, j := range xs {
		if !a.IsCategorical(j) {
			c := make([]float64, n)
			for r, i := range rows {
				c[r] = d.At(i, j)
			}
			cols = append(cols, c)
			continue
		}
		seen := map[int]bool{}
		for _, t := range []*datasets.Dataset{a, b} {
			for i := 0; i < t.N; i++ {
				if c := t.Code(i, j); c >= 0 {
					seen[c] = true
				}
			}
		}
		levels := sortedPresent(seen)
		for _, lv := range levels[1:] {
			c := make([]float64, n)
			for r, i := range rows {
				if d.Code(i, j) == lv {
					c[r] = 1
				}
			}
			cols = append(cols, c)
		}
	}
	keep := independentColumns(cols)
	k := len(keep)
	if n <= k {
		return nil, nil, nil
	}
	x := mat.NewDense(n, k, nil)
	yv := mat.NewVecDense(n, nil)
	for r, i := range rows {
		yv.SetVec(r, d.At(i, y))
		for c, j := range keep {
			x.Set(r, c, cols[j][r])
		}
	}
	var qr mat.QR
	qr.Factorize(x)
	var beta mat.VecDense
	if err := qr.SolveVecTo(&beta, false, yv); err != nil {
		return nil, nil, nil
	}
	var fitted mat.VecDense
	fitted.MulVec(x, &beta)
	var rss float64
	for r := 0; r < n; r++ {
		e := yv.AtVec(r) - fitted.AtVec(r)
		rss += e * e
	}
	sigma2 := rss / float64(n-k)
	// (X'X)⁻¹ = R⁻¹R⁻ᵀ from the QR factor
	var rm, rinv mat.Dense
	qr.RTo(&rm)
	rk := rm.Slice(0, k, 0, k)
	if err := rinv.Inverse(rk); err != nil {
		return nil, nil, nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - k)}.Quantile(0.975)
	p := len(cols)
	lo, hi, ok = make([]float64, p), make([]float64, p), make([]bool, p)
	for c, j := range keep {
		var v float64
		for m := 0; m < k; m++ {
			v += rinv.At(c, m) * rinv.At(c, m)
		}
		se := math.Sqrt(sigma2 * v)
		lo[j], hi[j], ok[j] = beta.AtVec(c)-t*se, beta.AtVec(c)+t*se, true
	}
	return lo, hi, ok
}

func constCol(n int, v float64) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = v
	}
	return c
}
