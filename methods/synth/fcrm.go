package synth

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(FCRMMethod{})
	methods.Register(FCMMethod{})
}

// FCRMConfig holds the settings of one fuzzy c-regression run (docs/fcrm.md "FCRM").
type FCRMConfig struct {
	C         int
	M         float64 // fuzzifier of the regression memberships
	Eps       float64 // stop when max |ΔU| ≤ Eps (StopFixed: ignored)
	RMax      int     // iteration cap
	StopFixed bool    // run exactly RMax iterations
	Intercept bool
	FCMOnX    bool // cluster the initialization on X only (default [X | y])
	FCM       FCMConfig
	Ginv      Ginv
}

// FCRMResult is the outcome of one FCRM run on z-units.
type FCRMResult struct {
	Fit       []float64 // n×t: each record's fitted value under its highest-membership model
	U         []float64 // n×c final memberships
	Iters     int
	LastDelta float64
	Objective float64 // Σ_k Σ_i U_ki^m E_ki / (n·t)
	GinvUsed  int     // WLS solves that needed the generalized inverse
}

// FCRM fits c switching regressions of y (n×t, row-major) on the design x (n×s) by fuzzy
// c-regression (Hathaway & Bezdek's FCRM as the study uses it): memberships U start from
// fuzzy c-means on [x | y] (or x), then alternate
//
//	β_i = (X̃ᵀD_iX̃)⁻X̃ᵀD_i y,  D_i = diag(U_·i^m)                 (weighted least squares)
//	E_ki = ‖y_k − x̃_kᵀβ_i‖²  (0 replaced by 1e-100)
//	U_ki = [Σ_j (E_ki/E_kj)^{1/(m−1)}]^{-1}
//
// until max |ΔU| ≤ Eps or RMax iterations. Record k is released as x̃_kᵀβ_{i*} with
// i* = argmax_i U_ki (smallest i on ties), β from the last regression step. X̃ = [1, x] with
// Intercept. c = 1 is ordinary least squares.
func FCRM(x []float64, s int, y []float64, t, n int, cfg FCRMConfig, rng *rand.Rand) FCRMResult {
	c := cfg.C
	var a []float64
	q := s
	if cfg.Intercept {
		q = s + 1
		a = make([]float64, n*q)
		for k := range n {
			a[k*q] = 1
			copy(a[k*q+1:(k+1)*q], x[k*s:(k+1)*s])
		}
	} else {
		a = x
	}
	var u []float64
	if c == 1 {
		u = make([]float64, n)
		for i := range u {
			u[i] = 1
		}
	} else {
		pts, k := x, s
		if !cfg.FCMOnX {
			k = s + t
			pts = make([]float64, n*k)
			for i := range n {
				copy(pts[i*k:], x[i*s:(i+1)*s])
				copy(pts[i*k+s:(i+1)*k], y[i*t:(i+1)*t])
			}
		}
		fc := cfg.FCM
		fc.C = c
		u, _ = FCM(pts, n, k, fc, rng)
	}
	sol := newSolver(a, n, q, cfg.Ginv)
	beta := make([]float64, c*q*t)
	w := make([]float64, n)
	e := make([]float64, n*c)
	row := make([]float64, c)
	fit := make([]float64, t)
	ex := 1 / (cfg.M - 1)
	res := FCRMResult{U: u}
	for r := 1; r <= cfg.RMax; r++ {
		res.Iters = r
		for i := range c {
			for k := range n {
				w[k] = powM(u[k*c+i], cfg.M)
			}
			sol.solve(w, y, t, beta[i*q*t:(i+1)*q*t])
		}
		for k := range n {
			ak := a[k*q : (k+1)*q]
			for i := range c {
				b := beta[i*q*t : (i+1)*q*t]
				var ss float64
				for l := range t {
					f := 0.0
					for j, v := range ak {
						f += v * b[j*t+l]
					}
					dd := y[k*t+l] - f
					ss += dd * dd
				}
				if ss == 0 {
					ss = 1e-100
				}
				e[k*c+i] = ss
			}
		}
		if c == 1 {
			res.LastDelta = 0
			break
		}
		var delta float64
		for k := range n {
			copy(row, e[k*c:(k+1)*c])
			delta = max(delta, membership(row, ex, u[k*c:(k+1)*c]))
		}
		res.LastDelta = delta
		if !cfg.StopFixed && delta <= cfg.Eps {
			break
		}
	}
	var obj float64
	for k := range n {
		for i := range c {
			obj += powM(u[k*c+i], cfg.M) * e[k*c+i]
		}
	}
	res.Objective = obj / float64(n*t)
	res.Fit = make([]float64, n*t)
	for k := range n {
		best := 0
		for i := 1; i < c; i++ {
			if u[k*c+i] > u[k*c+best] {
				best = i
			}
		}
		b := beta[best*q*t : (best+1)*q*t]
		ak := a[k*q : (k+1)*q]
		for l := range t {
			f := 0.0
			for j, v := range ak {
				f += v * b[j*t+l]
			}
			fit[l] = f
		}
		copy(res.Fit[k*t:(k+1)*t], fit)
	}
	res.GinvUsed = sol.pinvs
	return res
}

// FCRMMethod is the `fcrm` method: synthetic Y by fuzzy c-regression on the released X
// (docs/fcrm.md). Per attribute (default) each target gets its own run, in Y's column order,
// from one random stream (only the FCM initial memberships are drawn); joint fits all targets
// with shared memberships. Diagnostics: Diag.FCRM, its iterations (max over runs), last
// max |ΔU| (max) and objective (mean over runs, z-units).
type FCRMMethod struct{}

var _ methods.Validator = FCRMMethod{}

var fcmParams = []methods.ParamSpec{
	{Name: "fcm_m", Kind: methods.Float, Default: "1.5", Min: 1.0001, Max: 100, Doc: "FCM fuzzifier"},
	{Name: "fcm_eps", Kind: methods.Float, Default: "1e-5", Min: 1e-300, Max: 1, Doc: "FCM stop: max |ΔU| below this"},
	{Name: "fcm_maxit", Kind: methods.Int, Default: "300", Min: 1, Max: 1e6, Doc: "FCM iteration cap"},
	{Name: "fcm_on", Kind: methods.String, Default: "xy", Choices: []string{"xy", "x"},
		Doc: "FCM points: [X | y] (records) or X only"},
	{Name: "scale", Kind: methods.String, Default: "zscore", Choices: []string{"zscore", "none"},
		Doc: "z-score X and Y with their original means and SDs before clustering and fitting"},
}

// Info implements methods.Method.
func (FCRMMethod) Info() methods.Info {
	ps := append([]methods.ParamSpec{
		{Name: "c", Kind: methods.Int, Default: "2", Min: 1, Max: 1e6, Doc: "number of regression clusters"},
		{Name: "m", Kind: methods.Float, Default: "1.5", Min: 1.0001, Max: 100, Doc: "fuzzifier"},
		{Name: "eps", Kind: methods.Float, Default: "1e-5", Min: 1e-300, Max: 1, Doc: "stop when max |ΔU| ≤ eps"},
		{Name: "rmax", Kind: methods.Int, Default: "30", Min: 1, Max: 1e6, Doc: "iteration cap"},
		{Name: "stop_rule", Kind: methods.String, Default: "and", Choices: []string{"and", "fixed"},
			Doc: "and: stop at eps or rmax; fixed: exactly rmax iterations"},
		{Name: "mode", Kind: methods.String, Default: "per_attribute", Choices: []string{"per_attribute", "joint"},
			Doc: "one FCRM per target, or one for all targets"},
		{Name: "intercept", Kind: methods.Bool, Default: "true", Doc: "regressions with an intercept"},
		ginvParam,
	}, fcmParams...)
	ps = append(ps, roleParams...)
	return methods.Info{Name: "fcrm", Params: ps, Randomized: true,
		Description: "synthetic targets by fuzzy c-regression: each record gets the fit of its best of c regressions on the predictors"}
}

func fcmConfig(p methods.Params) FCMConfig {
	return FCMConfig{M: p.Float("fcm_m"), Lambda: p.Float("fcm_eps"), MaxIter: p.Int("fcm_maxit")}
}

// Validate implements methods.Validator.
func (FCRMMethod) Validate(d *datasets.Dataset, p methods.Params) error {
	pr, err := setup("fcrm", d, p, true)
	if err != nil {
		return err
	}
	if c := p.Int("c"); c > d.N {
		return fmt.Errorf("fcrm: c = %d exceeds the number of records %d", c, d.N)
	}
	if !p.Bool("intercept") && pr.x.k == len(pr.xconst) {
		return fmt.Errorf("fcrm: intercept = false needs at least one non-constant predictor")
	}
	return nil
}

// Protect implements methods.Method.
func (f FCRMMethod) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if rng == nil {
		return nil, fmt.Errorf("fcrm: nil random generator")
	}
	if err := f.Validate(d, p); err != nil {
		return nil, err
	}
	pr, err := setup("fcrm", d, p, p.String("scale") == "zscore")
	if err != nil {
		return nil, err
	}
	n := d.N
	xa, s := design(false, map[*block][]int{&pr.x: pr.xconst}, &pr.x)
	cfg := FCRMConfig{C: p.Int("c"), M: p.Float("m"), Eps: p.Float("eps"), RMax: p.Int("rmax"),
		StopFixed: p.String("stop_rule") == "fixed", Intercept: p.Bool("intercept"),
		FCMOnX: p.String("fcm_on") == "x", FCM: fcmConfig(p), Ginv: ginvOf(p)}
	t := pr.y.k
	out := make([]float64, n*t)
	var iters, ginv int
	var delta, obj float64
	runs := 0
	fitCols := func(cols []int) {
		yy := make([]float64, n*len(cols))
		for k := range n {
			for c, l := range cols {
				yy[k*len(cols)+c] = pr.y.a[k*t+l]
			}
		}
		r := FCRM(xa, s, yy, len(cols), n, cfg, rng)
		for k := range n {
			for c, l := range cols {
				out[k*t+l] = r.Fit[k*len(cols)+c]
			}
		}
		iters, delta, ginv = max(iters, r.Iters), max(delta, r.LastDelta), ginv+r.GinvUsed
		obj += r.Objective
		runs++
	}
	var live []int
	for l := range t {
		if !isConst(pr.yconst, l) {
			live = append(live, l)
		}
	}
	if p.String("mode") == "joint" {
		if len(live) > 0 {
			fitCols(live)
		}
	} else {
		for _, l := range live {
			if err := ctxErr(ctx, "fcrm"); err != nil {
				return nil, err
			}
			fitCols([]int{l})
		}
	}
	if runs > 0 {
		obj /= float64(runs)
	}
	rel := pr.release(out, map[string]any{"ginv_solves": ginv})
	rel.Diag.FCRM = &diag.FCRM{Iters: float64(iters), LastDelta: delta, Objective: obj}
	return rel, nil
}

// FCMMethod is the `fcm` method: fuzzy c-means on the z-scored [X | Y] (the FCRM
// initialization on its own); each record's targets are replaced by the target coordinates of
// the centroid of its highest-membership cluster, a fuzzy analogue of microaggregation.
type FCMMethod struct{}

// Info implements methods.Method.
func (FCMMethod) Info() methods.Info {
	ps := append([]methods.ParamSpec{
		{Name: "c", Kind: methods.Int, Default: "2", Min: 1, Max: 1e6, Doc: "number of clusters"},
	}, fcmParams...)
	ps = append(ps, roleParams...)
	return methods.Info{Name: "fcm", Params: ps, Randomized: true,
		Description: "fuzzy c-means on [X | Y]: targets replaced by the centroid of the record's highest-membership cluster"}
}

// Validate implements methods.Validator: the dataset needs an X/Y split (preds/targets or a
// registered one) and at least c records.
func (FCMMethod) Validate(d *datasets.Dataset, p methods.Params) error {
	if _, err := setup("fcm", d, p, true); err != nil {
		return err
	}
	if c := p.Int("c"); c > d.N {
		return fmt.Errorf("fcm: c = %d exceeds the number of records %d", c, d.N)
	}
	return nil
}

// Protect implements methods.Method.
func (f FCMMethod) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if rng == nil {
		return nil, fmt.Errorf("fcm: nil random generator")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Validate(d, p); err != nil {
		return nil, err
	}
	pr, err := setup("fcm", d, p, p.String("scale") == "zscore")
	if err != nil {
		return nil, err
	}
	c, n := p.Int("c"), d.N
	xa, s := design(false, map[*block][]int{&pr.x: pr.xconst}, &pr.x)
	t := pr.y.k
	k, pts := s, xa
	if p.String("fcm_on") == "xy" || s == 0 {
		k = s + t
		pts = make([]float64, n*k)
		for i := range n {
			copy(pts[i*k:], xa[i*s:(i+1)*s])
			copy(pts[i*k+s:(i+1)*k], pr.y.a[i*t:(i+1)*t])
		}
	}
	cfg := fcmConfig(p)
	cfg.C = c
	u, iters := FCM(pts, n, k, cfg, rng)
	// Target part of the centroids, then each record's best cluster.
	cen := make([]float64, c*t)
	den := make([]float64, c)
	for i := range n {
		for j := range c {
			w := powM(u[i*c+j], cfg.M)
			den[j] += w
			for l := range t {
				cen[j*t+l] += w * pr.y.a[i*t+l]
			}
		}
	}
	out := make([]float64, n*t)
	for i := range n {
		best := 0
		for j := 1; j < c; j++ {
			if u[i*c+j] > u[i*c+best] {
				best = j
			}
		}
		for l := range t {
			if den[best] > 0 {
				out[i*t+l] = cen[best*t+l] / den[best]
			}
		}
	}
	return pr.release(out, map[string]any{"fcm_iters": float64(iters)}), nil
}
