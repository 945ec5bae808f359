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
	rel, _, err := a.protect(ctx, d, p, rng, false)
	return rel, err
}

// ProtectInPlace is Protect writing the release over d's values instead of into a new table:
// the release, its error and the generator's use are Protect's, bit for bit, and the
// release's Masked shares d's values, so d holds the release afterwards (also when an error
// interrupted it). It spares the fresh memory of a second table (docs/datapath.md, "Copies of
// the table"); the caller must own d and need no original value after the call. clean
// reports that every cell of the release is a number or is missing where d's cell was
// missing: then methods.CheckOverflow and methods.CheckHoles, given the original and the
// release, return nil. When it is false, those checks need the original, which is gone: run
// Protect on a fresh copy of the input with a generator in the same state.
func (a Additive) ProtectInPlace(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (rel *methods.Release, clean bool, err error) {
	return a.protect(ctx, d, p, rng, true)
}

// protect is Protect, or ProtectInPlace with inPlace.
func (a Additive) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand, inPlace bool) (*methods.Release, bool, error) {
	if rng == nil {
		return nil, false, fmt.Errorf("%s: nil random generator", a.id())
	}
	// The column means show that the table holds no infinite value (checkScaled), sparing
	// Validate's scan of every cell (docs/datapath.md).
	sc, err := checkedScaling(a.id(), d, 2)
	if err != nil {
		return nil, false, err
	}
	w := p.Float("noise_pct") / 100
	sd := sc.SD
	// The release is written straight into a new table (or over d), x + e cell by cell: the
	// values of a copy of d with e added in place, without first copying the n×p values and
	// reading them back (docs/datapath.md, "Copies of the table").
	x := d.Data
	data := x
	if !inPlace {
		data = make([]float64, len(x))
	}
	bad := false // a cell neither a number nor missing where x is
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		s := w * sd[j]
		for k := j; k < len(x); k += d.P {
			e := s * rng.NormFloat64()
			v := x[k]
			if a.KeepZeros && v == 0 {
				data[k] = v
				continue
			}
			y := v + e
			if y-y != 0 && v == v {
				bad = true
			}
			data[k] = y
		}
	}
	out := datasets.New(d.Name, slices.Clone(d.Names), d.N, d.P, data)
	out.Levels = d.CloneLevels()
	return &methods.Release{Masked: out}, !bad, nil
}
