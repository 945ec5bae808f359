package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/datasets"
)

// The logistic regression behind the propensity measures (synthutil.go): a model matrix
// built as R's model.matrix builds it for synthpop's utility.gen (main effects, optionally
// all two-way interactions), its aliased columns removed as R's glm leaves their
// coefficients NA, and an IRLS fit as R's glm.fit with family binomial (docs/synthetic.md).

// modelTerm is one variable of the model: the model-matrix columns it contributes.
type modelTerm [][]float64

// propensityTerms returns the main-effect terms of the stacked table rows (release rows
// first, then original rows) for the given columns of a and b (the same columns and codes;
// the numbers of rows may differ):
//
//   - a numeric column gives one column, centred and scaled by the stacked mean and SD
//     (fitted values do not depend on it), its missing cells set to 0 as synthpop sets
//     them, and, when a cell is missing in either table, an indicator term "missing"
//     appended after every variable's term (synthpop's <name>_NA columns);
//   - a categorical column gives one treatment dummy per category present in the stacked
//     rows except the first, missing being a category of its own (synthpop's addNA);
//   - a column with at most one observed value in each table on its own is left out
//     (synthpop's leneq1 test).
func propensityTerms(a, b *datasets.Dataset, cols []int) []modelTerm {
	n := a.N + b.N
	var terms, naTerms []modelTerm
	for _, j := range cols {
		if atMostOneValue(a, j) && atMostOneValue(b, j) {
			continue
		}
		if a.IsCategorical(j) {
			codes := make([]int, 0, n)
			seen := map[int]bool{}
			for _, d := range []*datasets.Dataset{b, a} {
				for i := 0; i < d.N; i++ {
					c := d.Code(i, j)
					codes = append(codes, c)
					seen[c] = true
				}
			}
			levels := sortedPresent(seen)
			var term modelTerm
			for _, lv := range levels[1:] {
				col := make([]float64, len(codes))
				for i, c := range codes {
					if c == lv {
						col[i] = 1
					}
				}
				term = append(term, col)
			}
			terms = append(terms, term)
			continue
		}
		col := make([]float64, 0, n)
		ind := make([]float64, 0, n)
		missing := false
		for _, d := range []*datasets.Dataset{b, a} {
			for i := 0; i < d.N; i++ {
				v := d.At(i, j)
				if v != v {
					missing = true
					col, ind = append(col, 0), append(ind, 1)
					continue
				}
				col, ind = append(col, v), append(ind, 0)
			}
		}
		standardize(col)
		terms = append(terms, modelTerm{col})
		if missing {
			naTerms = append(naTerms, modelTerm{ind})
		}
	}
	return append(terms, naTerms...)
}

// atMostOneValue reports whether column j of d holds at most one distinct observed value.
func atMostOneValue(d *datasets.Dataset, j int) bool {
	first, seen := 0.0, false
	for i := 0; i < d.N; i++ {
		v := d.At(i, j)
		if v != v {
			continue
		}
		if !seen {
			first, seen = v, true
		} else if v != first {
			return false
		}
	}
	return true
}

// sortedPresent returns the keys of seen in increasing order with −1 (missing) last, as
// R's addNA orders the levels.
func sortedPresent(seen map[int]bool) []int {
	var out []int
	for c := range seen {
		if c >= 0 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	if seen[-1] {
		out = append(out, -1)
	}
	return out
}

// standardize centres and scales x in place by its mean and SD (left alone when constant).
func standardize(x []float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	sd := math.Sqrt(ss / float64(len(x)))
	if sd == 0 {
		return
	}
	for i := range x {
		x[i] = (x[i] - m) / sd
	}
}

// modelMatrix returns the columns of the model: the intercept, every term's columns and,
// with interactions, for every pair of terms (in order) the products of their columns, as
// R's formula t ~ .^2 expands.
func modelMatrix(terms []modelTerm, rows int, interactions bool) [][]float64 {
	one := make([]float64, rows)
	for i := range one {
		one[i] = 1
	}
	cols := [][]float64{one}
	for _, t := range terms {
		cols = append(cols, t...)
	}
	if !interactions {
		return cols
	}
	for a := 0; a < len(terms); a++ {
		for b := a + 1; b < len(terms); b++ {
			for _, cb := range terms[b] {
				for _, ca := range terms[a] {
					p := make([]float64, rows)
					for i := range p {
						p[i] = ca[i] * cb[i]
					}
					cols = append(cols, p)
				}
			}
		}
	}
	return cols
}

// aliasTol is the relative size below which a column's part orthogonal to the earlier kept
// columns counts as zero: the column is aliased (R's glm reports its coefficient as NA).
const aliasTol = 1e-9

// independentColumns returns the indices of the columns kept by a sequential Gram–Schmidt
// pass: a column whose residual norm after projection on the kept columns is at most
// aliasTol times its own norm is aliased and left out, as R's pivoting QR (dqrdc2) moves
// such columns to the end and leaves their coefficients NA. The number kept is the rank.
func independentColumns(cols [][]float64) []int {
	var basis [][]float64
	var kept []int
	for j, c := range cols {
		norm := math.Sqrt(dot(c, c))
		if norm == 0 {
			continue
		}
		r := append([]float64(nil), c...)
		for pass := 0; pass < 2; pass++ { // re-orthogonalize once for stability
			for _, q := range basis {
				f := dot(r, q)
				for i := range r {
					r[i] -= f * q[i]
				}
			}
		}
		rn := math.Sqrt(dot(r, r))
		if rn <= aliasTol*norm {
			continue
		}
		for i := range r {
			r[i] /= rn
		}
		basis = append(basis, r)
		kept = append(kept, j)
	}
	return kept
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// logitFit holds a fitted logistic regression.
type logitFit struct {
	mu        []float64 // fitted probabilities
	rank      int       // number of estimated coefficients, intercept included
	converged bool
	iter      int
}

// R's binomial link limits: the inverse logit of η beyond ±30 is clamped (C_logit_linkinv).
const logitThresh = 30

func invLogit(eta float64) float64 {
	var t float64
	switch {
	case eta < -logitThresh:
		t = 0x1p-52
	case eta > logitThresh:
		t = 1 / 0x1p-52
	default:
		t = math.Exp(eta)
	}
	return t / (1 + t)
}

// fitLogit fits y (0/1) on the given model columns by iteratively reweighted least squares
// (R's glm.fit): start at μ = (y+½)/2, and at each step regress the working response
// z = η + (y−μ)/(μ(1−μ)) on X with weights μ(1−μ). It stops when the deviance changes by
// less than tol·(|dev| + 0.1) (R's rule, tol = 1e-8 there) or after maxit steps, or when
// stop (if not nil) returns an error before a step. Aliased columns are dropped first
// (independentColumns).
func fitLogit(cols [][]float64, y []float64, tol float64, maxit int, stop func() error) logitFit {
	keep := independentColumns(cols)
	n, k := len(y), len(keep)
	mu := make([]float64, n)
	eta := make([]float64, n)
	for i := range y {
		mu[i] = (y[i] + 0.5) / 2
		eta[i] = math.Log(mu[i] / (1 - mu[i]))
	}
	dev := binomialDeviance(y, mu)
	xw := mat.NewDense(n, k, nil)
	zw := mat.NewVecDense(n, nil)
	var qr mat.QR
	var beta mat.VecDense
	fit := logitFit{rank: k}
	for it := 1; it <= maxit; it++ {
		if stop != nil && stop() != nil {
			break
		}
		for i := 0; i < n; i++ {
			w := mu[i] * (1 - mu[i])
			sw := math.Sqrt(w)
			zw.SetVec(i, sw*(eta[i]+(y[i]-mu[i])/w))
			for c, j := range keep {
				xw.Set(i, c, sw*cols[j][i])
			}
		}
		qr.Factorize(xw)
		if err := qr.SolveVecTo(&beta, false, zw); err != nil {
			break
		}
		for i := 0; i < n; i++ {
			var e float64
			for c, j := range keep {
				e += cols[j][i] * beta.AtVec(c)
			}
			eta[i] = e
			mu[i] = invLogit(e)
		}
		old := dev
		dev = binomialDeviance(y, mu)
		fit.iter = it
		if math.Abs(dev-old) < tol*(math.Abs(dev)+0.1) {
			fit.converged = true
			break
		}
	}
	fit.mu = mu
	return fit
}

// binomialDeviance returns −2 Σ [y log μ + (1−y) log(1−μ)] for 0/1 responses.
func binomialDeviance(y, mu []float64) float64 {
	var d float64
	for i, v := range y {
		if v == 1 {
			d -= 2 * math.Log(mu[i])
		} else {
			d -= 2 * math.Log(1-mu[i])
		}
	}
	return d
}
