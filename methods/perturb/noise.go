// Package perturb holds the perturbative masking methods (docs/perturbative.md): methods that
// change values rather than group records, and the post-processors revmap and restrict.
package perturb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(Additive{})
	methods.Register(Additive{KeepZeros: true})
	methods.Register(Correlated{})
	methods.Register(Correlated2{})
	methods.Register(Restr{})
}

// Additive is `noise_additive` (docs/perturbative.md, sdcMicro semantics): every
// value gets independent Gaussian noise,
//
//	y_ij = x_ij + e_ij,  e_ij ~ N(0, (w·sd_j)²),  w = noise_pct/100,
//
// with sd_j the sample SD of column j. Draws go column by column, rows in order, from the run's
// generator. Means and covariances are preserved in expectation; variances grow by (1+w²).
//
// With KeepZeros it is `noise_additive0` (§2.2, sdcMicro "additive0"): cells whose original
// value is 0 stay 0; their draw is still made so that the stream stays aligned.
type Additive struct{ KeepZeros bool }

func (a Additive) id() string {
	if a.KeepZeros {
		return "noise_additive0"
	}
	return "noise_additive"
}

var _ methods.Validator = Additive{}

// Info implements methods.Method.
func (a Additive) Info() methods.Info {
	desc := "independent Gaussian noise with SD = noise_pct % of each column's SD"
	if a.KeepZeros {
		desc += ", zeros kept"
	}
	return methods.Info{
		Name:        a.id(),
		Description: desc,
		Params: []methods.ParamSpec{{Name: "noise_pct", Kind: methods.Float, Default: "10",
			Min: 0, Max: math.Inf(1), Doc: "noise SD as a percent of the column SD"}},
		Randomized: true,
		Missing:    missingNoise,
	}
}

// Validate implements methods.Validator.
func (a Additive) Validate(d *datasets.Dataset, p methods.Params) error {
	return checkDataMissing(a.id(), d, 2)
}

// Protect implements methods.Method.
func (a Additive) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if rng == nil {
		return nil, fmt.Errorf("%s: nil random generator", a.id())
	}
	// The column means show that the table holds no infinite value (checkScaled), sparing
	// Validate's scan of every cell (docs/datapath.md).
	var sc datasets.Scaling
	if d.N >= 2 { // else checkScaled returns Validate's error
		sc = availScaling(d)
	}
	if err := checkScaled(a.id(), d, 2, sc); err != nil {
		return nil, err
	}
	w := p.Float("noise_pct") / 100
	sd := sc.SD
	// The release is written straight into a new table, x + e cell by cell: the values of a
	// copy of d with e added in place, without first copying the n×p values and reading them
	// back (docs/datapath.md, "Copies of the table").
	x := d.Data
	data := make([]float64, len(x))
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := w * sd[j]
		for k := j; k < len(x); k += d.P {
			e := s * rng.NormFloat64()
			if a.KeepZeros && x[k] == 0 {
				data[k] = x[k]
				continue
			}
			data[k] = x[k] + e
		}
	}
	out := datasets.New(d.Name, slices.Clone(d.Names), d.N, d.P, data)
	out.Levels = d.CloneLevels()
	return &methods.Release{Masked: out}, nil
}
