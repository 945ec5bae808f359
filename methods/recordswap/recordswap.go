// Package recordswap holds `recordswap`, targeted record swapping of households along a
// geographic hierarchy, the method of the EU 2021 census round in the form of sdcMicro
// 5.8.1's recordSwap (Gussenbauer, sdcMicro's src/recordSwap). docs/recordswap.md explains
// the algorithm, its parameters and where it departs from sdcMicro.
package recordswap

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(RecordSwap{}) }

// RecordSwap is `recordswap`: households whose key combination is rarer than k_anonymity at
// some level of the hierarchy are swapped with a household of another area of that level,
// and at the lowest level further households, drawn with probability proportional to their
// risk, are swapped until swaprate of the households are swapped. A swap exchanges the
// values of the hierarchy and carry_along columns of every member of the two households;
// the donor has the same values in the columns of a similarity profile.
//
// Draw order (rng): for every household in hid order and every level, the donor priority
// risk/Exp(1); one Int for the rounding of the number of swaps; a permutation of the lowest
// areas for the rounding of their shares; at the lowest level, area by area in key order,
// one Exp(1) per candidate household in hid order when the area still needs swaps.
type RecordSwap struct{}

// Info implements methods.Method.
func (RecordSwap) Info() methods.Info {
	return methods.Info{
		Name:        "recordswap",
		Description: "targeted record swapping of households along a geographic hierarchy (sdcMicro recordSwap)",
		Params: []methods.ParamSpec{
			{Name: "hierarchy", Kind: methods.String, Default: "",
				Doc: "comma-separated geographic columns, highest level first (e.g. nuts1,nuts2,nuts3); required"},
			{Name: "hid", Kind: methods.String, Default: "",
				Doc: "household ID column; empty: every record is a household of its own"},
			{Name: "similar", Kind: methods.String, Default: "",
				Doc: "similarity profiles tried in turn, ';' between profiles, ',' between columns (e.g. hsize,htype;hsize): a donor has the household's values in them; empty: any donor"},
			{Name: "risk_variables", Kind: methods.String, Default: "",
				Doc: "comma-separated key columns whose counts within each area give the risk 1/count"},
			{Name: "k_anonymity", Kind: methods.Int, Default: "3", Min: 0, Max: methods.MaxInt,
				Doc: "a household with a member whose count is below k at a level must be swapped across that level; 0: none must"},
			{Name: "swaprate", Kind: methods.Float, Default: "0.05", Min: 0, Max: 1,
				Doc: "share of households to swap (each swap moves two households)"},
			{Name: "carry_along", Kind: methods.String, Default: "",
				Doc: "comma-separated household-level columns swapped with the hierarchy (e.g. finer geography)"},
		},
		Randomized: true,
		Columns:    methods.AnyColumns,
		Missing:    "a household with a missing value in a hierarchy, similar or carry_along column is neither swapped nor a donor; a missing risk variable is a category of its own; a missing hid is a household of its own (sdcMicro refuses missing values)",
		Example: map[string]string{"hierarchy": "urbrur,water", "similar": "sex",
			"risk_variables": "roof,walls", "swaprate": "0.2"}, // testdata's keys
	}
}

// setup is a parameter set resolved against a dataset: column indices and households.
type setup struct {
	hier, risk, carry []int   // column indices
	similar           [][]int // profiles
	hh                [][]int // rows of each household, households in hid order
	skip              []bool  // household has a missing hierarchy, similar or carry_along value
}

// notGiven ends the error for a missing column: the harness does not give the method the
// columns it passes through.
const notGiven = "; columns passed through with --keep, --drop or --strata are not given to the method"

// columnList resolves a comma-separated list of column names of d.
func columnList(d *datasets.Dataset, param, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		name := strings.TrimSpace(f)
		if name == "" {
			continue
		}
		j := d.ColIndex(name)
		if j < 0 {
			return nil, fmt.Errorf("recordswap: %w %s: dataset %s has no column %q (have %v%s)", methods.ErrBadParam, param, d.Name, datasets.Clip(name), d.Names, notGiven)
		}
		if slices.Contains(out, j) {
			return nil, fmt.Errorf("recordswap: %w %s: column %q named twice", methods.ErrBadParam, param, name)
		}
		out = append(out, j)
	}
	return out, nil
}

// Validate implements methods.Validator.
func (RecordSwap) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := newSetup(d, p)
	return err
}

func newSetup(d *datasets.Dataset, p methods.Params) (*setup, error) {
	var s setup
	var err error
	if s.hier, err = columnList(d, "hierarchy", p.String("hierarchy")); err != nil {
		return nil, err
	}
	if len(s.hier) == 0 {
		return nil, fmt.Errorf("recordswap: %w hierarchy: name at least one geographic column (highest level first)", methods.ErrBadParam)
	}
	if s.risk, err = columnList(d, "risk_variables", p.String("risk_variables")); err != nil {
		return nil, err
	}
	carry, err := columnList(d, "carry_along", p.String("carry_along"))
	if err != nil {
		return nil, err
	}
	for _, j := range carry { // as sdcMicro: a hierarchy column is swapped once
		if !slices.Contains(s.hier, j) {
			s.carry = append(s.carry, j)
		}
	}
	for _, prof := range strings.Split(p.String("similar"), ";") {
		cols, err := columnList(d, "similar", prof)
		if err != nil {
			return nil, err
		}
		s.similar = append(s.similar, cols)
	}
	hid := -1
	if name := p.String("hid"); name != "" {
		if hid = d.ColIndex(name); hid < 0 {
			return nil, fmt.Errorf("recordswap: %w hid: dataset %s has no column %q (have %v%s)", methods.ErrBadParam, d.Name, datasets.Clip(name), d.Names, notGiven)
		}
		if slices.Contains(s.hier, hid) || slices.Contains(s.carry, hid) {
			return nil, fmt.Errorf("recordswap: %w hid: the household ID %q cannot be swapped (it is in hierarchy or carry_along)", methods.ErrBadParam, name)
		}
	}
	s.hh = households(d, hid)
	// Columns that a swap moves or compares must be household-level.
	level := slices.Concat(s.hier, s.carry)
	for _, prof := range s.similar {
		level = append(level, prof...)
	}
	s.skip = make([]bool, len(s.hh))
	for h, rows := range s.hh {
		first := rows[0]
		for _, j := range level {
			v := d.At(first, j)
			if v != v {
				s.skip[h] = true
			}
			for _, i := range rows[1:] {
				if w := d.At(i, j); w != v && !(v != v && w != w) {
					return nil, fmt.Errorf("recordswap: column %q is not at household level: household %s has %s in row %d and %s in row %d (hierarchy, similar and carry_along columns must be constant within a household)",
						d.Names[j], d.Label(first, hid), d.Label(first, j), first+1, d.Label(i, j), i+1)
				}
			}
		}
	}
	return &s, nil
}

// households returns the rows of each household of column hid (−1: every record alone), the
// households ordered by ID (NaN IDs, each a household of its own, last in row order), the
// rows in row order.
func households(d *datasets.Dataset, hid int) [][]int {
	if hid < 0 {
		out := make([][]int, d.N)
		for i := range out {
			out[i] = []int{i}
		}
		return out
	}
	byID := map[float64]int{}
	var out [][]int
	var ids []float64
	for i := 0; i < d.N; i++ {
		v := d.At(i, hid)
		if v != v {
			continue
		}
		if v == 0 {
			v = 0 // −0 and +0 are one household
		}
		h, ok := byID[v]
		if !ok {
			h = len(out)
			byID[v] = h
			out = append(out, nil)
			ids = append(ids, v)
		}
		out[h] = append(out[h], i)
	}
	order := make([]int, len(out))
	for h := range order {
		order[h] = h
	}
	slices.SortFunc(order, func(a, b int) int { return compareFloat(ids[a], ids[b]) })
	sorted := make([][]int, 0, d.N)
	for _, h := range order {
		sorted = append(sorted, out[h])
	}
	for i := 0; i < d.N; i++ {
		if v := d.At(i, hid); v != v {
			sorted = append(sorted, []int{i})
		}
	}
	return sorted
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Protect implements methods.Method.
func (RecordSwap) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	s, err := newSetup(d, p)
	if err != nil {
		return nil, err
	}
	pr := s.problem(d, p.Int("k_anonymity"))
	res, err := pr.swap(ctx, p.Float("swaprate"), rng)
	if err != nil {
		return nil, err
	}
	out := d.Clone()
	moved := slices.Concat(s.hier, s.carry)
	for a, b := range res.partner {
		if b < a { // each pair once
			continue
		}
		ra, rb := s.hh[a], s.hh[b]
		for _, j := range moved {
			va, vb := d.At(ra[0], j), d.At(rb[0], j)
			for _, i := range ra {
				out.Data[i*d.P+j] = vb
			}
			for _, i := range rb {
				out.Data[i*d.P+j] = va
			}
		}
	}
	cols := slices.Clone(moved)
	slices.Sort(cols)
	swapped := 0
	for _, b := range res.partner {
		if b >= 0 {
			swapped++
		}
	}
	return &methods.Release{Masked: out, Columns: cols, Info: map[string]any{
		"households":         len(s.hh),
		"swapped_households": swapped,
		"swaps_per_level":    res.perLevel,
		"no_donor":           res.noDonor,
		"must_swap":          res.mustSwap,
	}}, nil
}
