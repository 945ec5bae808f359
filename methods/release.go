package methods

import (
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/datasets"
)

// CheckOverflow returns an error when a release of finite input data holds an infinite value:
// the method's arithmetic overflowed (values near the float64 limit of 1.8e308, or noise
// that pushes them beyond it). Such a release is refused rather than written or measured.
// The error names the method, the first infinite cell and the input column's largest
// magnitude. Input that already holds ±Inf is not checked.
func CheckOverflow(method string, in, out *datasets.Dataset) error {
	if out == nil || in == nil || len(out.Data) != len(in.Data) {
		return nil
	}
	// The release first: most hold no infinite value, and then the input needs no pass.
	i := indexInf(out.Data)
	if i < 0 || indexInf(in.Data) >= 0 {
		return nil
	}
	r, c := i/out.P, i%out.P
	var big float64
	for k := 0; k < in.N; k++ {
		big = max(big, math.Abs(in.Data[k*in.P+c]))
	}
	return fmt.Errorf("%s: the release overflows: row %d, column %q is %v (the column's largest |value| is %.4g); "+
		"rescale the column (e.g. to other units) before protecting it", method, r+1, datasets.Clip(out.Names[c]), out.Data[i], big)
}

// indexInf returns the index of the first ±Inf in x, or −1; a plain loop, which Go compiles
// without the call per value of slices.IndexFunc with a function value.
func indexInf(x []float64) int {
	for i, v := range x {
		if math.Abs(v) > math.MaxFloat64 {
			return i
		}
	}
	return -1
}
