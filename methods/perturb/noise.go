// Package perturb holds the perturbative masking methods of shared/spec/perturbative.md:
// methods that change values rather than group records.
package perturb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(Additive{})
}

// Additive is `noise_additive` (shared/spec/perturbative.md §2.1, sdcMicro semantics): every
// value gets independent Gaussian noise,
//
//	y_ij = x_ij + e_ij,  e_ij ~ N(0, (w·sd_j)²),  w = noise_pct/100,
//
// with sd_j the sample SD of column j. Draws go column by column, rows in order, from the run's
// generator. Means and covariances are preserved in expectation; variances grow by (1+w²).
type Additive struct{}

var _ methods.Validator = Additive{}

// Info implements methods.Method.
func (Additive) Info() methods.Info {
	return methods.Info{
		Name:        "noise_additive",
		Description: "independent Gaussian noise with SD = noise_pct % of each column's SD",
		Params: []methods.ParamSpec{{Name: "noise_pct", Kind: methods.Float, Default: "10",
			Min: 0, Max: math.Inf(1), Doc: "noise SD as a percent of the column SD"}},
		Randomized: true,
	}
}

// Validate implements methods.Validator.
func (Additive) Validate(d *datasets.Dataset, p methods.Params) error {
	if d.N < 2 {
		return fmt.Errorf("noise_additive: dataset %s has %d rows, need at least 2", d.Name, d.N)
	}
	if err := d.CheckFinite(); err != nil {
		return fmt.Errorf("noise_additive: %w", err)
	}
	return nil
}

// Protect implements methods.Method.
func (a Additive) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if rng == nil {
		return nil, fmt.Errorf("noise_additive: nil random generator")
	}
	if err := a.Validate(d, p); err != nil {
		return nil, err
	}
	w := p.Float("noise_pct") / 100
	sd := datasets.ScalingOf(d).SD
	out := d.Clone()
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := w * sd[j]
		for i := 0; i < d.N; i++ {
			out.Data[i*d.P+j] += s * rng.NormFloat64()
		}
	}
	return &methods.Release{Masked: out}, nil
}
