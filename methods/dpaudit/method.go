package dpaudit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/dp"
)

func init() {
	methods.Register(method{})
	// Small neighbouring-pair bases for the dp-audit experiment: one record (the pair is then
	// randomized response, where the test has the most power) and ten records.
	for _, n := range []int{1, 10} {
		name := fmt.Sprintf("dp_audit_bin_n%d", n)
		datasets.RegisterGenerator(datasets.Info{Name: name, Source: "synthetic",
			Description: fmt.Sprintf("audit base: %d records of one 0/1 column, x = %d ones (the neighbour has %d)", n, n-1, n)},
			func(uint64) (*datasets.Dataset, error) { return dp.BinaryDataset(name, n, n-1), nil })
		cname := fmt.Sprintf("dp_audit_cat3_n%d", n)
		datasets.RegisterGenerator(datasets.Info{Name: cname, Source: "synthetic",
			Description: fmt.Sprintf("audit base: %d records, 3 one-hot categories, all in c1 (the neighbour moves one to c2)", n)},
			func(uint64) (*datasets.Dataset, error) {
				return dp.CategoricalDataset(cname, []string{"c1", "c2", "c3"}, []int{n, 0, 0}), nil
			})
	}
}

// method is `dp_audit`: its "release" is the input unchanged; the audit's findings go to
// Release.Diag.Audit (the bound, the claimed ε, the pair's ε, the estimate, the rates and the
// trials), which the metric audit_eps_lb reports.
type method struct{}

var _ methods.Validator = method{}

func (method) Info() methods.Info {
	return methods.Info{
		Name:        "dp_audit",
		Description: "empirical ε audit of bb_synth/dm_synth on the dataset and a neighbour (likelihood-ratio test, Clopper–Pearson lower bound); releases nothing",
		Params: []methods.ParamSpec{
			{Name: "target", Kind: methods.String, Default: "bb_synth", Choices: []string{"bb_synth", "dm_synth"}, Doc: "synthesizer audited"},
			{Name: "eps", Kind: methods.Float, Default: "1", Min: 1e-6, Max: 1e3, Doc: "the target's claimed ε"},
			{Name: "alpha_rule", Kind: methods.String, Default: "mv2008", Choices: []string{"mv2008", "printed"}, Doc: "the target's ε → α rule"},
			{Name: "releases", Kind: methods.Int, Default: "4000", Min: 20, Max: math.Inf(1), Doc: "releases from each of the two datasets"},
			{Name: "level", Kind: methods.Float, Default: "0.95", Min: 0.5, Max: 0.9999, Doc: "confidence of the lower bound"},
		},
		Example:    map[string]string{"releases": "40"},
		Randomized: true,
	}
}

func (m method) target(p methods.Params) (methods.Method, methods.Params, error) {
	t, err := methods.Lookup(p.String("target"))
	if err != nil {
		return nil, methods.Params{}, err
	}
	tp, err := t.Info().Resolve(map[string]string{"eps": p.Get("eps"), "alpha_rule": p.String("alpha_rule")})
	return t, tp, err
}

// Validate checks that the target accepts the dataset.
func (m method) Validate(d *datasets.Dataset, p methods.Params) error {
	if err := methods.RefuseMissing("dp_audit", d, ""); err != nil {
		return err
	}
	t, tp, err := m.target(p)
	if err != nil {
		return fmt.Errorf("dp_audit: %w", err)
	}
	if v, ok := t.(methods.Validator); ok {
		if err := v.Validate(d, tp); err != nil {
			return fmt.Errorf("dp_audit: %w", err)
		}
	}
	return nil
}

func (m method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	t, tp, _ := m.target(p)
	res, err := Run(ctx, t, tp, d, Config{Releases: p.Int("releases"), Level: p.Float("level")}, rng)
	if err != nil {
		return nil, err
	}
	return &methods.Release{Masked: d.Clone(), Diag: diag.Diagnostics{Audit: res.Diag()}}, nil
}

// Diag returns the result as the Release.Diag.Audit the metric audit_eps_lb reads.
func (r Result) Diag() *diag.Audit {
	return &diag.Audit{EpsLB: r.Bound, EpsClaimed: r.Claimed, EpsPair: r.Pair, EpsHat: r.Hat,
		TPR: r.TPR, FPR: r.FPR, Trials: float64(r.Trials)}
}
