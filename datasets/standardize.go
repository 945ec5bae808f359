package datasets

import (
	"math"
	"slices"
)

// Scaling holds the per-column mean and sample standard deviation (denominator n−1) of a
// table, computed with two passes (mean first, then squared deviations).
//
// A column whose plain computation overflows (|x| near 1.8e308: the sum or the squares
// exceed the float64 range) or underflows (subnormal values whose squared deviations round
// to zero) is computed again on its values multiplied by a power of two 2^−e chosen from
// its largest magnitude; such rescaling is exact, so the result is the mean and SD of the
// column to the last bit whenever they are representable. Exp[j] holds e (0 for the columns
// computed plainly); Apply and Scaled use it, so that z-scores stay finite even when SD[j]
// itself is +Inf (a column spanning −1e308 … 1e308).
type Scaling struct {
	Mean, SD []float64
	// Exp is the binary exponent by which each column was rescaled (nil when none was).
	Exp []int

	meanS, sdS []float64 // mean and SD of the rescaled columns (Exp[j] ≠ 0)
}

// ScalingOf returns the column means and sample SDs of d. With n < 2 every SD is NaN.
func ScalingOf(d *Dataset) Scaling {
	p := d.P
	s := Scaling{Mean: make([]float64, p), SD: make([]float64, p)}
	mean, ss := s.Mean[:p], s.SD[:p]
	data := d.Data[:d.N*p]
	// Rows resliced from data, so that the loops over a row's columns need no bounds checks;
	// each column's additions are in row order, as always.
	for i := 0; i+p <= len(data); i += p {
		for j, v := range data[i : i+p] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(d.N)
	}
	for i := 0; i+p <= len(data); i += p {
		for j, v := range data[i : i+p] {
			t := v - mean[j]
			ss[j] += float64(t * t)
		}
	}
	for j := range s.SD {
		s.SD[j] = math.Sqrt(s.SD[j] / float64(d.N-1))
	}
	for j := range s.SD {
		if d.N >= 2 && s.needsRescale(d, j) {
			s.rescale(d, j)
		}
	}
	return s
}

// needsRescale reports whether column j's plain mean or SD is not to be trusted: non-finite,
// or zero (or subnormal) although the column is not constant.
func (s *Scaling) needsRescale(d *Dataset, j int) bool {
	m, sd := s.Mean[j], s.SD[j]
	if math.IsInf(m, 0) || math.IsNaN(m) || math.IsInf(sd, 0) || math.IsNaN(sd) {
		return true
	}
	if sd >= 0x1p-511 { // squares of deviations this large are normal numbers: no underflow
		return false
	}
	first := d.Data[j]
	for i := 1; i < d.N; i++ {
		if d.Data[i*d.P+j] != first {
			return true
		}
	}
	return false // a constant column: SD 0 is right
}

// rescale recomputes column j on x·2^−e, with 2^e the power of two just above max |x|.
func (s *Scaling) rescale(d *Dataset, j int) {
	var big float64
	for i := 0; i < d.N; i++ {
		big = max(big, math.Abs(d.Data[i*d.P+j]))
	}
	if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) {
		return // NaN/Inf data: leave the plain result
	}
	_, e := math.Frexp(big)
	if s.Exp == nil {
		s.Exp = make([]int, d.P)
		s.meanS = make([]float64, d.P)
		s.sdS = make([]float64, d.P)
	}
	var sum float64
	for i := 0; i < d.N; i++ {
		sum += math.Ldexp(d.Data[i*d.P+j], -e)
	}
	mean := sum / float64(d.N)
	var ss float64
	for i := 0; i < d.N; i++ {
		t := math.Ldexp(d.Data[i*d.P+j], -e) - mean
		ss += t * t
	}
	sd := math.Sqrt(ss / float64(d.N-1))
	s.Exp[j], s.meanS[j], s.sdS[j] = e, mean, sd
	s.Mean[j], s.SD[j] = math.Ldexp(mean, e), math.Ldexp(sd, e)
}

// Rescaled reports whether column j was computed on rescaled values.
func (s Scaling) Rescaled(j int) bool { return s.Exp != nil && s.Exp[j] != 0 }

// Z returns the z-score (v − Mean[j])/SD[j] of a value of column j, computed in the
// rescaled units when the column needed them (finite even when SD[j] is +Inf).
func (s Scaling) Z(j int, v float64) float64 {
	if s.Rescaled(j) {
		return (math.Ldexp(v, -s.Exp[j]) - s.meanS[j]) / s.sdS[j]
	}
	return (v - s.Mean[j]) / s.SD[j]
}

// DiffSD returns (a − b)/SD[j] without overflow: in rescaled units when column j needed them.
func (s Scaling) DiffSD(j int, a, b float64) float64 {
	if s.Rescaled(j) {
		return (math.Ldexp(a, -s.Exp[j]) - math.Ldexp(b, -s.Exp[j])) / s.sdS[j]
	}
	return (a - b) / s.SD[j]
}

// Constant reports whether column j has zero standard deviation.
func (s Scaling) Constant(j int) bool { return s.SD[j] == 0 }

// Cell returns the standardized value of v in column j, the number Apply writes for it: 0 in
// a constant column, Z(j, v) in a rescaled one, (v − Mean[j]) / SD[j] otherwise.
func (s Scaling) Cell(j int, v float64) float64 {
	switch {
	case s.SD[j] == 0:
		return 0
	case s.Exp != nil && s.Exp[j] != 0:
		return s.Z(j, v)
	default:
		return (v - s.Mean[j]) / s.SD[j]
	}
}

// Apply returns the row-major z-scores of d under s: z_ij = (x_ij − mean_j)/sd_j. A column
// with sd = 0 becomes a column of zeros (docs/microaggregation.md §0). dst is reused
// when it has length d.N*d.P; otherwise a new slice is allocated.
func (s Scaling) Apply(dst []float64, d *Dataset) []float64 {
	if len(dst) != d.N*d.P {
		dst = make([]float64, d.N*d.P)
	}
	if s.Exp == nil && !slices.Contains(s.SD, 0) {
		s.applyPlain(dst, d)
		return dst
	}
	for i := 0; i < d.N; i++ {
		row := d.Row(i)
		out := dst[i*d.P : (i+1)*d.P]
		for j, v := range row {
			out[j] = s.Cell(j, v)
		}
	}
	return dst
}

// applyPlain is Apply for a scaling without rescaled or constant columns: Cell's
// (v − Mean[j]) / SD[j] for every cell, without its per-cell switch.
func (s Scaling) applyPlain(dst []float64, d *Dataset) {
	p := d.P
	mean, sd := s.Mean[:p], s.SD[:p]
	src := d.Data[:d.N*p]
	dst = dst[:len(src)]
	for i := 0; i+p <= len(src); i += p {
		row, out := src[i:i+p], dst[i:i+p]
		for j, v := range row {
			out[j] = (v - mean[j]) / sd[j]
		}
	}
}

// ZScore returns the z-scored data of d (sample SD, n−1) and its scaling. A constant column
// is an error naming the column (ErrConstantColumn), as is n < 2 (ErrTooFewRows): callers
// that want constant columns zeroed instead use ScalingOf and Apply.
func ZScore(d *Dataset) ([]float64, Scaling, error) {
	if d.N < 2 {
		return nil, Scaling{}, &ParseError{File: d.Name, Err: ErrTooFewRows}
	}
	s := ScalingOf(d)
	for j := range s.SD {
		if s.Constant(j) {
			return nil, s, &ParseError{File: d.Name, Column: d.Names[j],
				Value: formatFloat(d.Data[j]), Err: ErrConstantColumn}
		}
	}
	return s.Apply(nil, d), s, nil
}

// PowerScaled returns a copy of x multiplied by one power of two that brings its largest
// magnitude near 1 when that magnitude is extreme (above 2^500 ≈ 3e150 or below 2^−500),
// and a plain copy otherwise. The scaling is exact, so it keeps every ratio and the order of
// every distance, while squared distances no longer overflow or underflow: methods that work
// on raw values (standardize = "none") use it.
func PowerScaled(x []float64) []float64 {
	var big float64
	for _, v := range x {
		big = max(big, math.Abs(v))
	}
	out := make([]float64, len(x))
	if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) || (big < 0x1p500 && big > 0x1p-500) {
		copy(out, x)
		return out
	}
	_, e := math.Frexp(big)
	for i, v := range x {
		out[i] = math.Ldexp(v, -e)
	}
	return out
}
