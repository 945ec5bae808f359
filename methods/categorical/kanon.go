package categorical

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(KAnon{}) }

// KAnon is `kanon`, k-anonymity by local suppression as sdcMicro 5.8.1's kAnon /
// localSuppression computes it (docs/categorical.md "kanon"): the columns given are the key
// variables; key values are set missing until every record has at least k records compatible
// with it (a missing value matching anything, weighted by alpha), the values of the least
// important keys first. With `combs`, k-anonymity is reached in turn for every combination of
// that many keys. Strata are the harness's (`strata`), run separately as sdcMicro's strataVars.
// Deterministic; equal to sdcMicro cell for cell (methods/categorical/sdcmicro/kanon.R).
type KAnon struct{}

// Info implements methods.Method.
func (KAnon) Info() methods.Info {
	return methods.Info{
		Name:        "kanon",
		Description: "k-anonymity by local suppression of key values, least important keys first (sdcMicro kAnon / localSuppression)",
		Params: []methods.ParamSpec{
			{Name: "k", Kind: methods.Int, Default: "2", Min: 1, Max: methods.MaxInt,
				Doc: "every record must share its keys (missing values as wildcards) with at least k records"},
			{Name: "importance", Kind: methods.String, Default: "",
				Doc: "comma list, one integer in 1..#keys per key in column order; higher is suppressed first; empty: keys with more levels are suppressed first (sdcMicro's default)"},
			{Name: "combs", Kind: methods.String, Default: "",
				Doc: "comma list of subset sizes (e.g. 5,4,3): k-anonymity for every combination of that many keys, in turn; empty: all keys at once"},
			{Name: "combs_k", Kind: methods.String, Default: "",
				Doc: "comma list, one k per entry of combs (sdcMicro's vector k); empty: k for every size"},
			{Name: "alpha", Kind: methods.Float, Default: "1", Min: 0, Max: 1,
				Doc: "weight of a key with missing values in the frequencies: 1 counts every wildcard match, 0 makes missing its own category"},
		},
		Columns: methods.CategoricalColumns,
		Missing: "kept missing; a missing key matches every value in the frequencies (alpha = 1, sdcMicro's rule; alpha < 1 weighs it less); the cells it sets missing are its declared suppressions (n_suppressed)",
	}
}

// kanonPlan is one suppSubset call: key columns, their order of suppression and k.
type kanonPlan struct {
	cols, order []int
	k           int
}

// kanonPlans returns the suppSubset calls of a kanon run on d, in order.
func kanonPlans(d *datasets.Dataset, p methods.Params) ([]kanonPlan, error) {
	if err := requireCategorical("kanon", d); err != nil {
		return nil, err
	}
	if d.P > 63 {
		return nil, fmt.Errorf("kanon: %d key columns; at most 63", d.P)
	}
	imp, err := kanonImportance(d, p.String("importance"))
	if err != nil {
		return nil, err
	}
	k := p.Int("k")
	if d.N < k {
		return nil, fmt.Errorf("kanon: %w k=%d: larger than the %d records of %s (sdcMicro: k is larger or equal the group size)", methods.ErrBadParam, k, d.N, d.Name)
	}
	all := make([]int, d.P)
	for j := range all {
		all[j] = j
	}
	if strings.TrimSpace(p.String("combs")) == "" {
		if p.String("combs_k") != "" {
			return nil, fmt.Errorf("kanon: %w combs_k=%q: give combs too", methods.ErrBadParam, p.String("combs_k"))
		}
		return []kanonPlan{{all, byImportance(all, imp), k}}, nil
	}
	sizes, err := intList(p.String("combs"), "combs", 1, d.P)
	if err != nil {
		return nil, err
	}
	ks := make([]int, len(sizes))
	for i := range ks {
		ks[i] = k
	}
	if s := strings.TrimSpace(p.String("combs_k")); s != "" {
		ks, err = intList(s, "combs_k", 1, d.N)
		if err != nil {
			return nil, err
		}
		if len(ks) != len(sizes) {
			return nil, fmt.Errorf("kanon: %w combs_k=%q: one k per entry of combs (%d)", methods.ErrBadParam, s, len(sizes))
		}
	}
	var plans []kanonPlan
	for g, size := range sizes {
		combinations(d.P, size, func(pick []int) bool {
			cols := slices.Clone(pick)
			sub := make([]int, len(cols))
			for i, c := range cols {
				sub[i] = imp[c]
			}
			pos := make([]int, len(cols))
			for i := range pos {
				pos[i] = i
			}
			plans = append(plans, kanonPlan{cols, byImportance(pos, sub), ks[g]})
			return true
		})
	}
	return plans, nil
}

// byImportance returns the positions of cols by decreasing importance imp[position], ties in
// column order (sdcMicro's order(importanceI)).
func byImportance(pos, imp []int) []int {
	o := slices.Clone(pos)
	slices.SortStableFunc(o, func(a, b int) int { return imp[b] - imp[a] })
	return o
}

// kanonImportance parses importance, or computes sdcMicro's default: the rank of each key's
// number of levels, fewest first, ties in column order (fewer levels: suppressed last).
func kanonImportance(d *datasets.Dataset, s string) ([]int, error) {
	if strings.TrimSpace(s) != "" {
		imp, err := intList(s, "importance", 1, d.P)
		if err != nil {
			return nil, err
		}
		if len(imp) != d.P {
			return nil, fmt.Errorf("kanon: %w importance=%q: %d values for %d key columns %v", methods.ErrBadParam, s, len(imp), d.P, d.Names)
		}
		return imp, nil
	}
	pos := make([]int, d.P)
	for j := range pos {
		pos[j] = j
	}
	slices.SortStableFunc(pos, func(a, b int) int { return len(d.Levels[a]) - len(d.Levels[b]) })
	imp := make([]int, d.P)
	for r, j := range pos {
		imp[j] = r + 1
	}
	return imp, nil
}

func intList(s, name string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("kanon: %w %s=%q: %q is not an integer in [%d, %d]", methods.ErrBadParam, name, s, strings.TrimSpace(f), lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

// Validate implements methods.Validator.
func (KAnon) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := kanonPlans(d, p)
	return err
}

// Protect implements methods.Method. Info: "n_suppressed" (key values set missing),
// "n_suppressed_<column>" per key column and "passes" (suppression passes, all calls).
func (KAnon) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	plans, err := kanonPlans(d, p)
	if err != nil {
		return nil, err
	}
	t := &kanonTable{n: d.N, p: d.P, codes: make([]int32, d.N*d.P), width: make([]uint, d.P)}
	for j := 0; j < d.P; j++ {
		t.width[j] = codeWidth(len(d.Levels[j]))
	}
	for i, v := range d.Data {
		if !math.IsNaN(v) {
			if v < 0 || int(v) >= len(d.Levels[i%d.P]) || v != math.Trunc(v) {
				return nil, fmt.Errorf("kanon: %s row %d column %q: code %g is not a level", d.Name, i/d.P+1, d.Names[i%d.P], v)
			}
			t.codes[i] = int32(v) + 1
		}
	}
	passes := 0
	for _, pl := range plans {
		n, err := suppSubset(ctx, t, pl.cols, pl.order, pl.k, p.Float("alpha"))
		passes += n
		if err != nil {
			return nil, fmt.Errorf("kanon: %s: %w", d.Name, err)
		}
	}
	out := d.Clone()
	info := map[string]any{"passes": passes}
	per := make([]int, d.P)
	total := 0
	for i, c := range t.codes {
		if c == 0 && !math.IsNaN(out.Data[i]) {
			out.Data[i] = math.NaN()
			per[i%d.P]++
			total++
		}
	}
	for j, n := range per {
		info["n_suppressed_"+d.Names[j]] = n
	}
	info["n_suppressed"] = total
	return &methods.Release{Masked: out, Info: info}, nil
}
