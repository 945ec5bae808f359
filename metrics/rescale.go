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

// prepareRescaled fills rOrig and rMasked (once, on the first call of Rescaled).
func (in *Input) prepareRescaled() {
	in.rOrig, in.rMasked = in.Orig, in.Masked
	n, p := in.Orig.N, in.Orig.P
	if in.Masked.N != n || in.Masked.P != p {
		panic(fmt.Sprintf("metrics: shape mismatch: original %d×%d, masked %d×%d", n, p, in.Masked.N, in.Masked.P))
	}
	var exp []int
	for j := 0; j < p; j++ {
		var big float64
		for i := 0; i < n; i++ {
			big = max(big, math.Abs(in.Orig.Data[i*p+j]), math.Abs(in.Masked.Data[i*p+j]))
		}
		if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) || (big < 0x1p500 && big > 0x1p-500) {
			continue
		}
		if exp == nil {
			exp = make([]int, p)
		}
		_, exp[j] = math.Frexp(big)
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
