package perturb

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/internal/covariance"
)

// Dense helpers on row-major n×p []float64 tables (the layout of datasets.Dataset), wrapped
// without copying into gonum matrices.

// covMat returns the sample covariance (divisor n−1) of x (n×p), two-pass (covariance.Matrix).
func covMat(x []float64, n, p int) *mat.SymDense {
	return mat.NewSymDense(p, covariance.Matrix(x, n, p))
}

// symFunc returns V·diag(f(λ))·Vᵀ for the eigendecomposition of the symmetric s. λ below
// tol·max|λ| are treated as 0 before f is applied (f(0) must be defined by the caller: the
// square root gives 0, the pseudo-inverse maps 0 to 0).
func symFunc(s mat.Symmetric, f func(float64) float64) *mat.Dense {
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil
	}
	vals := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	lmax := 0.0
	for _, l := range vals {
		lmax = max(lmax, math.Abs(l))
	}
	p := len(vals)
	out := mat.NewDense(p, p, nil)
	for k, l := range vals {
		if l <= 1e-12*lmax {
			l = 0
		}
		fl := f(l)
		if fl == 0 {
			continue
		}
		for a := 0; a < p; a++ {
			va := v.At(a, k) * fl
			for b := 0; b < p; b++ {
				out.Set(a, b, out.At(a, b)+va*v.At(b, k))
			}
		}
	}
	return out
}

func sqrtOrZero(l float64) float64 { return math.Sqrt(max(l, 0)) }

func pinvScalar(l float64) float64 {
	if l <= 0 {
		return 0
	}
	return 1 / l
}

func invSqrtScalar(l float64) float64 {
	if l <= 0 {
		return 0
	}
	return 1 / math.Sqrt(l)
}

// mvnFactor returns a p×p matrix A with A·Aᵀ = s: the Cholesky factor when s is positive
// definite, else the symmetric square root with negative eigenvalues set to 0.
func mvnFactor(s *mat.SymDense) *mat.Dense {
	var ch mat.Cholesky
	if ch.Factorize(s) {
		var l mat.TriDense
		ch.LTo(&l)
		return mat.DenseCopyOf(&l)
	}
	return symFunc(s, sqrtOrZero)
}

// residualize replaces y (n×m, row-major) by its OLS residuals on [1, D] (D n×k row-major,
// may be nil) and returns the fitted values. Columns are centred and D's columns scaled before
// the normal equations are solved with a pseudo-inverse, and one step of iterative refinement
// makes the residuals orthogonal to [1, D] to working precision. A rank-deficient D is fine
// (fitted values do not depend on the g-inverse).
func residualize(y []float64, n, m int, D []float64, k int) (fitted []float64) {
	fitted = make([]float64, n*m)
	for pass := 0; pass < 2; pass++ {
		mu := covariance.Means(y, n, m)
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				y[i*m+j] -= mu[j]
				fitted[i*m+j] += mu[j]
			}
		}
		if k == 0 {
			continue
		}
		if pass == 0 {
			D = standardizeCols(D, n, k)
		}
		dm := mat.NewDense(n, k, D)
		ym := mat.NewDense(n, m, y)
		var g mat.SymDense
		g.SymOuterK(1, dm.T())
		gi := symFunc(&g, pinvScalar)
		var dty, b mat.Dense
		dty.Mul(dm.T(), ym)
		b.Mul(gi, &dty)
		var fit mat.Dense
		fit.Mul(dm, &b)
		fr := fit.RawMatrix()
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				f := fr.Data[i*fr.Stride+j]
				y[i*m+j] -= f
				fitted[i*m+j] += f
			}
		}
	}
	return fitted
}

// standardizeCols returns a copy of D (n×k) with centred columns scaled to unit SD;
// constant columns become 0.
func standardizeCols(D []float64, n, k int) []float64 {
	out := slices.Clone(D)
	mu := covariance.Means(D, n, k)
	ss := make([]float64, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			v := out[i*k+j] - mu[j]
			out[i*k+j] = v
			ss[j] += v * v
		}
	}
	for j := range ss {
		s := math.Sqrt(ss[j] / float64(max(n-1, 1)))
		if s > 0 {
			ss[j] = 1 / s
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			out[i*k+j] *= ss[j]
		}
	}
	return out
}

// avgRanks writes into r the 1-based ranks of v with ties given their average rank (R
// rank(ties.method = "average")). buf is scratch, returned for reuse.
func avgRanks(v []float64, r []float64, buf []keyed) []keyed {
	buf = order(v, false, buf, nil)
	for s := 0; s < len(buf); {
		e := s + 1
		for e < len(buf) && buf[e].V == buf[s].V {
			e++
		}
		avg := float64(s+e+1) / 2 // mean of ranks s+1..e
		for t := s; t < e; t++ {
			r[buf[t].I] = avg
		}
		s = e
	}
	return buf
}

// rankTable returns the average-tie ranks of every column of x (n×p), row-major.
func rankTable(x []float64, n, p int) []float64 {
	out := make([]float64, n*p)
	col := make([]float64, n)
	r := make([]float64, n)
	var buf []keyed
	for j := 0; j < p; j++ {
		for i := range col {
			col[i] = x[i*p+j]
		}
		buf = avgRanks(col, r, buf)
		for i := range r {
			out[i*p+j] = r[i]
		}
	}
	return out
}
