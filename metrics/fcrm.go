package metrics

import (
	"math"

	"github.com/sdcbench/sdcbench/diag"
)

// The FCRM study's kde variants of pil and score, and the FCRM diagnostics (docs/fcrm.md).
func init() {
	Register(Func(Info{ID: "pil_kde", Unit: "%", Better: Lower,
		Description: "pil with the kernel-density quantile variance (pil_qdensity kde; the FCRM experiments' PIL)",
		Components:  []string{"q", "mean", "var", "cov", "cor"}},
		func(in *Input) Result { return evalCached(in, "pil_kde", PILKDE) }))
	Register(Func(Info{ID: "dbrl_sets", Unit: "%", Better: Lower,
		Description: "dbrl with its per-subset values as columns (s1, s3, s4, s5, s8; NaN where a subset does not apply)",
		Components:  []string{"s1", "s3", "s4", "s5", "s8"}},
		func(in *Input) Result { return evalCached(in, "dbrl", DBRL) }))
	Register(Func(Info{ID: "score_kde", Unit: "%", Better: Lower,
		Description: "score with pil_kde: 0.5·pil_kde + 0.5·dr (the FCRM experiments' SCORE)"},
		func(in *Input) Result {
			return Result{Value: ScoreOf(value(in, "pil_kde", PILKDE), evalCached(in, "dr", DR).Value)}
		}))
	for _, d := range []struct {
		id, desc string
		get      func(*diag.FCRM) float64
	}{
		{"fcrm_iters", "FCRM iterations done (max over the per-attribute runs)", func(f *diag.FCRM) float64 { return f.Iters }},
		{"fcrm_last_delta", "FCRM's last max |ΔU| (max over runs); ≤ eps means converged", func(f *diag.FCRM) float64 { return f.LastDelta }},
		{"fcrm_objective", "FCRM objective Σ U^m E /(n·t) in z-units (mean over runs)", func(f *diag.FCRM) float64 { return f.Objective }},
	} {
		Register(Func(Info{ID: d.id, Unit: "raw", Better: None, Description: d.desc, Diag: true},
			func(in *Input) Result {
				if in.Diag.FCRM == nil {
					return Result{Value: math.NaN()}
				}
				return Result{Value: d.get(in.Diag.FCRM)}
			}))
	}
}

// PILKDE returns pil computed with Opt.PILQDensity "kde" whatever in.Opt says.
func PILKDE(in *Input) Result {
	opt := in.Opt
	opt.PILQDensity = "kde"
	return PIL(&Input{Orig: in.Orig, Masked: in.Masked, Labels: in.Labels, Diag: in.Diag, Opt: opt})
}
