package perturb

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.RegisterPost(Revmap{})
	methods.RegisterPost(Restrict{})
}

// Revmap is the `revmap` post-processor, reverse mapping (Muralidhar & Sarathy; "M.I." in
// Morais 2022): per column, the records ordered by (y ascending, record index ascending) get
// the original values in ascending order, so the release has exactly X's marginal and Y's
// rank order. Equal to sdcMicro's reverseMap.
type Revmap struct{}

// Name implements methods.PostProcessor.
func (Revmap) Name() string { return "revmap" }

// Description implements methods.PostProcessor.
func (Revmap) Description() string { return "reverse mapping onto the original values" }

// Apply implements methods.PostProcessor.
func (Revmap) Apply(orig, masked *datasets.Dataset, cols []int) (*datasets.Dataset, error) {
	if err := sameShape(orig, masked); err != nil {
		return nil, err
	}
	out := masked.Clone()
	x := make([]float64, orig.N)
	y := make([]float64, orig.N)
	var buf []keyed
	for _, j := range cols {
		for i := range x {
			x[i] = orig.Data[i*orig.P+j]
			y[i] = masked.Data[i*orig.P+j]
		}
		if nx, ny := available(x), available(y); nx != ny {
			return nil, fmt.Errorf("column %q: %d values in the original and %d in the release: revmap needs the same cells missing in both",
				datasets.Clip(orig.Names[j]), nx, ny)
		}
		buf = RevmapColumn(x, y, buf)
		for i, v := range y {
			out.Data[i*out.P+j] = v
		}
	}
	return out, nil
}

// available returns the number of non-NaN values of v.
func available(v []float64) int {
	n := 0
	for _, x := range v {
		if x == x {
			n++
		}
	}
	return n
}

// RevmapColumn overwrites y with the reverse mapping of x onto y's rank order; x is sorted in
// place and buf is scratch (reused when large enough). Missing values (NaN) take no part: the
// available values of x go to y's available cells by rank and y's missing cells stay missing
// (x and y must hold as many available values).
func RevmapColumn(x, y []float64, buf []keyed) []keyed {
	buf = order(y, false, buf, func(v float64) bool { return v == v })
	slices.Sort(x) // NaN first
	x = x[len(x)-len(buf):]
	for r, k := range buf {
		y[k.I] = x[r]
	}
	return buf
}

// Restrict is the `restrict` post-processor ("com restrição" in Morais 2022): a cell whose
// original value is 0 is released as 0 and every other released value as its absolute value,
// so a non-negative variable stays non-negative and its zeros stay exact.
type Restrict struct{}

// Name implements methods.PostProcessor.
func (Restrict) Name() string { return "restrict" }

// Description implements methods.PostProcessor.
func (Restrict) Description() string {
	return "zeros kept and negatives folded (y := 0 where x = 0, else |y|)"
}

// Apply implements methods.PostProcessor.
func (Restrict) Apply(orig, masked *datasets.Dataset, cols []int) (*datasets.Dataset, error) {
	if err := sameShape(orig, masked); err != nil {
		return nil, err
	}
	out := masked.Clone()
	for i := 0; i < orig.N; i++ {
		for _, j := range cols {
			k := i*orig.P + j
			if orig.Data[k] == 0 {
				out.Data[k] = 0
			} else {
				out.Data[k] = math.Abs(out.Data[k])
			}
		}
	}
	return out, nil
}

func sameShape(orig, masked *datasets.Dataset) error {
	if orig.N != masked.N || orig.P != masked.P {
		return fmt.Errorf("original is %d×%d but the release is %d×%d", orig.N, orig.P, masked.N, masked.P)
	}
	return nil
}
