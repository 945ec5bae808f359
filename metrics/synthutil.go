package metrics

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
)

// Utility measures for synthetic and categorical releases (docs/synthetic.md): the
// propensity-score measures pMSE, S_pMSE and SPECKS (Snoke, Raab, Nowok, Dibben and
// Slavkovic 2018, "General and specific utility measures for synthetic data", as synthpop's
// utility.gen(method = "logit") computes them), the k-marginal score of NIST's SDNist
// (kmarginal.go), the distances to the closest record (dcr.go) and the confidence-interval
// overlap of a linear model (cioverlap.go).

// SynthOptions configures the utility measures of docs/synthetic.md. The zero value means
// the defaults.
type SynthOptions struct {
	// PropensityOrder is synthpop's maxorder for pmse, s_pmse and specks: 0 (default) fits
	// the main effects of the compared columns, 1 adds every two-way interaction.
	PropensityOrder int
	// CIModel is ci_overlap's linear model, "y ~ x1 + x2" or "y ~ ." (every other column),
	// written with the compared table's column names or "#N" positions ("#1 ~ .").
	CIModel string
	// KMarginalBins is the number of quantile bins of a numeric column in kmarginal
	// (default 10); a numeric column with at most that many distinct values keeps them.
	KMarginalBins int
}

func (s SynthOptions) kmarginalBins() int { return defInt(s.KMarginalBins, 10) }

// setSynthOption sets one of the options of docs/synthetic.md; ok is false for a key that
// is not one of them.
func (o *Options) setSynthOption(key, value string) (ok bool, err error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s=%q: %s", ErrBadOption, key, value, fmt.Sprintf(format, a...))
	}
	switch key {
	case "pmse_order":
		v, e := strconv.Atoi(strings.TrimSpace(value))
		if e != nil || (v != 0 && v != 1) {
			return true, bad("want 0 (main effects) or 1 (two-way interactions)")
		}
		o.Synth.PropensityOrder = v
	case "ci_model":
		if _, _, e := parseLinearModel(value); e != nil {
			return true, bad("%v", e)
		}
		o.Synth.CIModel = strings.TrimSpace(value)
	case "kmarginal_bins":
		v, e := strconv.Atoi(strings.TrimSpace(value))
		if e != nil || v < 2 {
			return true, bad("want an integer ≥ 2")
		}
		o.Synth.KMarginalBins = v
	default:
		return false, nil
	}
	return true, nil
}

// synthOptionKeys lists the option keys of setSynthOption, for error messages.
const synthOptionKeys = "pmse_order, ci_model, kmarginal_bins"

// propensityMaxIter is synthpop's maxit for the logistic fit; propensityTol is the
// relative deviance change at which the fit stops (R's glm default is 1e-8; a smaller one
// gives the converged fit to more digits at the cost of one or two more steps);
// propensityMaxParams is synthpop's max.params: a larger model is refused (NaN and a note).
const (
	propensityMaxIter   = 200
	propensityTol       = 1e-12
	propensityMaxParams = 400
)

func init() {
	components := []string{"df", "converged"}
	Register(Func(Info{ID: "pmse", Label: "pMSE", Unit: "raw", Better: Lower, Components: components,
		Description: "propensity-score mean squared error of a logistic model of \"is released\" on the compared columns (Snoke et al. 2018; synthpop utility.gen logit)"},
		func(in *Input) Result { return propensityResult(in, "pmse") }))
	Register(Func(Info{ID: "s_pmse", Label: "S_pMSE", Unit: "raw", Better: Lower, Components: components,
		Description: "pMSE over its null expectation (k−1)(1−c)²c/N; about 1 for a release from the original's distribution (Snoke et al. 2018)"},
		func(in *Input) Result { return propensityResult(in, "s_pmse") }))
	Register(Func(Info{ID: "specks", Label: "SPECKS", Unit: "frac", Better: Lower, Components: components,
		Description: "Kolmogorov–Smirnov distance between the propensity scores of released and original records (Bowen et al. 2021; synthpop)"},
		func(in *Input) Result { return propensityResult(in, "specks") }))
}

// Propensity holds the propensity-score measures of one release.
type Propensity struct {
	PMSE   float64 // Σ(p̂_i − c)²/N over the N = n₁ + n₂ stacked records, c = n₂/N
	SPMSE  float64 // PMSE / ((k−1)(1−c)²c/N), k the number of estimated coefficients
	SPECKS float64 // sup |F̂_released − F̂_original| of the scores at 12 decimals (ks.test's statistic)
	// DF is k − 1, the number of estimated coefficients besides the intercept.
	DF        int
	Converged bool
	Scores    []float64 // p̂ of the released records, then of the original ones
	Note      string    // why the measures are NaN, when a reason is known
}

// PropensityScores fits synthpop's utility.gen(method = "logit", maxorder = order) model on
// the original a and the release b (the same columns, categorical ones of a with the same
// codes in b; the numbers of records may differ) over the listed columns, and returns pMSE, S_pMSE and SPECKS
// (docs/synthetic.md). The model regresses t (1 for a released record, 0 for an original
// one) on the main effects of the columns (order 0) or on them and all their two-way
// interactions (order 1), built as propensityTerms describes; aliased coefficients are left
// out of k as R leaves them NA. The measures are NaN when no column varies.
func PropensityScores(a, b *datasets.Dataset, cols []int, order int) Propensity {
	return propensityScores(a, b, cols, order, nil)
}

// propensityScores is PropensityScores whose fit stops when stop returns an error.
func propensityScores(a, b *datasets.Dataset, cols []int, order int, stop func() error) Propensity {
	terms := propensityTerms(a, b, cols)
	undef := math.NaN()
	if len(terms) == 0 {
		return Propensity{PMSE: undef, SPMSE: undef, SPECKS: undef}
	}
	n1, n2 := a.N, b.N
	N := n1 + n2
	y := make([]float64, N)
	for i := 0; i < n2; i++ {
		y[i] = 1
	}
	x := modelMatrix(terms, N, order >= 1)
	if len(x) > propensityMaxParams {
		return Propensity{PMSE: undef, SPMSE: undef, SPECKS: undef, Note: fmt.Sprintf(
			"propensity model with %d parameters, more than synthpop's max.params %d: compare fewer or coarser columns, or use pmse_order 0",
			len(x), propensityMaxParams)}
	}
	fit := fitLogit(x, y, propensityTol, propensityMaxIter, stop)
	c := float64(n2) / float64(N)
	var ss float64
	for _, p := range fit.mu {
		ss += (p - c) * (p - c)
	}
	pmse := ss / float64(N)
	km1 := fit.rank - 1
	spmse := undef // no coefficient besides the intercept: no null expectation
	if km1 > 0 {
		spmse = pmse / (float64(km1) * (1 - c) * (1 - c) * c / float64(N))
	}
	return Propensity{
		PMSE: pmse, SPMSE: spmse, SPECKS: ksStatistic(quantized(fit.mu[:n2]), quantized(fit.mu[n2:])),
		DF: km1, Converged: fit.converged, Scores: fit.mu,
	}
}

// propensity computes the measures on every compared column of the input, once per Input.
func propensity(in *Input) Propensity {
	key := "synth:propensity:" + strconv.Itoa(in.Opt.Synth.PropensityOrder)
	return cached(in, key, func(in *Input) Propensity {
		cols := make([]int, in.Orig.P)
		for j := range cols {
			cols[j] = j
		}
		return propensityScores(in.Orig, in.Masked, cols, in.Opt.Synth.PropensityOrder, in.Err)
	})
}

func propensityResult(in *Input, id string) Result {
	if in.Orig.N == 0 {
		return nan()
	}
	p := propensity(in)
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	v := map[string]float64{"pmse": p.PMSE, "s_pmse": p.SPMSE, "specks": p.SPECKS}[id]
	conv := 0.0
	if p.Converged {
		conv = 1
	}
	if p.Note != "" {
		return nanNote(p.Note)
	}
	res := Result{Value: v, Aux: map[string]float64{"df": float64(p.DF), "converged": conv}}
	if !p.Converged && !math.IsNaN(p.PMSE) {
		res.Notes = append(res.Notes, fmt.Sprintf("logistic model did not converge in %d iterations (separation: a category or value only one table has)", propensityMaxIter))
	}
	return res
}

// scoreDigits is the number of decimals at which SPECKS compares propensity scores: a model
// that finds nothing gives every record the score c up to rounding (about 1e-16), and the
// Kolmogorov–Smirnov distance of that rounding noise would be meaningless.
const scoreDigits = 1e12

// quantized returns the scores rounded to scoreDigits decimals.
func quantized(p []float64) []float64 {
	q := make([]float64, len(p))
	for i, v := range p {
		q[i] = math.Round(v*scoreDigits) / scoreDigits
	}
	return q
}

// ksStatistic returns the two-sample Kolmogorov–Smirnov statistic D = sup_x |F_a(x) − F_b(x)|
// of the empirical CDFs, evaluated at the distinct values only, so that ties between the
// samples are handled as R's ks.test handles them. NaN if either sample is empty.
func ksStatistic(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	x := slices.Clone(a)
	y := slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	na, nb := float64(len(x)), float64(len(y))
	var d float64
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		var v float64
		switch {
		case j == len(y) || (i < len(x) && x[i] <= y[j]):
			v = x[i]
		default:
			v = y[j]
		}
		for i < len(x) && x[i] == v {
			i++
		}
		for j < len(y) && y[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/na-float64(j)/nb))
	}
	return d
}
