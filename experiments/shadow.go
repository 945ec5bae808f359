package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// shadowFunc returns the shadow releases of run r for the membership attack
// (metrics.ShadowFunc, docs/synthetic-attacks.md): the run's method, with its parameters and
// column selection sel, run on some of the held-out rows of full (the run's prepared table
// before its holdout split), keeping the columns measured (names). Without holdout it
// returns nil: there are no records the attacker may use as shadow data.
func (s *Spec) shadowFunc(full *methods.Prepared, sel methods.Selection, r Run, names []string) metrics.ShadowFunc {
	if s.Holdout <= 0 {
		return nil
	}
	// The rows of metrics.Input.Control, split once for all the run's shadow releases.
	heldOut := sync.OnceValue(func() *datasets.Dataset {
		_, control := splitRows(full.Full, s.Holdout, r.Seed)
		return control
	})
	return func(ctx context.Context, rows []int, seed uint64) (*datasets.Dataset, error) {
		control := heldOut()
		if control == nil {
			return nil, fmt.Errorf("shadow: no held-out rows")
		}
		sub, err := rowsOf(control, rows)
		if err != nil {
			return nil, fmt.Errorf("shadow: %w", err)
		}
		// The dataset's own name, as the run's training rows keep it: a method finds its
		// dataset-specific settings by name (the registered X/Y split of FCRM and IPSO).
		sub.Name = full.Full.Name
		spr, err := methods.Prepare(sub, sel, r.method.Info())
		if err != nil {
			return nil, fmt.Errorf("shadow: %w", err)
		}
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		rel, _, err := spr.Protect(ctx, r.method, r.Params, rng)
		if err != nil {
			return nil, fmt.Errorf("shadow: %s: %w", r.Method, err)
		}
		return rel.Masked.Select(names)
	}
}

// rowsOf returns the rows of d listed in rows, in that order, with d's columns and labels.
func rowsOf(d *datasets.Dataset, rows []int) (*datasets.Dataset, error) {
	data := make([]float64, 0, len(rows)*d.P)
	for _, i := range rows {
		if i < 0 || i >= d.N {
			return nil, fmt.Errorf("%s: row %d outside 0..%d", d.Name, i, d.N-1)
		}
		data = append(data, d.Row(i)...)
	}
	out := datasets.New(d.Name+" (shadow)", d.Names, len(rows), d.P, data)
	if d.Levels != nil {
		out.Levels = d.CloneLevels()
	}
	return out, nil
}
