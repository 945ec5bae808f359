package datasets

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// setCategorical turns column c of d into a categorical column with the given raw cells
// (one per row). Levels are sorted: numerically if every label is a number, else by bytes.
// A cell for which isMissing is true is missing.
func setCategorical(d *Dataset, c int, cells []string, isMissing func(string) bool) {
	seen := map[string]bool{}
	var labels []string
	for _, s := range cells {
		if !isMissing(s) && !seen[s] {
			seen[s] = true
			labels = append(labels, s)
		}
	}
	sortLevels(labels)
	code := make(map[string]int, len(labels))
	for k, l := range labels {
		code[l] = k
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	d.Levels[c] = append(labels[:0:0], labels...)
	if d.Levels[c] == nil {
		d.Levels[c] = []string{}
	}
	for i, s := range cells {
		if k, ok := code[s]; ok {
			d.Data[i*d.P+c] = float64(k)
		} else {
			d.Data[i*d.P+c] = math.NaN()
		}
	}
}

// SortLevels sorts category labels in place as the reader orders levels: numerically when
// all parse as numbers (as R sorts the levels of a numeric factor), otherwise in byte order.
func SortLevels(labels []string) { sortLevels(labels) }

func sortLevels(labels []string) {
	nums := make(map[string]float64, len(labels))
	for _, l := range labels {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil {
			slices.Sort(labels)
			return
		}
		nums[l] = v
	}
	slices.SortFunc(labels, func(a, b string) int {
		if c := cmp.Compare(nums[a], nums[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// Categorize returns a copy of d in which the named numeric columns are categorical: their
// distinct values, sorted, become the levels (labels in shortest formatting) and NaN is
// missing. Columns already categorical are left as they are; an unknown name is an error.
func (d *Dataset) Categorize(cols []string) (*Dataset, error) {
	out := d.Clone()
	if err := out.CategorizeInPlace(cols); err != nil {
		return nil, err
	}
	return out, nil
}

// CategorizeInPlace is Categorize changing d itself instead of a copy, for a caller that owns
// d and shares its values with no one (a table it has just read): at a million rows a copy
// costs more than the categorizing. On an error (an unknown name) the columns before it are
// already categorical.
func (d *Dataset) CategorizeInPlace(cols []string) error {
	var js []int
	var err error
	for _, name := range cols {
		j := d.ColIndex(name)
		if j < 0 {
			err = fmt.Errorf("datasets: %s: no column %q (have %s)", d.Name, name, strings.Join(d.Names, ", "))
			break
		}
		if !d.IsCategorical(j) && !slices.Contains(js, j) {
			js = append(js, j)
		}
	}
	categorizeColumns(d, js)
	return err
}

// categorizer collects the distinct values of a numeric column being categorized: small
// non-negative integers, the usual codes, in a table instead of a map.
type categorizer struct {
	small [categorizeDense]int32 // small[k]: 1 + index in vals of the value k, 0 if not seen
	other map[uint64]int32       // by bits, so −0 and 0 stay apart as their labels do
	vals  []float64
	remap []float64 // code of vals[k]
}

const categorizeDense = 1024

// index returns the index of v (not NaN) in vals, adding it if it is new.
func (c *categorizer) index(v float64) int32 {
	if k := int(v); float64(k) == v && k >= 0 && k < categorizeDense && !math.Signbit(v) {
		if c.small[k] == 0 {
			c.vals = append(c.vals, v)
			c.small[k] = int32(len(c.vals))
		}
		return c.small[k] - 1
	}
	b := math.Float64bits(v)
	x, ok := c.other[b]
	if !ok {
		c.vals = append(c.vals, v)
		x = int32(len(c.vals))
		c.other[b] = x
	}
	return x - 1
}

// categorizeColumns makes the numeric columns js of d categorical in place, as setCategorical
// would from the cells' shortest formatting, but formatting each distinct value once:
// distinct values (by bits) have distinct labels. All columns are done in two passes over the
// rows (one to collect the values, one to write the codes) rather than two per column: at a
// million rows each pass over the table costs about as much as the work on its column.
func categorizeColumns(d *Dataset, js []int) {
	if len(js) == 0 {
		return
	}
	cs := make([]*categorizer, len(js))
	for k := range cs {
		cs[k] = &categorizer{other: map[uint64]int32{}}
	}
	for i := 0; i < d.N; i++ {
		row := d.Data[i*d.P : (i+1)*d.P]
		for k, j := range js {
			if v := row[j]; v == v {
				cs[k].index(v)
			}
		}
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	for k, j := range js {
		c := cs[k]
		labels := make([]string, len(c.vals))
		for x, v := range c.vals {
			labels[x] = formatFloat(v)
		}
		sorted := append([]string(nil), labels...)
		sortLevels(sorted)
		code := make(map[string]int, len(sorted))
		for x, l := range sorted {
			code[l] = x
		}
		c.remap = make([]float64, len(c.vals))
		for x, l := range labels {
			c.remap[x] = float64(code[l])
		}
		if sorted == nil {
			sorted = []string{}
		}
		d.Levels[j] = sorted
	}
	for i := 0; i < d.N; i++ {
		row := d.Data[i*d.P : (i+1)*d.P]
		for k, j := range js {
			if v := row[j]; v == v {
				row[j] = cs[k].remap[cs[k].index(v)]
			}
		}
	}
}

// AlignLevels returns a copy of d whose categorical columns use ref's codes for the same
// label (matched by column name), so that an original and a release read from separate
// files compare code by code. Labels of d unknown to ref are appended to its levels.
// A column categorical in ref and numeric in d is categorized first.
func (d *Dataset) AlignLevels(ref *Dataset) (*Dataset, error) {
	out := d.Clone()
	if err := out.AlignLevelsInPlace(ref); err != nil {
		return nil, err
	}
	return out, nil
}

// AlignLevelsInPlace is AlignLevels changing d itself instead of a copy, for a caller that
// owns d and shares its values and levels with no one (a release it has just read).
//
// The columns to categorize are categorized together, and the codes of all aligned columns
// are rewritten in one pass over the rows (categorizeColumns says why).
func (d *Dataset) AlignLevelsInPlace(ref *Dataset) error {
	out := d
	var js, cat []int // columns to align; those among them to categorize first
	for j, name := range out.Names {
		if r := ref.ColIndex(name); r >= 0 && ref.IsCategorical(r) {
			js = append(js, j)
			if !out.IsCategorical(j) {
				cat = append(cat, j)
			}
		}
	}
	categorizeColumns(out, cat)
	remaps := make([][]float64, len(js))
	for k, j := range js {
		r := ref.ColIndex(out.Names[j])
		levels := append([]string{}, ref.Levels[r]...)
		code := make(map[string]int, len(levels))
		for x, l := range levels {
			code[l] = x
		}
		remap := make([]float64, len(out.Levels[j]))
		for x, l := range out.Levels[j] {
			c, ok := code[l]
			if !ok {
				c = len(levels)
				code[l] = c
				levels = append(levels, l)
			}
			remap[x] = float64(c)
		}
		remaps[k] = remap
		out.Levels[j] = levels
	}
	if len(js) == 0 {
		return nil
	}
	for i := 0; i < out.N; i++ {
		row := out.Data[i*out.P : (i+1)*out.P]
		for k, j := range js {
			if v := row[j]; v == v {
				row[j] = remaps[k][int(v)]
			}
		}
	}
	return nil
}
