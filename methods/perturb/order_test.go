package perturb

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixOrder checks the radix sort against the comparison sort on data with ties,
// negative values, ±0 and huge magnitudes, both directions.
func TestRadixOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := radixMin + 1234
	v := make([]float64, n)
	for i := range v {
		switch rng.IntN(6) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		case 2:
			v[i] = float64(rng.IntN(50) - 25)
		case 3:
			v[i] = rng.NormFloat64() * 1e300
		default:
			v[i] = rng.NormFloat64()
		}
	}
	for _, desc := range []bool{false, true} {
		got := order(v, desc, nil, nil)
		want := make([]keyed, n)
		for i, x := range v {
			want[i] = keyed{V: x, I: int32(i)}
		}
		slices.SortFunc(want, func(a, b keyed) int {
			c := cmp.Compare(a.V, b.V)
			if desc {
				c = -c
			}
			if c != 0 {
				return c
			}
			return cmp.Compare(a.I, b.I)
		})
		for k := range want {
			if got[k].I != want[k].I {
				t.Fatalf("desc=%v: position %d has record %d (%g), want %d (%g)", desc, k, got[k].I, got[k].V, want[k].I, want[k].V)
			}
		}
	}
}
