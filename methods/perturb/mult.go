package perturb

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(Mult{}) }

// Mult is `noise_mult`, multiplicative noise (docs/perturbative.md; Morais 2022, the
// multiplicative model and its log form): y_ij = x_ij·z_ij with z_ij iid, E z = 1, Var z = var.
//
//   - dist "lognormal" (default): ln z ~ N(−s²/2, s²), s² = ln(1+var). This is the log form
//     ln y = ln x + ε, back-transformed; zeros stay zero and signs are kept.
//   - dist "normal": z ~ N(1, var); z < 0 flips a sign (probability 7.9% at var = 0.5).
//
// Draws: column by column, rows in order, one normal per cell.
type Mult struct{}

// Info implements methods.Method.
func (Mult) Info() methods.Info {
	return methods.Info{
		Name:        "noise_mult",
		Description: "multiplicative noise y = x·z, E z = 1, Var z = var (lognormal or normal z)",
		Params: []methods.ParamSpec{
			{Name: "var", Kind: methods.Float, Default: "0.5", Min: 0, Max: math.Inf(1), Doc: "variance of the factor z"},
			{Name: "dist", Kind: methods.String, Default: "lognormal", Choices: []string{"lognormal", "normal"}, Doc: "distribution of z"},
		},
		Randomized: true,
		Missing:    missingMult,
	}
}

// Validate implements methods.Validator.
func (Mult) Validate(d *datasets.Dataset, p methods.Params) error {
	return checkDataMissing("noise_mult", d, 1)
}

// Protect implements methods.Method.
func (m Mult) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	v := p.Float("var")
	out := d.Clone()
	normal := p.String("dist") == "normal"
	s := math.Sqrt(math.Log1p(v))
	mu := -s * s / 2
	sd := math.Sqrt(v)
	for j := 0; j < d.P; j++ {
		for i := 0; i < d.N; i++ {
			g := rng.NormFloat64()
			var z float64
			if normal {
				z = 1 + sd*g
			} else {
				z = math.Exp(mu + s*g)
			}
			out.Data[i*d.P+j] *= z
		}
	}
	return &methods.Release{Masked: out}, ctx.Err()
}
