package radix

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortMatchesStableSort compares Sort with a stable comparison sort on random values with
// many ties, signed zeros, infinities and several sizes, both directions.
func TestSortMatchesStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), 1e-300, -1e300}
	for _, n := range []int{0, 1, 2, 17, 1000, 70000} {
		for _, desc := range []bool{false, true} {
			buf := make([]Keyed, n)
			for i := range buf {
				v := float64(r.IntN(50)) - 25 // ties
				if r.IntN(4) == 0 {
					v = r.NormFloat64()
				}
				if r.IntN(20) == 0 {
					v = special[r.IntN(len(special))]
				}
				buf[i] = Keyed{V: v, I: int32(i)}
			}
			want := slices.Clone(buf)
			slices.SortStableFunc(want, func(a, b Keyed) int {
				if desc {
					return cmp.Compare(b.V, a.V)
				}
				return cmp.Compare(a.V, b.V)
			})
			Sort(buf, desc, make([]Keyed, n), make([]uint64, n), make([]uint64, n))
			for k := range want {
				if buf[k].I != want[k].I {
					t.Fatalf("n=%d desc=%v: position %d has record %d (%g), want %d (%g)",
						n, desc, k, buf[k].I, buf[k].V, want[k].I, want[k].V)
				}
			}
		}
	}
}

func TestKeyOrder(t *testing.T) {
	vals := []float64{math.Inf(-1), -1e300, -1, -1e-300, 0, 1e-300, 1, 1e300, math.Inf(1)}
	for i := 1; i < len(vals); i++ {
		if !(Key(vals[i-1], false) < Key(vals[i], false)) || !(Key(vals[i-1], true) > Key(vals[i], true)) {
			t.Fatalf("Key does not order %g before %g", vals[i-1], vals[i])
		}
	}
	if Key(0, false) != Key(math.Copysign(0, -1), false) {
		t.Fatal("−0 and +0 must have the same key")
	}
}

// TestSelect checks the partition property of Select on values with many ties.
func TestSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 15, 16, 17, 100, 5000} {
		for trial := 0; trial < 20; trial++ {
			a := make([]Keyed, n)
			for i := range a {
				a[i] = Keyed{V: float64(r.IntN(10)), I: int32(i)}
			}
			k := r.IntN(n)
			sorted := slices.Clone(a)
			slices.SortFunc(sorted, func(x, y Keyed) int { return cmp.Compare(x.V, y.V) })
			Select(a, k)
			if a[k].V != sorted[k].V {
				t.Fatalf("n=%d k=%d: a[k] = %g, want the k-th smallest %g", n, k, a[k].V, sorted[k].V)
			}
			for i := range a {
				if (i < k && a[i].V > a[k].V) || (i > k && a[i].V < a[k].V) {
					t.Fatalf("n=%d k=%d: a[%d] = %g on the wrong side of %g", n, k, i, a[i].V, a[k].V)
				}
			}
		}
	}
}
