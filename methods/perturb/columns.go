package perturb

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// predParams are the parameters of the methods that condition on non-confidential predictors
// (shuffle_ds, egadp, egadp_sdcmicro): the predictor columns pass through unchanged and every
// other column is protected.
var predParams = []methods.ParamSpec{
	{Name: "preds", Kind: methods.String, Default: "",
		Doc: "comma-separated predictor columns S (passed through unchanged); the others are masked"},
	{Name: "cat_preds", Kind: methods.String, Default: "",
		Doc: "predictors among preds that are categorical codes (dummy-coded, first level dropped)"},
}

// split is the column split of a predictor method.
type split struct {
	x      []int     // protected columns, in dataset order
	design []float64 // n×k design matrix of the predictors (numeric as is, categorical dummy-coded)
	k      int
}

func splitNames(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// splitColumns resolves preds/cat_preds against d.
func splitColumns(id string, d *datasets.Dataset, p methods.Params) (split, error) {
	preds := splitNames(p.String("preds"))
	cats := splitNames(p.String("cat_preds"))
	isPred := make([]bool, d.P)
	isCat := make([]bool, d.P)
	for _, name := range preds {
		j := slices.Index(d.Names, name)
		if j < 0 {
			return split{}, fmt.Errorf("%s: %w preds: dataset %s has no column %q (have %v)", id, methods.ErrBadParam, d.Name, name, d.Names)
		}
		if isPred[j] {
			return split{}, fmt.Errorf("%s: %w preds: column %q named twice", id, methods.ErrBadParam, name)
		}
		isPred[j] = true
	}
	for _, name := range cats {
		j := slices.Index(d.Names, name)
		if j < 0 || !isPred[j] {
			return split{}, fmt.Errorf("%s: %w cat_preds: %q is not one of preds %v", id, methods.ErrBadParam, name, preds)
		}
		isCat[j] = true
	}
	var sp split
	var cols [][]float64
	for j := 0; j < d.P; j++ {
		if !isPred[j] {
			sp.x = append(sp.x, j)
			continue
		}
		c := d.Col(j)
		if !isCat[j] {
			cols = append(cols, c)
			continue
		}
		levels := slices.Clone(c)
		slices.Sort(levels)
		levels = slices.Compact(levels)
		for _, lv := range levels[1:] { // treatment contrasts: first level dropped
			dc := make([]float64, d.N)
			for i, v := range c {
				if v == lv {
					dc[i] = 1
				}
			}
			cols = append(cols, dc)
		}
	}
	if len(sp.x) == 0 {
		return split{}, fmt.Errorf("%s: %w preds: every column of %s is a predictor, nothing to mask", id, methods.ErrBadParam, d.Name)
	}
	sp.k = len(cols)
	sp.design = make([]float64, d.N*sp.k)
	for c, col := range cols {
		for i, v := range col {
			sp.design[i*sp.k+c] = v
		}
	}
	return sp, nil
}

// gather returns the columns cols of d as an n×len(cols) row-major table.
func gather(d *datasets.Dataset, cols []int) []float64 {
	m := len(cols)
	out := make([]float64, d.N*m)
	for i := 0; i < d.N; i++ {
		row := d.Data[i*d.P:]
		for c, j := range cols {
			out[i*m+c] = row[j]
		}
	}
	return out
}

// scatter writes y (n×len(cols)) into the columns cols of out.
func scatter(out *datasets.Dataset, cols []int, y []float64) {
	m := len(cols)
	for i := 0; i < out.N; i++ {
		row := out.Data[i*out.P:]
		for c, j := range cols {
			row[j] = y[i*m+c]
		}
	}
}

// release wraps a masked table; cols (protected columns) is recorded when it is not every column.
func release(out *datasets.Dataset, cols []int, info map[string]any) *methods.Release {
	if info == nil {
		info = map[string]any{}
	}
	rel := &methods.Release{Masked: out, Info: info}
	if len(cols) < out.P {
		rel.Columns = cols
	}
	return rel
}

// powerScaled runs protect on d multiplied by one power of two when d's magnitudes are
// extreme (above 2^500 or below 2^−500, where the covariance matrices of the
// covariance-based maskings overflow or underflow), and multiplies the release back.
// Floating-point arithmetic commutes exactly with powers of two, so the release is the one
// the method gives at ordinary magnitudes, scaled (docs/hardening.md). Ordinary data go
// straight to protect. A release that overflows when scaled back is caught by the harness's
// overflow check.
func powerScaled(d *datasets.Dataset, protect func(*datasets.Dataset) (*methods.Release, error)) (*methods.Release, error) {
	if !extremeMagnitude(d.Data) { // datasets.PowerScaled would return a copy: skip it
		return protect(d)
	}
	s := datasets.PowerScaled(d.Data)
	e := 0
	for i, v := range d.Data {
		if v != 0 && s[i] != v {
			_, ev := math.Frexp(v)
			_, es := math.Frexp(s[i])
			e = ev - es
			break
		}
	}
	if e == 0 {
		return protect(d)
	}
	in := d.Clone()
	in.Data = s
	rel, err := protect(in)
	if err != nil || rel == nil || rel.Masked == nil {
		return rel, err
	}
	for i, v := range rel.Masked.Data {
		rel.Masked.Data[i] = math.Ldexp(v, e)
	}
	rel.Masked.Name = d.Name
	return rel, nil
}

// extremeMagnitude reports whether datasets.PowerScaled scales x: its largest |value| is
// finite, non-zero and above 2^500 or below 2^−500 (no NaN: a NaN anywhere leaves x as it is).
func extremeMagnitude(x []float64) bool {
	var big uint64 // the largest bit pattern of |v|: above +Inf's when some v is NaN
	for _, v := range x {
		big = max(big, math.Float64bits(v)&^(1<<63))
	}
	const inf = 0x7ff0000000000000
	if big == 0 || big >= inf {
		return false
	}
	b := math.Float64frombits(big)
	return !(b < 0x1p500 && b > 0x1p-500)
}
