package stats

import (
	"math"
	"slices"
)

// Adjustment names a multiple-comparison p-value adjustment; the values are R's p.adjust method
// names.
type Adjustment string

// Adjustments.
const (
	// NoAdjust returns the p-values unchanged (p.adjust(p, "none")).
	NoAdjust Adjustment = "none"
	// Holm is Holm's (1979) step-down family-wise error rate control (p.adjust(p, "holm")):
	// p̃(i) = min(1, max_{j≤i} (m−j+1)·p(j)) over the sorted p-values.
	Holm Adjustment = "holm"
	// BH is the Benjamini-Hochberg (1995) false discovery rate step-up (p.adjust(p, "BH")):
	// p̃(i) = min(1, min_{j≥i} m/j·p(j)) over the sorted p-values.
	BH Adjustment = "BH"
)

// Adjust returns the p-values p adjusted for multiple comparisons by method m, as p.adjust(p, m)
// in R: NaN entries stay NaN and do not count in the number m of tests. If dst is nil a new slice
// is allocated; otherwise it must have the length of p (dst may be p itself). Adjust panics for an
// unknown method or mismatched lengths.
func Adjust(dst, p []float64, m Adjustment) []float64 {
	if dst == nil {
		dst = make([]float64, len(p))
	} else if len(dst) != len(p) {
		panic(badLength)
	}
	var idx []int
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	vals := make([]float64, len(p))
	copy(vals, p)
	copy(dst, vals)
	n := float64(len(idx))
	switch m {
	case NoAdjust, "":
		return dst
	case Holm:
		slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(vals[a], vals[b]) })
		run := 0.0
		for i, k := range idx {
			run = math.Max(run, (n-float64(i))*vals[k])
			dst[k] = math.Min(1, run)
		}
	case BH:
		slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(vals[b], vals[a]) })
		run := math.Inf(1)
		for i, k := range idx {
			run = math.Min(run, n/(n-float64(i))*vals[k])
			dst[k] = math.Min(1, run)
		}
	default:
		panic("stats: unknown adjustment " + string(m))
	}
	return dst
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
