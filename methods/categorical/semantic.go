package categorical

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(SemanticRecode{}) }

// SemanticRecode is `semantic_recode`, the greedy recoding of Navarro-Arribas and Torra that
// Morais (2022) applied by hand (docs/categorical.md): while some combination of the given
// key columns occurs fewer than k_target times (and at most max_iter times), the rarest
// combination (ties: the first in row order) takes the values of the other combination at
// the smallest Hamming distance over the keys (ties: the rarer, then the first in row
// order). A missing value is a category of its own here. Deterministic.
type SemanticRecode struct{}

// Info implements methods.Method.
func (SemanticRecode) Info() methods.Info {
	return methods.Info{
		Name:        "semantic_recode",
		Description: "greedy recoding: the rarest key combination takes the values of its nearest (Hamming) combination until all occur k_target times",
		Params: []methods.ParamSpec{
			{Name: "k_target", Kind: methods.Int, Default: "3", Min: 2, Max: math.Inf(1), Doc: "frequency every combination should reach"},
			{Name: "max_iter", Kind: methods.Int, Default: "1000", Min: 1, Max: math.Inf(1), Doc: "most combinations recoded"},
		},
		Columns: methods.CategoricalColumns,
		Missing: "a category of its own (not an sdcMicro method): a recoded combination may take a missing key (declared, n_suppressed) or fill one (declared, n_filled)",
	}
}

// Validate implements methods.Validator.
func (SemanticRecode) Validate(d *datasets.Dataset, _ methods.Params) error {
	return requireCategorical("semantic_recode", d)
}

// Protect implements methods.Method. Info: "iterations" (combinations recoded) and
// "recoded" (records whose keys changed).
func (s SemanticRecode) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := s.Validate(d, p); err != nil {
		return nil, err
	}
	k, maxIter := p.Int("k_target"), p.Int("max_iter")
	out := d.Clone()
	same := func(a, b int) bool {
		for j := 0; j < out.P; j++ {
			x, y := out.Data[a*out.P+j], out.Data[b*out.P+j]
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		}
		return true
	}
	recoded := 0
	iter := 0
	for ; iter < maxIter; iter++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Combinations in order of first appearance: a representative row and the members.
		var reps []int
		var members [][]int
		for i := 0; i < out.N; i++ {
			c := -1
			for r, rep := range reps {
				if same(i, rep) {
					c = r
					break
				}
			}
			if c < 0 {
				reps = append(reps, i)
				members = append(members, nil)
				c = len(reps) - 1
			}
			members[c] = append(members[c], i)
		}
		src := -1
		for c := range reps {
			if len(members[c]) < k && (src < 0 || len(members[c]) < len(members[src])) {
				src = c
			}
		}
		if src < 0 || len(reps) < 2 {
			break
		}
		dst, best := -1, out.P+1
		for c := range reps {
			if c == src {
				continue
			}
			h := 0
			for j := 0; j < out.P; j++ {
				x, y := out.Data[reps[src]*out.P+j], out.Data[reps[c]*out.P+j]
				if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
					h++
				}
			}
			if h < best || (h == best && len(members[c]) < len(members[dst])) {
				dst, best = c, h
			}
		}
		for _, i := range members[src] {
			copy(out.Row(i), out.Row(reps[dst]))
			recoded++
		}
	}
	info := map[string]any{"iterations": iter, "recoded": recoded}
	if n := sum(methods.Holes(d, out)); n > 0 {
		info["n_suppressed"] = n // keys that took a missing value (methods.CheckHoles)
	}
	if n := sum(methods.Holes(out, d)); n > 0 {
		info["n_filled"] = n // missing keys that took a value, declared as well
	}
	return &methods.Release{Masked: out, Info: info}, nil
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
