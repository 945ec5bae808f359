package synth

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/methods"
)

var ginvParam = methods.ParamSpec{Name: "ginv", Kind: methods.String, Default: "pinv",
	Choices: []string{"pinv", "pivot"},
	Doc:     "generalized inverse for singular normal equations: Moore–Penrose (SVD) or the study's pivot algorithm"}

func ginvOf(p methods.Params) Ginv {
	if p.String("ginv") == "pivot" {
		return GinvPivot
	}
	return GinvPinv
}

// problem is a dataset split into z-scored blocks, ready for regression.
type problem struct {
	d      *datasets.Dataset
	r      roles
	x, y   block
	xconst []int // constant X columns (dropped from designs)
	yconst []int // constant Y columns (released unchanged)
	notes  []string
	// exactMean asks release to remove the rounding-level drift of the synthesized column
	// means (methods whose fitted values preserve means in exact arithmetic).
	exactMean bool
}

// polishMeans shifts each synthesized column of out by the rounding-level difference between
// its sum and the original's, both the plain sum over rows in order (as metrics compute
// means), until the two agree to the last bit: up to 4 uniform shifts, then the last value absorbs the
// few units in the last place of the sum that remain (a change of ~1e-13 relative). In exact
// arithmetic the shift is zero: OLS fitted values with an intercept, and noise orthogonal to
// the constant, have the original mean. Without it the drift is ~1e-13 relative, which shows
// as pil_mean ≈ 4e-14 instead of 0.
func (pr *problem) polishMeans(out *datasets.Dataset) {
	n, p := out.N, out.P
	for c, j := range pr.r.y {
		if isConst(pr.yconst, c) {
			continue
		}
		var target float64 // the original's column sum, in row order
		for i := range n {
			target += pr.d.Data[i*p+j]
		}
		for pass := range 6 {
			var sum float64
			for i := range n {
				sum += out.Data[i*p+j]
			}
			if sum == target {
				break
			}
			if pass < 4 {
				delta := (sum - target) / float64(n)
				for i := range n {
					out.Data[i*p+j] -= delta
				}
				continue
			}
			// A few units in the last place of the sum remain: the last value absorbs them.
			// fl(S + fl(T − S)) = T when |T − S| ≪ |T|, S the sum of the first n−1 values.
			var head float64
			for i := range n - 1 {
				head += out.Data[i*p+j]
			}
			out.Data[(n-1)*p+j] = target - head
		}
	}
}

// setup resolves roles and standardizes the blocks of d for the method name.
func setup(name string, d *datasets.Dataset, p methods.Params, z bool) (*problem, error) {
	if d.N < 2 {
		return nil, fmt.Errorf("%s: dataset %s has %d rows, need at least 2", name, d.Name, d.N)
	}
	if err := methods.RefuseMissing(name, d, ""); err != nil {
		return nil, err
	}
	r, err := resolveRoles(name, d, p)
	if err != nil {
		return nil, err
	}
	pr := &problem{d: d, r: r}
	pr.x, pr.xconst = newBlock(d.Data, d.N, d.P, r.x, z)
	pr.y, pr.yconst = newBlock(d.Data, d.N, d.P, r.y, z)
	if len(pr.xconst) > 0 {
		pr.notes = append(pr.notes, fmt.Sprintf("%d constant predictor column(s) dropped", len(pr.xconst)))
	}
	if len(pr.yconst) > 0 {
		pr.notes = append(pr.notes, fmt.Sprintf("%d constant target column(s) released unchanged", len(pr.yconst)))
	}
	return pr, nil
}

// release writes the synthesized Y (z-units, n×t row-major, or raw when the blocks were not
// z-scored) back into a copy of d.
func (pr *problem) release(yz []float64, info map[string]any) *methods.Release {
	out := pr.d.Clone()
	t := pr.y.k
	for i := range pr.d.N {
		for c, j := range pr.r.y {
			if isConst(pr.yconst, c) {
				continue // a constant target is released unchanged
			}
			out.Data[i*pr.d.P+j] = pr.y.mean[c] + pr.y.sd[c]*yz[i*t+c]
		}
	}
	if pr.exactMean {
		pr.polishMeans(out)
	}
	if info == nil {
		info = map[string]any{}
	}
	if len(pr.notes) > 0 {
		info["notes"] = pr.notes
	}
	return &methods.Release{Masked: out, Columns: append([]int(nil), pr.r.y...), Info: info}
}

func isConst(list []int, c int) bool {
	for _, v := range list {
		if v == c {
			return true
		}
	}
	return false
}

// ols regresses the columns of rhs (n×t) on the design a (n×q) and returns the fitted values
// and the residuals.
func ols(a []float64, n, q int, rhs []float64, t int, g Ginv) (fit, res []float64, pinvs int) {
	s := newSolver(a, n, q, g)
	beta := make([]float64, q*t)
	s.solve(nil, rhs, t, beta)
	fit = make([]float64, n*t)
	mulRows(a, n, q, beta, t, fit)
	res = make([]float64, n*t)
	for i := range res {
		res[i] = rhs[i] - fit[i]
	}
	return fit, res, s.pinvs
}

// covOf returns the sample covariance (divisor n−1) of the columns of a (n×t row-major),
// two-pass (covariance.Matrix).
func covOf(a []float64, n, t int) *mat.SymDense {
	return mat.NewSymDense(t, covariance.Matrix(a, n, t))
}

// sqrtFactor returns F with F·Fᵀ = s: the lower Cholesky factor, or (symmetric, or when
// Cholesky fails) the symmetric PSD square root with negative eigenvalues set to 0. psd
// reports that the PSD root was used because Cholesky failed.
func sqrtFactor(s *mat.SymDense, symmetric bool) (f *mat.Dense, psd bool, err error) {
	t := s.SymmetricDim()
	if !symmetric {
		var ch mat.Cholesky
		if ch.Factorize(s) {
			var l mat.TriDense
			ch.LTo(&l)
			f = mat.NewDense(t, t, nil)
			f.Copy(&l)
			return f, false, nil
		}
		psd = true
	}
	f, err = symPow(s, 0.5)
	return f, psd, err
}

// symPow returns V·diag(λ^e)·Vᵀ for the eigen-decomposition of s, with λ < 0 set to 0 (and,
// for e < 0, λ ≤ 1e-14·λ_max left out).
func symPow(s *mat.SymDense, e float64) (*mat.Dense, error) {
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil, fmt.Errorf("eigen-decomposition did not converge")
	}
	lam := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	t := len(lam)
	lmax := 0.0
	for _, l := range lam {
		lmax = math.Max(lmax, l)
	}
	f := mat.NewDense(t, t, nil)
	for k, l := range lam {
		var w float64
		switch {
		case l <= 0:
			continue
		case e < 0 && l <= 1e-14*lmax:
			continue
		default:
			w = math.Pow(l, e)
		}
		for i := range t {
			for j := range t {
				f.Set(i, j, f.At(i, j)+v.At(i, k)*w*v.At(j, k))
			}
		}
	}
	return f, nil
}

// ctxErr returns ctx.Err() wrapped with the method name, or nil.
func ctxErr(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
