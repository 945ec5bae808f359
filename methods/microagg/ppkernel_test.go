package microagg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBinLanesEqualsBinRows: the AVX2 pass of madBelow (binLanesAVX2 over toLanes, the last
// n mod 4 rows by binRows) counts every bin exactly as binRows does, on normal, integer, huge
// and tiny values, with bins that put values below, inside and above the histogram, for 1 to
// 16 columns and n from 1 to 203 (every remainder mod 4).
func TestBinLanesEqualsBinRows(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernel on this build or CPU (purego, another architecture, or a CPU without AVX2)")
	}
	r := rand.New(rand.NewPCG(30, 2))
	for trial := range 600 {
		n, d := 1+r.IntN(203), 1+r.IntN(16)
		z := make([]float64, n*d)
		scale := math.Pow(10, float64(r.IntN(24)-12))
		for i := range z {
			switch trial % 3 {
			case 0:
				z[i] = r.NormFloat64() * scale
			case 1:
				z[i] = float64(r.IntN(7) - 3)
			default:
				z[i] = r.NormFloat64() * 1e290
			}
		}
		a := make([]float64, d)
		for j := range a {
			a[j] = r.NormFloat64()
		}
		direction(a, a, make([]float64, d))
		x := make([]float64, n)
		Project(x, z, nil, a)
		lb := math.Abs(x[r.IntN(n)]-x[r.IntN(n)])/(1+r.Float64()*4) + math.SmallestNonzeroFloat64
		mid := x[r.IntN(n)] + lb*(r.Float64()-0.5)*20
		R := 4 * lb
		base, invw := mid-R, ppBins/(2*R)
		if math.IsInf(base, 0) || math.IsInf(invw, 0) || invw == 0 {
			continue
		}
		want := make([]int32, ppBins+2)
		binRows(want, z, n, d, a, base, invw)
		got := make([]int32, ppBins+2)
		c := madCert{lanes: toLanes(z, n, d)}
		if c.lanes != nil {
			g := n / 4
			binLanesAVX2(&got[0], &c.lanes[0], &a[0], d, g, base, invw, -1, ppBins)
			binRows(got, z[4*g*d:], n-4*g, d, a, base, invw)
		} else {
			binRows(got, z, n, d, a, base, invw)
		}
		if !slices.Equal(got, want) {
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("trial %d n=%d d=%d: bin %d: AVX2 %d, binRows %d", trial, n, d, j, got[j], want[j])
				}
			}
		}
	}
}

// TestToLanes: row 4g+l's column j is at g·4d + 4j + l; the last n mod 4 rows are left out.
func TestToLanes(t *testing.T) {
	for _, tc := range []struct {
		n, d int
		want []float64
	}{
		{3, 2, nil},
		{4, 1, []float64{0, 1, 2, 3}},
		{5, 2, []float64{0, 2, 4, 6, 1, 3, 5, 7}},
		{8, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7}},
	} {
		z := make([]float64, tc.n*tc.d)
		for i := range z {
			z[i] = float64(i)
		}
		if got := toLanes(z, tc.n, tc.d); !slices.Equal(got, tc.want) {
			t.Errorf("toLanes(n=%d, d=%d) = %v, want %v", tc.n, tc.d, got, tc.want)
		}
	}
}
