package dp

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
)

// kind says which data a method accepts.
type kind int

const (
	anyData kind = iota
	binaryOnly
	categoricalOnly
)

// commonParams are the release parameters of every method (§8).
func commonParams(k kind) []methods.ParamSpec {
	ps := []methods.ParamSpec{
		{Name: "eps", Kind: methods.Float, Default: "2", Doc: "total privacy budget ε > 0; each copy uses ε/M"},
		{Name: "M", Kind: methods.Int, Default: "1", Doc: "number of released copies, ≥ 1"},
		{Name: "nt", Kind: methods.Int, Default: "0", Doc: "size of each synthetic copy; 0 means n"},
		{Name: "alpha_rule", Kind: methods.String, Default: "mv2008", Choices: []string{"mv2008", "printed"},
			Doc: "ε → α rule: mv2008 nt/(exp(ε/M)−1) (DP) or the seed's printed nt·exp(1−ε/M)"},
		{Name: "alpha_scope", Kind: methods.String, Default: "per_category", Choices: []string{"per_category", "total"},
			Doc: "the rule's α goes to every category, or is the total mass (α_i = α/C)"},
		{Name: "target", Kind: methods.String, Default: "true", Choices: []string{"true", "orig_posterior"},
			Doc: "θ*: the true proportion x/n, or the original-data posterior mean (γ+x)/(Σγ+n)"},
		{Name: "x_mode", Kind: methods.String, Default: "fixed", Choices: []string{"fixed", "random"},
			Doc: "fixed: the dataset's counts; random: x ~ Mult(n, x/n) per replicate"},
		{Name: "level", Kind: methods.Float, Default: "0.95", Min: 0.5, Max: 0.999, Doc: "interval level"},
	}
	if k != categoricalOnly {
		ps = append(ps,
			methods.ParamSpec{Name: "gamma1", Kind: methods.Float, Default: "1", Doc: "binary prior Beta(γ1, γ2), > 0"},
			methods.ParamSpec{Name: "gamma2", Kind: methods.Float, Default: "1", Doc: "binary prior Beta(γ1, γ2), > 0"})
	}
	if k != binaryOnly {
		ps = append(ps, methods.ParamSpec{Name: "gamma", Kind: methods.Float, Default: "0.5",
			Doc: "categorical prior Dirichlet(γ, …, γ), > 0"})
	}
	return ps
}

func essParam() methods.ParamSpec {
	return methods.ParamSpec{Name: "ess_method", Kind: methods.String, Default: "geyer",
		Choices: []string{"geyer", "ar_spectrum"}, Doc: "ESS estimator (metrics.md §5 or coda's effectiveSize)"}
}

// setup is one run's resolved release: the counts, sizes, α and target.
type setup struct {
	x        []int // binary: {ones}; categorical: C counts
	n, nt, C int
	budget   Budget
	alpha    float64 // per category
	g1, g2   float64 // binary prior
	gamma    float64 // categorical prior
	target   []float64
	level    float64
	info     map[string]any  // dp_alpha, dp_x and dp_xt, for people and tests
	post     *diag.Posterior // what the measures read
}

// newSetup checks the dataset and parameters and resolves the release. rng is used only
// with x_mode random (nil skips that draw, for validation).
func newSetup(d *datasets.Dataset, p methods.Params, k kind, rng *rand.Rand) (*setup, error) {
	x, err := Counts(d)
	if err != nil {
		return nil, err
	}
	binary := d.P == 1
	if k == binaryOnly && !binary {
		return nil, invalid("dataset %s has %d columns: this method needs one 0/1 column", d.Name, d.P)
	}
	if k == categoricalOnly && binary {
		return nil, invalid("dataset %s has one column: this method needs C ≥ 2 one-hot columns", d.Name)
	}
	s := &setup{x: x, n: d.N, nt: p.Int("nt"), C: max(2, d.P), level: p.Float("level")}
	if s.nt == 0 {
		s.nt = s.n
	}
	rule, err := ParseAlphaRule(p.String("alpha_rule"))
	if err != nil {
		return nil, err
	}
	s.budget = Budget{Eps: p.Float("eps"), M: p.Int("M"), NT: s.nt, Rule: rule, Total: p.String("alpha_scope") == "total"}
	if s.alpha, err = s.budget.CellAlpha(s.C); err != nil {
		return nil, err
	}
	if !(s.alpha > 0) {
		return nil, invalid("α underflows to 0 at ε/M = %v", s.budget.Eps/float64(s.budget.M))
	}
	if k != categoricalOnly {
		s.g1, s.g2 = p.Float("gamma1"), p.Float("gamma2")
		if !(s.g1 > 0 && s.g2 > 0) {
			return nil, invalid("gamma1 and gamma2 must be > 0 (got %v, %v)", s.g1, s.g2)
		}
	}
	if k != binaryOnly {
		if s.gamma = p.Float("gamma"); !(s.gamma > 0) {
			return nil, invalid("gamma must be > 0 (got %v)", s.gamma)
		}
	}
	orig := p.String("target") == "orig_posterior"
	if binary {
		t := float64(x[0]) / float64(s.n)
		if orig {
			t = (s.g1 + float64(x[0])) / (s.g1 + s.g2 + float64(s.n))
		}
		s.target = []float64{t}
	} else {
		s.target = make([]float64, len(x))
		for i, v := range x {
			s.target[i] = float64(v) / float64(s.n)
			if orig {
				s.target[i] = (s.gamma + float64(v)) / (float64(len(x))*s.gamma + float64(s.n))
			}
		}
	}
	if p.String("x_mode") == "random" && rng != nil {
		pr := make([]float64, s.C)
		if binary {
			pr[0], pr[1] = float64(x[0])/float64(s.n), 1-float64(x[0])/float64(s.n)
			xx := make([]int, 2)
			Multinomial(xx, s.n, pr, rng)
			s.x = []int{xx[0]}
		} else {
			for i, v := range x {
				pr[i] = float64(v) / float64(s.n)
			}
			s.x = make([]int, len(x))
			Multinomial(s.x, s.n, pr, rng)
		}
	}
	s.info = map[string]any{"dp_alpha": s.alpha, "dp_x": s.x}
	s.post = &diag.Posterior{Target: s.target, Level: s.level, AccRate: math.NaN(),
		Memo: new(sync.Map)} // shared by the metrics of metrics/dp.go
	return s, nil
}

// synthBinary draws the M copies of a binary release.
func (s *setup) synthBinary(rng *rand.Rand) []int {
	xt := make([]int, s.budget.M)
	SynthBinary(xt, s.x[0], s.n, s.nt, s.alpha, rng)
	s.info["dp_xt"] = xt
	return xt
}

// synthCategorical draws the M copies of a categorical release.
func (s *setup) synthCategorical(rng *rand.Rand) [][]int {
	xt := make([][]int, s.budget.M)
	for m := range xt {
		xt[m] = make([]int, len(s.x))
	}
	SynthCategorical(xt, s.x, s.nt, s.alpha, rng)
	s.info["dp_xt"] = xt
	return xt
}

// release returns the Release with copy 1 as records.
func (s *setup) release(d *datasets.Dataset, cells []float64) *methods.Release {
	return &methods.Release{Masked: records(d, cells), Info: s.info, Diag: diag.Diagnostics{Posterior: s.post}}
}

// binaryCells returns {x̃_1, nt − x̃_1}.
func (s *setup) binaryCells(xt int) []float64 { return []float64{float64(xt), float64(s.nt - xt)} }

func intsToFloats(x []int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// meanVar returns the mean and the sample variance (S−1) of v.
func meanVar(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	if len(v) > 1 {
		variance /= float64(len(v) - 1)
	} else {
		variance = math.NaN()
	}
	return mean, variance
}
