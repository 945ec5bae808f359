package metrics

import (
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/datasets"
)

// Rescaled returns Orig and Masked with every column of extreme magnitude (largest |value|
// above 2^500 ≈ 3e150 or below 2^−500) multiplied by the same power of two in both tables,
// which brings it near 1. Multiplying by a power of two is exact, so metrics that are
// invariant to a per-column scale factor (correlations, relative errors, z-scores: eigen,
// il3, pil, gini_diff) give on the rescaled tables their exact value, where the raw squares and
// sums would overflow or underflow. Without extreme columns they are Orig and Masked
// themselves. Raw-unit metrics (mse, mae, …) must not use them: their true value may lie
// outside the float64 range, and is then +Inf.
func (in *Input) Rescaled() (orig, masked *datasets.Dataset) {
	in.ronce.Do(in.prepareRescaled)
	return in.rOrig, in.rMasked
}

// hasMissing reports whether Orig or Masked holds a NaN (missing) cell, found by the pass of
// Rescaled.
func (in *Input) hasMissing() bool {
	in.ronce.Do(in.prepareRescaled)
	return in.rNaN
}

// prepareRescaled fills rOrig, rMasked and rNaN (once, on the first call of Rescaled).
func (in *Input) prepareRescaled() {
	in.rOrig, in.rMasked = in.Orig, in.Masked
	n, p := in.Orig.N, in.Orig.P
	if in.Masked.N != n || in.Masked.P != p {
		panic(fmt.Sprintf("metrics: shape mismatch: original %d×%d, masked %d×%d", n, p, in.Masked.N, in.Masked.P))
	}
	big := absMaxBits(in.Orig.Data, in.Masked.Data, n, p)
	var exp []int
	for j, b := range big {
		if b > infBits {
			in.rNaN = true
			continue // a missing cell: the column is left as it is
		}
		v := math.Float64frombits(b)
		if v == 0 || b == infBits || (v < 0x1p500 && v > 0x1p-500) {
			continue
		}
		if exp == nil {
			exp = make([]int, p)
		}
		_, exp[j] = math.Frexp(v)
	}
	if exp == nil {
		return
	}
	scale := func(d *datasets.Dataset) *datasets.Dataset {
		out := make([]float64, len(d.Data))
		for i, v := range d.Data {
			out[i] = math.Ldexp(v, -exp[i%p])
		}
		return datasets.New(d.Name, d.Names, d.N, d.P, out)
	}
	in.rOrig, in.rMasked = scale(in.Orig), scale(in.Masked)
}

// infBits is the bit pattern of +Inf; the patterns of |NaN| are above it.
const infBits = 0x7ff0000000000000

// absMaxBits returns, for every column of the row-major n×p tables x and y, the largest bit
// pattern of |v| over both: the bits of the largest |v| if the column holds no NaN, a pattern
// above infBits if it does. On non-negative floats the order of the bit patterns is the order
// of the values, so this is max(|v|) of the column (NaN if any cell is NaN), found in one pass
// over the rows instead of one strided pass per column.
func absMaxBits(x, y []float64, n, p int) []uint64 {
	big := make([]uint64, p)
	for _, t := range [2][]float64{x, y} {
		for i := 0; i < n; i++ {
			row := t[i*p : (i+1)*p : (i+1)*p]
			for l, v := range row {
				if b := math.Float64bits(v) &^ (1 << 63); b > big[l] {
					big[l] = b
				}
			}
		}
	}
	return big
}
