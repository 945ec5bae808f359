package synth

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(IPSO{Variant: 'a'})
	methods.Register(IPSO{Variant: 'b'})
	methods.Register(IPSO{Variant: 'c'})
}

// IPSO is Burridge's information-preserving statistical obfuscation as the FCRM study
// implements it (docs/fcrm.md "IPSO"). With X̃ = [1 | X], B̂ the OLS coefficients of Y on X̃
// (generalized inverse when X̃ᵀX̃ is singular) and Ŷ = X̃B̂:
//
//   - ipso_a: Y' = Ŷ. Deterministic.
//   - ipso_b: Y' = Ŷ + E with E orthogonal to [1, X], so refitting Y' on X̃ returns B̂.
//     Variant burridge (default): E = residuals on [1, X] of Z·Lᵀ, Z iid N(0, 1) drawn row
//     by row, L·Lᵀ = Σ_ee. Variant seed (the study's R code): for each target in order, unit
//     noise z standardized to mean 0 and SD 1 and residualized on [1, X, Y], added unscaled
//     in raw units.
//   - ipso_c: Y' = Ŷ + E* with E* orthogonal to [1, X, Y] and cov(E*) = Σ_ee exactly, so
//     the means, variances and covariances of (X, Y') equal those of (X, Y). Noise vectors
//     are drawn per target in Y's order; W = E0·L_i with L_i·L_iᵀ = cov(E0)⁻¹, E* = W·L_eeᵀ
//     (sqrt cholesky), or symmetric square roots (sqrt symmetric, the EGADP form).
//
// Σ_ee = cov(Y) − cov(Y,X)·cov(X)⁺·cov(X,Y) is the residual covariance (divisor n−1). All
// computation is on z-scored blocks (fitted values are invariant to that), transformed back.
type IPSO struct {
	Variant byte // 'a', 'b' or 'c'
}

var _ methods.Validator = IPSO{}

func (m IPSO) name() string { return "ipso_" + string(m.Variant) }

// Info implements methods.Method.
func (m IPSO) Info() methods.Info {
	ps := append([]methods.ParamSpec{}, roleParams...)
	ps = append(ps, ginvParam)
	desc := "IPSO-A: targets replaced by their OLS fitted values on the predictors"
	switch m.Variant {
	case 'b':
		desc = "IPSO-B: OLS fitted values plus noise orthogonal to [1, X] (coefficients preserved)"
		ps = append(ps, methods.ParamSpec{Name: "ipso_b_variant", Kind: methods.String, Default: "burridge",
			Choices: []string{"burridge", "seed"},
			Doc:     "burridge: N(0, Σ_ee) noise residualized on [1, X]; seed: the study's unit noise residualized on [1, X, Y]"})
	case 'c':
		desc = "IPSO-C: OLS fitted values plus noise with the residual covariance (means and covariances preserved)"
		ps = append(ps, methods.ParamSpec{Name: "sqrt", Kind: methods.String, Default: "cholesky",
			Choices: []string{"cholesky", "symmetric"},
			Doc:     "matrix square roots: Cholesky factors (the study's R code) or symmetric roots (EGADP)"})
	}
	return methods.Info{Name: m.name(), Description: desc, Params: ps, Randomized: m.Variant != 'a'}
}

// Validate implements methods.Validator.
func (m IPSO) Validate(d *datasets.Dataset, p methods.Params) error {
	pr, err := setup(m.name(), d, p, true)
	if err != nil {
		return err
	}
	q := 1 + pr.x.k - len(pr.xconst)
	if m.Variant != 'a' {
		q += pr.y.k // the noise is residualized on [1, X, Y]
	}
	if d.N <= q {
		return fmt.Errorf("%s: dataset %s has %d rows, need more than %d (1 + predictors%s)", m.name(), d.Name, d.N, q,
			map[bool]string{true: "", false: " + targets"}[m.Variant == 'a'])
	}
	return nil
}

// Protect implements methods.Method.
func (m IPSO) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := m.name()
	if m.Variant != 'a' && rng == nil {
		return nil, fmt.Errorf("%s: nil random generator", name)
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	pr, err := setup(name, d, p, true)
	if err != nil {
		return nil, err
	}
	pr.exactMean = true
	n, t, g := d.N, pr.y.k, ginvOf(p)
	drop := map[*block][]int{&pr.x: pr.xconst, &pr.y: pr.yconst}
	ax, qx := design(true, drop, &pr.x)
	yhat, res, pinvs := ols(ax, n, qx, pr.y.a, t, g)
	info := map[string]any{"ginv_solves": pinvs}
	if m.Variant == 'a' {
		return pr.release(yhat, info), nil
	}
	if err := ctxErr(ctx, name); err != nil {
		return nil, err
	}
	var e []float64
	switch {
	case m.Variant == 'b' && p.String("ipso_b_variant") == "seed":
		axy, qxy := design(true, drop, &pr.x, &pr.y)
		e = make([]float64, n*t)
		z := make([]float64, n)
		for c := range t {
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			standardize(z)
			_, r, k := ols(axy, n, qxy, z, 1, g)
			pinvs += k
			if isConst(pr.yconst, c) {
				continue
			}
			for i := range n {
				e[i*t+c] = r[i] / pr.y.sd[c] // unit noise in raw units, expressed in z-units
			}
		}
	case m.Variant == 'b':
		see := covOf(res, n, t)
		l, psd, err := sqrtFactor(see, false)
		if err != nil {
			return nil, fmt.Errorf("%s: square root of the residual covariance: %w", name, err)
		}
		if psd {
			pr.notes = append(pr.notes, "residual covariance singular: symmetric PSD square root used")
		}
		z := make([]float64, n*t)
		for i := range z {
			z[i] = rng.NormFloat64() // row by row
		}
		e0 := make([]float64, n*t)
		zm := mat.NewDense(n, t, z)
		mat.NewDense(n, t, e0).Mul(zm, l.T())
		var k int
		_, e, k = ols(ax, n, qx, e0, t, g)
		pinvs += k
	default:
		e, err = ipsoCNoise(pr, res, rng, g, p.String("sqrt") == "symmetric", drop)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for i := range yhat {
		yhat[i] += e[i]
	}
	info["ginv_solves"] = pinvs
	return pr.release(yhat, info), nil
}

// ipsoCNoise returns E* (n×t, z-units): noise orthogonal to [1, Y, X] with covariance Σ_ee,
// the covariance of the OLS residuals res.
func ipsoCNoise(pr *problem, res []float64, rng *rand.Rand, g Ginv, symmetric bool, drop map[*block][]int) ([]float64, error) {
	n, t := pr.d.N, pr.y.k
	ayx, qyx := design(true, drop, &pr.y, &pr.x)
	z := make([]float64, n*t)
	col := make([]float64, n)
	for c := range t {
		for i := range col {
			col[i] = rng.NormFloat64()
		}
		standardize(col)
		for i := range n {
			z[i*t+c] = col[i]
		}
	}
	_, e0, _ := ols(ayx, n, qyx, z, t, g)
	c0 := covOf(e0, n, t)
	var li *mat.Dense
	if symmetric {
		var err error
		if li, err = symPow(c0, -0.5); err != nil {
			return nil, err
		}
	} else {
		var ch mat.Cholesky
		if !ch.Factorize(c0) {
			return nil, fmt.Errorf("covariance of the residualized noise is singular (n = %d too small?)", n)
		}
		var inv mat.SymDense
		if err := ch.InverseTo(&inv); err != nil {
			return nil, fmt.Errorf("inverting the noise covariance: %w", err)
		}
		var ci mat.Cholesky
		if !ci.Factorize(&inv) {
			return nil, fmt.Errorf("inverse noise covariance is not positive definite")
		}
		var l mat.TriDense
		ci.LTo(&l)
		li = mat.NewDense(t, t, nil)
		li.Copy(&l)
	}
	see := covOf(res, n, t)
	lee, psd, err := sqrtFactor(see, symmetric)
	if err != nil {
		return nil, err
	}
	if psd {
		pr.notes = append(pr.notes, "residual covariance singular: symmetric PSD square root used")
	}
	var w, es mat.Dense
	w.Mul(mat.NewDense(n, t, e0), li)
	if symmetric {
		es.Mul(&w, lee) // symmetric root: Σ^{1/2} is its own transpose
	} else {
		es.Mul(&w, lee.T())
	}
	return es.RawMatrix().Data, nil
}

// standardize maps z to (z − z̄)/sd(z) in place (sample SD); a constant z becomes zeros.
func standardize(z []float64) {
	var m float64
	for _, v := range z {
		m += v
	}
	m /= float64(len(z))
	var s float64
	for _, v := range z {
		s += (v - m) * (v - m)
	}
	sd := 0.0
	if len(z) > 1 {
		sd = sqrt(s / float64(len(z)-1))
	}
	for i := range z {
		if sd == 0 {
			z[i] = 0
		} else {
			z[i] = (z[i] - m) / sd
		}
	}
}
