package perturb

import (
	"context"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/methods"
	"gonum.org/v1/gonum/mat"
)

func init() {
	methods.Register(EGADP{})
	methods.Register(EGADPSdcMicro{})
}

// EGADP is `egadp`, the textbook enhanced general additive data perturbation (Muralidhar &
// Sarathy), with X the protected columns and S the predictors:
//
//  1. F, R = fitted values and residuals of the OLS of X on [1, S].
//  2. A (n×p) iid N(0, 1), drawn row by row; Bres = residuals of A on [1, S, X].
//  3. y_i = f_i + Σ_R^{1/2}·Σ_B^{−1/2}·b_i (symmetric square roots; Σ = sample covariances).
//
// The release keeps mean(X), cov(X) and cov(X, S) exactly (up to rounding), and its noise is
// orthogonal to X. It is IPSO-C with symmetric square roots.
type EGADP struct{}

// Info implements methods.Method.
func (EGADP) Info() methods.Info {
	return methods.Info{
		Name:        "egadp",
		Description: "textbook EGADP: OLS fit on the predictors plus noise with exactly the residual covariance",
		Params:      predParams,
		Randomized:  true,
		Missing:     missingShuffle,
	}
}

// Validate implements methods.Validator.
func (EGADP) Validate(d *datasets.Dataset, p methods.Params) error {
	return validatePred("egadp", d, p)
}

func validatePred(id string, d *datasets.Dataset, p methods.Params) error {
	if err := checkDataMissing(id, d, 3); err != nil {
		return err
	}
	_, err := splitColumns(id, d, p)
	return err
}

// Protect implements methods.Method.
func (e EGADP) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := e.Validate(d, p); err != nil {
		return nil, err
	}
	return withImputed("egadp", d, rng, func(d *datasets.Dataset) (*methods.Release, error) {
		return powerScaled(d, func(d *datasets.Dataset) (*methods.Release, error) { return e.protect(ctx, d, p, rng) })
	})
}

// protect is Protect at ordinary magnitudes.
func (e EGADP) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := e.Validate(d, p); err != nil {
		return nil, err
	}
	sp, _ := splitColumns("egadp", d, p)
	n, px, q := d.N, len(sp.x), sp.k
	res := gather(d, sp.x)
	x := append([]float64(nil), res...)
	fit := residualize(res, n, px, sp.design, q)
	a := make([]float64, n*px)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	sx := appendCols(sp.design, n, q, x, px)
	residualize(a, n, px, sx, q+px)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var t mat.Dense // Σ_R^{1/2}·Σ_B^{−1/2}
	t.Mul(symFunc(covMat(res, n, px), sqrtOrZero), symFunc(covMat(a, n, px), invSqrtScalar))
	var c mat.Dense
	c.Mul(mat.NewDense(n, px, a), t.T())
	cd := c.RawMatrix().Data
	for i := range fit {
		fit[i] += cd[i]
	}
	out := d.Clone()
	scatter(out, sp.x, fit)
	return release(out, sp.x, nil), nil
}

// appendCols returns [A | B] for A n×ka and B n×kb, row-major.
func appendCols(a []float64, n, ka int, b []float64, kb int) []float64 {
	k := ka + kb
	out := make([]float64, n*k)
	for i := 0; i < n; i++ {
		copy(out[i*k:], a[i*ka:i*ka+ka])
		copy(out[i*k+ka:], b[i*kb:i*kb+kb])
	}
	return out
}

// EGADPSdcMicro is `egadp_sdcmicro`: EGADP as sdcMicro 5.x computes it (the `egapd` element of
// shuffle(..., gadp = TRUE)), which produced the EGADP rows of Morais (2022):
//
//  1. F, E = fitted values and residuals of the OLS of X on [1, S].
//  2. C_s = rank covariance of E (covariance of the average-tie ranks, R cov(method = "spearman")).
//  3. V (n×p): rows iid MVN(colMeans(X), rank covariance of X), drawn row by row.
//  4. V_r = residuals of V on [1, S, X]; C_v = rank covariance of V_r.
//  5. Y = F + V_r·C_v⁻¹·C_s⁻¹.
//
// Rank covariances are O(n²), so the added term is O(n⁻³): the release is the OLS fit to
// machine precision, means exact and variances shrunk — what the study's tables show.
type EGADPSdcMicro struct{}

// Info implements methods.Method.
func (EGADPSdcMicro) Info() methods.Info {
	return methods.Info{
		Name:           "egadp_sdcmicro",
		Description:    "EGADP as sdcMicro's shuffle(gadp=TRUE) computes it (≈ OLS fitted values)",
		Params:         predParams,
		Randomized:     true,
		NotEquivariant: "adds noise with the covariance of the ranks to data-scale values, as sdcMicro does",
		Missing:        missingShuffle,
	}
}

// Validate implements methods.Validator.
func (EGADPSdcMicro) Validate(d *datasets.Dataset, p methods.Params) error {
	return validatePred("egadp_sdcmicro", d, p)
}

// Protect implements methods.Method.
func (e EGADPSdcMicro) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := e.Validate(d, p); err != nil {
		return nil, err
	}
	return withImputed("egadp_sdcmicro", d, rng, func(d *datasets.Dataset) (*methods.Release, error) {
		return powerScaled(d, func(d *datasets.Dataset) (*methods.Release, error) { return e.protect(ctx, d, p, rng) })
	})
}

// protect is Protect at ordinary magnitudes. Unlike the textbook EGADP it is not
// scale-equivariant: it adds noise with the covariance of the ranks to data-scale values, as
// sdcMicro does, so extreme data give a finite release that is not the scaled ordinary one.
func (e EGADPSdcMicro) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := e.Validate(d, p); err != nil {
		return nil, err
	}
	sp, _ := splitColumns("egadp_sdcmicro", d, p)
	n, px, q := d.N, len(sp.x), sp.k
	x := gather(d, sp.x)
	res := append([]float64(nil), x...)
	fit := residualize(res, n, px, sp.design, q)
	cs := covMat(rankTable(res, n, px), n, px)
	cx := covMat(rankTable(x, n, px), n, px)
	mu := covariance.Means(x, n, px)
	v := make([]float64, n*px)
	for i := 0; i < n; i++ {
		copy(v[i*px:], mu)
	}
	addMVN(v, v, n, px, mvnFactor(cx), rng)
	residualize(v, n, px, appendCols(sp.design, n, q, x, px), q+px)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cv := covMat(rankTable(v, n, px), n, px)
	var t mat.Dense
	t.Mul(symFunc(cv, pinvScalar), symFunc(cs, pinvScalar))
	var c mat.Dense
	c.Mul(mat.NewDense(n, px, v), &t)
	cd := c.RawMatrix().Data
	for i := range fit {
		fit[i] += cd[i]
	}
	out := d.Clone()
	scatter(out, sp.x, fit)
	return release(out, sp.x, nil), nil
}
