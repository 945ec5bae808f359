package methods

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// checkOverflowRef is CheckOverflow as first written: the input scanned for ±Inf first, then
// the release for its first infinite cell.
func checkOverflowRef(method string, in, out *datasets.Dataset) error {
	if out == nil || in == nil || len(out.Data) != len(in.Data) {
		return nil
	}
	for _, v := range in.Data {
		if math.IsInf(v, 0) {
			return nil
		}
	}
	for i, v := range out.Data {
		if !math.IsInf(v, 0) {
			continue
		}
		r, c := i/out.P, i%out.P
		var big float64
		for k := 0; k < in.N; k++ {
			big = max(big, math.Abs(in.Data[k*in.P+c]))
		}
		return fmt.Errorf("%s: the release overflows: row %d, column %q is %v (the column's largest |value| is %.4g); "+
			"rescale the column (e.g. to other units) before protecting it", method, r+1, datasets.Clip(out.Names[c]), v, big)
	}
	return nil
}

// TestCheckOverflowMatchesReference compares CheckOverflow with checkOverflowRef on random
// inputs and releases with and without infinite and missing values, and mismatched sizes.
func TestCheckOverflowMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	cell := func() float64 {
		switch rng.IntN(30) {
		case 0:
			return math.Inf(1)
		case 1:
			return math.Inf(-1)
		case 2:
			return math.NaN()
		default:
			return rng.NormFloat64() * 1e300
		}
	}
	for trial := range 2000 {
		n, p := 1+rng.IntN(8), 1+rng.IntN(3)
		in := datasets.New("in", []string{"a", "b", "c"}[:p], n, p, make([]float64, n*p))
		out := datasets.New("out", []string{"a", "b", "c"}[:p], n, p, make([]float64, n*p))
		for i := range in.Data {
			in.Data[i], out.Data[i] = cell(), cell()
		}
		if trial%7 == 0 {
			out.Data = out.Data[:len(out.Data)-1]
		}
		got, want := CheckOverflow("m", in, out), checkOverflowRef("m", in, out)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
	if CheckOverflow("m", nil, nil) != nil {
		t.Error("nil tables: an error")
	}
}
