package dp

import (
	"context"

	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// method is one registered DP method: common release handling plus its inference.
type method struct {
	info  methods.Info
	kind  kind
	check func(p methods.Params) error // extra parameter checks (nil: none)
	run   func(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error)
}

var _ methods.Validator = (*method)(nil)

func (m *method) Info() methods.Info { return m.info }

// Validate rejects bad parameters (ε ≤ 0, M < 1, …) and datasets of the wrong kind by name.
func (m *method) Validate(d *datasets.Dataset, p methods.Params) error {
	if err := methods.RefuseMissing(m.info.Name, d, ""); err != nil {
		return err
	}
	if _, err := newSetup(d, p, m.kind, nil); err != nil {
		return err
	}
	if m.check != nil {
		return m.check(p)
	}
	return nil
}

func (m *method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	s, err := newSetup(d, p, m.kind, rng)
	if err != nil {
		return nil, err
	}
	return m.run(s, d, p, rng)
}

// examples are short chains for the conformance checks (methods.Info.Example).
var examples = map[string]map[string]string{
	"charest_gibbs": {"burn": "20", "keep": "20", "thin": "1"},
	"charest_mhl":   {"burn": "20", "keep": "20", "thin": "1"},
	"dm_alg6":       {"niter": "200", "burn": "50"},
	"dm_collapsed":  {"niter": "200", "burn": "50"},
}

func register(name, desc string, k kind, extra []methods.ParamSpec, check func(methods.Params) error,
	run func(*setup, *datasets.Dataset, methods.Params, *rand.Rand) (*methods.Release, error)) {
	methods.Register(&method{
		info: methods.Info{Name: name, Description: desc, Params: append(commonParams(k), extra...), Randomized: true,
			Example: examples[name]},
		kind: k, check: check, run: run,
	})
}

func chainParams(burn, keep, thin string) []methods.ParamSpec {
	return []methods.ParamSpec{
		{Name: "burn", Kind: methods.Int, Default: burn, Doc: "burn-in iterations, ≥ 0"},
		{Name: "keep", Kind: methods.Int, Default: keep, Doc: "stored draws, ≥ 1"},
		{Name: "thin", Kind: methods.Int, Default: thin, Doc: "iterations per stored draw, ≥ 1"},
		{Name: "rao_blackwell", Kind: methods.Bool, Default: "false", Doc: "point estimate mean (γ1+x)/(γ1+γ2+n) over the stored x"},
		essParam(),
	}
}

func chainOf(p methods.Params) Chain {
	return Chain{Burn: p.Int("burn"), Keep: p.Int("keep"), Thin: p.Int("thin")}
}

func init() {
	register("bb_synth", "Beta-Binomial ε-DP synthesizer (Abowd & Vilhuber 2008; DP study Alg. 2): M copies at ε/M, no inference",
		binaryOnly, nil, nil, func(s *setup, d *datasets.Dataset, _ methods.Params, rng *rand.Rand) (*methods.Release, error) {
			xt := s.synthBinary(rng)
			return s.release(d, s.binaryCells(xt[0])), nil
		})
	register("dm_synth", "Dirichlet-Multinomial ε-DP synthesizer (DP study Alg. 1): M copies at ε/M, no inference",
		categoricalOnly, nil, nil, func(s *setup, d *datasets.Dataset, _ methods.Params, rng *rand.Rand) (*methods.Release, error) {
			xt := s.synthCategorical(rng)
			return s.release(d, intsToFloats(xt[0])), nil
		})
	for _, fs := range []bool{false, true} {
		name, desc := "rubin_mi", "DP synthesis + Rubin's multiple-imputation rules T = (1+1/M)b + v̄ (DP study §4)"
		if fs {
			name, desc = "rubin_fs", "DP synthesis + fully-synthetic rules T = (1+1/M)b − v̄, or (nt/n)v̄ if ≤ 0 (Raghunathan et al. 2003)"
		}
		register(name, desc, anyData, nil, nil, func(s *setup, d *datasets.Dataset, _ methods.Params, rng *rand.Rand) (*methods.Release, error) {
			return runRubin(s, d, fs, rng), nil
		})
	}
	register("laplace_counts", "Laplace mechanism on the counts, Lap(Δ·M/ε) per copy and cell; exact Bayes (binary) or naive estimate",
		anyData, []methods.ParamSpec{
			{Name: "laplace_delta", Kind: methods.Float, Default: "0", Doc: "sensitivity Δ; 0 means 1 (binary) or 2 (categorical, substitution)"},
			{Name: "estimator", Kind: methods.String, Default: "bayes", Choices: []string{"bayes", "naive"},
				Doc: "binary: exact Bayes mixture or clamp(ȳ/n); categorical is always naive"},
		}, nil, runLaplace)
	register("charest_exact", "Charest's binary model, exact posterior by marginalisation (DP study §5.1; replaces JAGS)",
		binaryOnly, nil, nil, func(s *setup, d *datasets.Dataset, _ methods.Params, rng *rand.Rand) (*methods.Release, error) {
			xt := s.synthBinary(rng)
			w := ExactBinary(nil, xt, s.n, s.nt, s.alpha, s.g1, s.g2)
			ab := s.g1 + s.g2 + float64(s.n)
			mu, v := MixtureMoments(w, s.g1, ab)
			s.setMixture([][]float64{w}, []float64{s.g1}, ab, []float64{mu}, []float64{v})
			return s.release(d, s.binaryCells(xt[0])), nil
		})
	chainCheck := func(p methods.Params) error { return chainOf(p).Validate() }
	register("charest_gibbs", "Charest's binary model, Gibbs sampler (DP study Alg. 3)", binaryOnly,
		chainParams("1000", "1000", "20"), chainCheck,
		func(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
			return runBinaryMCMC(s, d, p, rng, false)
		})
	register("charest_mhl", "Charest's binary model, Gibbs with a Metropolis step of size L for x (DP study Alg. 4, corrected acceptance)",
		binaryOnly, append(chainParams("1000", "1000", "20"),
			methods.ParamSpec{Name: "mhl_L", Kind: methods.Int, Default: "11", Doc: "proposal step L ≥ 1"},
			methods.ParamSpec{Name: "mhl_proposal", Kind: methods.String, Default: "rounded_uniform",
				Choices: []string{"rounded_uniform", "discrete_excl"}, Doc: "x + round(U(−L, L)), or uniform on 1 ≤ |y−x| ≤ L"}),
		func(p methods.Params) error {
			if p.Int("mhl_L") < 1 {
				return invalid("mhl_L must be ≥ 1 (got %d)", p.Int("mhl_L"))
			}
			return chainOf(p).Validate()
		},
		func(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
			return runBinaryMCMC(s, d, p, rng, true)
		})
	registerCategorical()
}

// setMixture records Beta-mixture posteriors (one per parameter) and their moments.
func (s *setup) setMixture(w [][]float64, a0 []float64, ab float64, mu, v []float64) {
	s.post.MixW, s.post.MixA0, s.post.MixAB = w, a0, ab
	s.post.Mean, s.post.Var = mu, v
}

func runRubin(s *setup, d *datasets.Dataset, fs bool, rng *rand.Rand) *methods.Release {
	var cols [][]int // per parameter, the M synthetic counts
	var first []float64
	if d.P == 1 {
		xt := s.synthBinary(rng)
		cols, first = [][]int{xt}, s.binaryCells(xt[0])
	} else {
		xt := s.synthCategorical(rng)
		cols = make([][]int, len(s.x))
		for i := range cols {
			for _, row := range xt {
				cols[i] = append(cols[i], row[i])
			}
		}
		first = intsToFloats(xt[0])
	}
	mu, v := make([]float64, len(cols)), make([]float64, len(cols))
	for i, c := range cols {
		r := CombineRubin(c, s.nt, s.n, fs)
		mu[i], v[i] = r.QBar, r.T
	}
	s.post.Mean, s.post.Var, s.post.Normal = mu, v, true
	return s.release(d, first)
}

func runLaplace(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	M := s.budget.M
	delta := p.Float("laplace_delta")
	if delta == 0 {
		delta = 1
		if d.P > 1 {
			delta = 2
		}
	}
	if !(delta > 0) {
		return nil, invalid("laplace_delta must be > 0 (got %v)", delta)
	}
	y := make([][]float64, M)
	for m := range y {
		y[m] = make([]float64, len(s.x))
	}
	LaplaceCounts(y, s.x, s.budget.Eps, M, delta, rng)
	n := float64(s.n)
	lam := delta * float64(M) / s.budget.Eps
	if d.P == 1 {
		first := []float64{y[0][0], n - y[0][0]}
		if p.String("estimator") == "bayes" {
			ym := make([]float64, M)
			for m := range ym {
				ym[m] = y[m][0]
			}
			w := LaplaceBayes(ym, s.n, s.budget.Eps, delta, s.g1, s.g2)
			ab := s.g1 + s.g2 + n
			mu, v := MixtureMoments(w, s.g1, ab)
			s.setMixture([][]float64{w}, []float64{s.g1}, ab, []float64{mu}, []float64{v})
			return s.release(d, first), nil
		}
		ph := LaplaceNaive(y, s.n)
		s.post.Mean = ph
		s.post.Var = []float64{ph[0]*(1-ph[0])/n + 2*lam*lam/(float64(M)*n*n)}
		s.post.Normal = true
		return s.release(d, first), nil
	}
	ph := LaplaceNaive(y, s.n)
	v := make([]float64, len(ph))
	for i, q := range ph {
		v[i] = q*(1-q)/n + 2*lam*lam/(float64(M)*n*n)
	}
	s.post.Mean, s.post.Var, s.post.Normal = ph, v, true
	return s.release(d, y[0]), nil
}

func runBinaryMCMC(s *setup, d *datasets.Dataset, p methods.Params, rng *rand.Rand, mhl bool) (*methods.Release, error) {
	xt := s.synthBinary(rng)
	set := chainOf(p)
	smp := NewBinarySampler(s.n, s.nt, s.budget.M, s.alpha, s.g1, s.g2)
	dr := &BinaryDraws{P: make([]float64, set.Keep), X: make([]int, set.Keep)}
	if mhl {
		prop := RoundedUniform
		if p.String("mhl_proposal") == "discrete_excl" {
			prop = DiscreteExcl
		}
		smp.MHL(dr, xt, set, p.Int("mhl_L"), prop, rng)
		s.post.AccRate = float64(dr.Accepted) / float64(dr.Proposed)
	} else {
		smp.Gibbs(dr, xt, set, rng)
	}
	mu, v := meanVar(dr.P)
	if p.Bool("rao_blackwell") {
		mu = 0
		for _, x := range dr.X {
			mu += (s.g1 + float64(x)) / (s.g1 + s.g2 + float64(s.n)) / float64(len(dr.X))
		}
	}
	s.post.Mean, s.post.Var = []float64{mu}, []float64{v}
	s.post.Draws, s.post.ESSMethod = [][]float64{dr.P}, p.String("ess_method")
	return s.release(d, s.binaryCells(xt[0])), nil
}
