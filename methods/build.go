package methods

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/sdcbench/sdcbench/datasets"
)

// Set holds parameter values as Go values (int, float64, string, bool), e.g.
// methods.Set{"k": 3, "standardize": "none"}. Parameters left out take their defaults.
type Set map[string]any

// NewParams checks s against m's declared parameters and returns them resolved (the typed
// counterpart of Info.Resolve, which takes strings as a spec or the command line writes them).
func NewParams(m Method, s Set) (Params, error) {
	in := m.Info()
	raw := make(map[string]string, len(s))
	names := make([]string, 0, len(s))
	for name := range s {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v, err := FormatValue(s[name])
		if err != nil {
			return Params{}, fmt.Errorf("%s: %s: %w", in.Name, name, err)
		}
		raw[name] = v
	}
	return in.Resolve(raw)
}

// Apply protects d with the method registered under name and the parameters s: it looks the
// method up, resolves and validates the parameters, and runs it. rng may be nil for a
// deterministic method (Info.Randomized false); a randomized one needs a generator.
func Apply(ctx context.Context, name string, d *datasets.Dataset, s Set, rng *rand.Rand) (*Release, error) {
	m, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	p, err := NewParams(m, s)
	if err != nil {
		return nil, err
	}
	if m.Info().Randomized && rng == nil {
		return nil, fmt.Errorf("%s is randomized: pass a *rand.Rand, e.g. rand.New(rand.NewPCG(seed, 0))", name)
	}
	if v, ok := m.(Validator); ok {
		if err := v.Validate(d, p); err != nil {
			return nil, err
		}
	}
	return m.Protect(ctx, d, p, rng)
}
