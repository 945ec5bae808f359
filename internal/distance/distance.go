// Package distance computes squared Euclidean distances the one way sdcbench's exact searches
// rely on: Σ_l (a_l − b_l)² accumulated in column order with separately rounded products (no
// fused multiply-add), so that equal distances are bit-identical whichever code computes them
// (metrics.md §0.5).
package distance

// Sq returns ‖a − b‖² = Σ_l (a_l − b_l)², accumulated in column order. b must have at least
// len(a) values.
func Sq(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for l, v := range a {
		t := v - b[l]
		s += float64(t * t)
	}
	return s
}

// SqBound returns Sq(a, b), or the partial sum as soon as it reaches bound (an early exit for
// searches that only need distances below bound). A value below bound is exact and
// bit-identical to Sq(a, b); a value ≥ bound means Sq(a, b) ≥ bound.
func SqBound(a, b []float64, bound float64) float64 {
	b = b[:len(a)]
	var s float64
	for l, v := range a {
		t := v - b[l]
		s += float64(t * t)
		if s >= bound {
			return s
		}
	}
	return s
}

// SqRows writes into out[i] Sq(row i, q) for the rows of the row-major table rows with len(q)
// columns; len(out) must be len(rows)/len(q).
func SqRows(out, rows, q []float64) {
	d := len(q)
	for i := range out {
		out[i] = Sq(rows[i*d:(i+1)*d:(i+1)*d], q)
	}
}
