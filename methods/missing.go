package methods

import (
	"fmt"
	"math"
	"strconv"

	"github.com/sdcbench/sdcbench/datasets"
)

// Missing values (docs/own-data.md "Missing values"). A method states in Info.Missing what it
// does with a missing cell (NaN, or code −1 in a categorical column) of a column it protects;
// one that cannot handle them leaves Info.Missing empty and refuses the table with
// RefuseMissing's one-line error. Whatever the method, the harness refuses a release with a
// missing cell where the input had a value unless the method declared it a suppression
// (CheckHoles).

// RefuseMissing returns nil when no numeric column of d has a missing value, and otherwise an
// error naming the method, the first such column and its count, with the way forward:
// "mdav: column "netIncome" has 2,203 missing values; drop or impute them, or use ma_mdav,
// which aggregates them as sdcMicro does". alt names methods that accept them ("" for the
// generic advice). Categorical columns are refused as CheckFinite refuses them, and so are
// infinite values.
func RefuseMissing(method string, d *datasets.Dataset, alt string) error {
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			return fmt.Errorf("%s: %w", method, d.CheckFinite())
		}
	}
	counts := make([]int, d.P)
	for i, v := range d.Data {
		if v != v {
			counts[i%d.P]++
		}
	}
	for j, c := range counts {
		if c == 0 {
			continue
		}
		if alt == "" {
			alt = "a method that accepts them (docs/own-data.md, \"Missing values\")"
		}
		return fmt.Errorf("%s: column %q has %s missing value%s; drop or impute them, or use %s",
			method, datasets.Clip(d.Names[j]), Thousands(c), plural(c), alt)
	}
	if err := d.CheckFinite(); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// AltMicroagg is RefuseMissing's advice for the microaggregation methods.
const AltMicroagg = "ma_mdav, which aggregates them as sdcMicro does"

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Thousands formats n with a comma between groups of three digits: 2203 → "2,203".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// Holes returns, per column of in, the number of cells missing in out where in has a value.
// in and out must have the same shape.
func Holes(in, out *datasets.Dataset) []int {
	h := make([]int, in.P)
	for i, v := range in.Data {
		if !math.IsNaN(v) && math.IsNaN(out.Data[i]) {
			h[i%in.P]++
		}
	}
	return h
}

// CheckHoles checks that a release has no silent hole: a cell missing in rel.Masked where in
// has a value must be a suppression the method declared, Info "n_suppressed" equal to the
// number of such cells. Declared holes are recorded per column in rel.Info as
// "n_suppressed:COLUMN" (columns without holes are left out). An undeclared hole is an
// error naming the method, the dataset, the first row (1-based) and column, and the count.
func CheckHoles(method string, in *datasets.Dataset, rel *Release) error {
	if rel == nil || rel.Masked == nil || len(rel.Masked.Data) != len(in.Data) {
		return nil
	}
	// A release without a missing cell has no hole: one scan of the release, not of both
	// tables (most releases of numeric methods; docs/datapath.md).
	if !rel.Masked.HasMissing() {
		return nil
	}
	h := Holes(in, rel.Masked)
	total := 0
	for _, c := range h {
		total += c
	}
	if total == 0 {
		return nil
	}
	if declared, ok := number(rel.Info["n_suppressed"]); ok && declared == float64(total) {
		for j, c := range h {
			if c > 0 {
				rel.Info["n_suppressed:"+in.Names[j]] = c
			}
		}
		return nil
	}
	for i, v := range in.Data {
		if !math.IsNaN(v) && math.IsNaN(rel.Masked.Data[i]) {
			return fmt.Errorf("%s: the release of %s has a missing value at row %d, column %q, where the original has %v "+
				"(%s such cells, not declared as suppressions): the method left a hole; report this as a bug",
				method, in.Name, i/in.P+1, datasets.Clip(in.Names[i%in.P]), v, Thousands(total))
		}
	}
	return nil
}

// CheckNumericNA returns an error naming method when d has a categorical column or an infinite
// value: what a numeric method that accepts missing values (NaN) needs of its input
// (docs/own-data.md "Missing values").
func CheckNumericNA(method string, d *datasets.Dataset) error {
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			return fmt.Errorf("%s: %w", method, d.CheckFinite())
		}
	}
	for _, v := range d.Data {
		if math.IsInf(v, 0) {
			return fmt.Errorf("%s: %w", method, d.CheckFinite())
		}
	}
	return nil
}
