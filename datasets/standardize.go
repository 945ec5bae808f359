package datasets

import "math"

// Scaling holds the per-column mean and sample standard deviation (denominator n−1) of a
// table, computed with two passes (mean first, then squared deviations).
type Scaling struct {
	Mean, SD []float64
}

// ScalingOf returns the column means and sample SDs of d. With n < 2 every SD is NaN.
func ScalingOf(d *Dataset) Scaling {
	s := Scaling{Mean: make([]float64, d.P), SD: make([]float64, d.P)}
	for i := 0; i < d.N; i++ {
		row := d.Row(i)
		for j, v := range row {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(d.N)
	}
	for i := 0; i < d.N; i++ {
		row := d.Row(i)
		for j, v := range row {
			t := v - s.Mean[j]
			s.SD[j] += float64(t * t)
		}
	}
	for j := range s.SD {
		s.SD[j] = math.Sqrt(s.SD[j] / float64(d.N-1))
	}
	return s
}

// Constant reports whether column j has zero standard deviation.
func (s Scaling) Constant(j int) bool { return s.SD[j] == 0 }

// Apply returns the row-major z-scores of d under s: z_ij = (x_ij − mean_j)/sd_j. A column
// with sd = 0 becomes a column of zeros (shared/spec/microaggregation.md §0). dst is reused
// when it has length d.N*d.P; otherwise a new slice is allocated.
func (s Scaling) Apply(dst []float64, d *Dataset) []float64 {
	if len(dst) != d.N*d.P {
		dst = make([]float64, d.N*d.P)
	}
	for i := 0; i < d.N; i++ {
		row := d.Row(i)
		out := dst[i*d.P : (i+1)*d.P]
		for j, v := range row {
			if s.SD[j] == 0 {
				out[j] = 0
			} else {
				out[j] = (v - s.Mean[j]) / s.SD[j]
			}
		}
	}
	return dst
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
