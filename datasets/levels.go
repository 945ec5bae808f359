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
	for _, name := range cols {
		j := d.ColIndex(name)
		if j < 0 {
			return fmt.Errorf("datasets: %s: no column %q (have %s)", d.Name, name, strings.Join(d.Names, ", "))
		}
		if d.IsCategorical(j) {
			continue
		}
		categorizeColumn(d, j)
	}
	return nil
}

// categorizeColumn makes numeric column j of d categorical in place, as setCategorical would
// from the cells' shortest formatting, but formatting each distinct value once: distinct
// values (by bits, so −0 and 0 stay apart as their labels do) have distinct labels. Small
// non-negative integers, the usual codes, are counted in a table instead of a map.
func categorizeColumn(d *Dataset, j int) {
	const dense = 1024
	var small [dense]int32 // small[k]: 1 + index in vals of the value k, 0 if not seen
	other := map[uint64]int32{}
	var vals []float64
	index := func(v float64) int32 {
		if k := int(v); float64(k) == v && k >= 0 && k < dense && !math.Signbit(v) {
			if small[k] == 0 {
				vals = append(vals, v)
				small[k] = int32(len(vals))
			}
			return small[k] - 1
		}
		b := math.Float64bits(v)
		x, ok := other[b]
		if !ok {
			vals = append(vals, v)
			x = int32(len(vals))
			other[b] = x
		}
		return x - 1
	}
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; v == v {
			index(v)
		}
	}
	labels := make([]string, len(vals))
	for k, v := range vals {
		labels[k] = formatFloat(v)
	}
	sorted := append([]string(nil), labels...)
	sortLevels(sorted)
	code := make(map[string]int, len(sorted))
	for k, l := range sorted {
		code[l] = k
	}
	remap := make([]float64, len(vals))
	for k, l := range labels {
		remap[k] = float64(code[l])
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	if sorted == nil {
		sorted = []string{}
	}
	d.Levels[j] = sorted
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; v == v {
			d.Data[i*d.P+j] = remap[index(v)]
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
func (d *Dataset) AlignLevelsInPlace(ref *Dataset) error {
	out := d
	for j, name := range out.Names {
		r := ref.ColIndex(name)
		if r < 0 || !ref.IsCategorical(r) {
			continue
		}
		if !out.IsCategorical(j) {
			categorizeColumn(out, j)
		}
		levels := append([]string{}, ref.Levels[r]...)
		code := make(map[string]int, len(levels))
		for k, l := range levels {
			code[l] = k
		}
		remap := make([]float64, len(out.Levels[j]))
		for k, l := range out.Levels[j] {
			c, ok := code[l]
			if !ok {
				c = len(levels)
				code[l] = c
				levels = append(levels, l)
			}
			remap[k] = float64(c)
		}
		for i := 0; i < out.N; i++ {
			if v := out.Data[i*out.P+j]; v == v {
				out.Data[i*out.P+j] = remap[int(v)]
			}
		}
		out.Levels[j] = levels
	}
	return nil
}
