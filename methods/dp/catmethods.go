package dp

import (
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func registerCategorical() {
	register("dm_exact", "Dirichlet-Multinomial model, exact marginal posteriors (DP study §6.1; by convolution, any n and C)",
		categoricalOnly, nil, nil, func(s *setup, d *datasets.Dataset, _ methods.Params, rng *rand.Rand) (*methods.Release, error) {
			m := s.catModel(rng)
			W := m.DMExact()
			s.catMixture(W)
			return s.release(d, intsToFloats(m.XT[0])), nil
		})
	register("dm_collapsed", "Dirichlet-Multinomial model, collapsed random-walk MH on x with Rao-Blackwellised estimates (DP study §6.3)",
		categoricalOnly, []methods.ParamSpec{
			{Name: "niter", Kind: methods.Int, Default: "20000", Doc: "iterations including burn-in"},
			{Name: "burn", Kind: methods.Int, Default: "5000", Doc: "burn-in iterations"},
			{Name: "step", Kind: methods.Int, Default: "0", Doc: "maximal move D; 0 means max(1, round(√n/2))"},
			essParam(),
		}, func(p methods.Params) error {
			if p.Int("step") < 0 {
				return invalid("step must be ≥ 0 (got %d)", p.Int("step"))
			}
			return iterCheck(p.Int("niter"), p.Int("burn"))
		},
		func(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
			m := s.catModel(rng)
			out := m.Collapsed(p.Int("burn"), p.Int("niter")-p.Int("burn"), p.Int("step"), rng)
			for _, h := range out.Hist {
				tot := 0.0
				for _, c := range h {
					tot += c
				}
				for v := range h {
					h[v] /= tot
				}
			}
			s.catMixture(out.Hist)
			s.post.Chain, s.post.ESSMethod = out.Draws, p.String("ess_method")
			s.post.AccRate = float64(out.Accepted) / float64(out.Proposed)
			return s.release(d, intsToFloats(m.XT[0])), nil
		})
	register("dm_alg6", "Dirichlet-Multinomial model, the seed's adaptive independence MH sampler (Alg. 6, with the α and acceptance fixes)",
		categoricalOnly, []methods.ParamSpec{
			{Name: "niter", Kind: methods.Int, Default: "30000", Doc: "iterations including burn-in"},
			{Name: "burn", Kind: methods.Int, Default: "10000", Doc: "burn-in iterations"},
			{Name: "ponto", Kind: methods.Int, Default: "500", Doc: "adaptation period, ≥ 1"},
			{Name: "adapt", Kind: methods.String, Default: "burnin", Choices: []string{"burnin", "always"},
				Doc: "adapt the proposal during burn-in only, or for ever (the seed)"},
			{Name: "alg6_pt_uses_gamma", Kind: methods.Bool, Default: "false", Doc: "diagnostic: p̃ ~ Dir(γ + x + x̃) as printed"},
			essParam(),
		}, func(p methods.Params) error {
			if p.Int("ponto") < 1 {
				return invalid("ponto must be ≥ 1 (got %d)", p.Int("ponto"))
			}
			return iterCheck(p.Int("niter"), p.Int("burn"))
		},
		func(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
			m := s.catModel(rng)
			a := Alg6{Iter: p.Int("niter"), Burn: p.Int("burn"), Ponto: p.Int("ponto"),
				Always: p.String("adapt") == "always", PtGamma: p.Bool("alg6_pt_uses_gamma")}
			out := a.Run(m, rng)
			mu, v := make([]float64, len(out.Draws)), make([]float64, len(out.Draws))
			for i, dr := range out.Draws {
				mu[i], v[i] = meanVar(dr)
			}
			s.post.Mean, s.post.Var = mu, v
			s.post.Draws, s.post.ESSMethod = out.Draws, p.String("ess_method")
			s.post.AccRate = float64(out.Accepted) / float64(out.Proposed)
			return s.release(d, intsToFloats(m.XT[0])), nil
		})
}

func iterCheck(niter, burn int) error {
	if burn < 0 || niter <= burn {
		return invalid("need 0 ≤ burn < niter (got burn=%d, niter=%d)", burn, niter)
	}
	return nil
}

// catModel synthesizes the copies and returns the analyst's model.
func (s *setup) catModel(rng *rand.Rand) *CatModel {
	return &CatModel{XT: s.synthCategorical(rng), N: s.n, NT: s.nt, Alpha: s.alpha, Gamma: s.gamma}
}

// catMixture records per-category mixtures P(x_i = v) of Beta(γ + v, (C−1)γ + n − v).
func (s *setup) catMixture(W [][]float64) {
	C := len(W)
	ab := float64(C)*s.gamma + float64(s.n)
	a0 := make([]float64, C)
	mu, v := make([]float64, C), make([]float64, C)
	for i, w := range W {
		a0[i] = s.gamma
		mu[i], v[i] = MixtureMoments(w, s.gamma, ab)
	}
	s.setMixture(W, a0, ab, mu, v)
}
