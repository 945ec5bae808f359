package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/internal/covariance"
)

// Correlation-matrix eigenvalue difference of metrics.md §2.7.
func init() {
	Register(Func(Info{ID: "eigen", Unit: "%", Better: Lower,
		Description: "100·Σ|λ−λ'|/λ over eigenvalues of cor(X), cor(X') with λ > 1e-10·λ1 (Morais (2022) Valores Próprios; metrics.md §2.7)"},
		Eigen))
	Register(Func(Info{ID: "eigen_sdc", Unit: "%", Better: Lower,
		Description: "eigen with every eigenvalue kept, sdcMicro dUtility(method = \"eigen\") ×100 (metrics.md §2.7)"},
		EigenSDC))
}

// Eigen returns eigen in % (metrics.md §2.7): with λ_1 ≥ … ≥ λ_p the eigenvalues of the
// correlation matrix of X and λ'_j those of X', both sorted descending,
//
//	eigen = 100·Σ_{j: λ_j > ε·λ_1} |λ_j − λ'_j|/λ_j,  ε = Opt.EigenMinRel (1e-10).
//
// Aux "nexcl" counts the excluded eigenvalues. Columns constant in X are dropped from both
// matrices (with a note); a kept column constant in X' only, n < 2 or no column left gives
// NaN. With missing cells in either table the matrices are sdcMicro's
// var(scale(X), use = "pairwise.complete.obs"): each column scaled by its observed mean and
// SD, each covariance over the rows observed on both columns (metrics.md §2.7). Cost O(np² + p³) (gonum mat.EigenSym). Invariant to a per-column affine map.
func Eigen(in *Input) Result { return eigen(in, in.Opt.eigenMinRel(), false) }

// EigenSDC returns eigen_sdc = 100·Σ_j |λ_j − λ'_j|/λ_j over every eigenvalue, sdcMicro
// 5.8.1's fraction ×100 (metrics.md §2.7). On a singular cor(X) the term of the near-zero
// eigenvalue is rounding noise, so the value is not reproducible across libraries.
func EigenSDC(in *Input) Result { return eigen(in, 0, true) }

func eigen(in *Input, eps float64, all bool) Result {
	n := in.Orig.N
	cols := in.KeptColumns()
	if n < 2 || len(cols) == 0 {
		return nan()
	}
	ro, rm := in.Rescaled() // correlations: the same on exactly rescaled columns
	pairwise := in.hasMissing()
	la, ok := corEigenvalues(ro.Data, n, in.Orig.P, cols, pairwise)
	if !ok {
		return nan()
	}
	lb, ok := corEigenvalues(rm.Data, n, in.Orig.P, cols, pairwise)
	if !ok {
		return nanNote("a column is constant in the release only")
	}
	var sum float64
	nexcl := 0
	for j := range la {
		if !all && !(la[j] > eps*la[0]) {
			nexcl++
			continue
		}
		sum += math.Abs(la[j]-lb[j]) / la[j]
	}
	res := Result{Value: 100 * sum, Aux: map[string]float64{"nexcl": float64(nexcl)}}
	if k := in.Orig.P - len(cols); k > 0 {
		res.Notes = append(res.Notes, constantNote(k))
	}
	return res
}

// corEigenvalues returns the eigenvalues, descending, of the correlation matrix of the given
// columns of a row-major n×p table, or with pairwise of var(scale(x), use =
// "pairwise.complete.obs") (missing cells skipped). ok is false if a column is constant, an
// entry is undefined or the decomposition fails.
func corEigenvalues(x []float64, n, p int, cols []int, pairwise bool) (vals []float64, ok bool) {
	q := len(cols)
	var r []float64
	if pairwise {
		r = pairwiseCov(scaleNA(x, n, p, cols), n, q)
	} else { // straight from the table's columns: no n×q copy (docs/datapath.md)
		r = covariance.Correlation(covariance.MatrixCols(x, n, p, cols), q)
	}
	if hasNaN(r) {
		return nil, false
	}
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(q, r), false) {
		return nil, false
	}
	vals = es.Values(nil)
	slices.Sort(vals)
	slices.Reverse(vals)
	return vals, true
}
