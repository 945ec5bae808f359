package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMDAVOwnedSameLabels checks that MDAV on a table it may overwrite (mdavOwned, the lane
// buffer made in the table's own memory) gives MDAV's labels, and that MDAV leaves its table
// as it was: row counts with a partial last lane group, a table with spare capacity, the
// selecting scan (k ≥ selectMinK), the heaps, and normal, integer-grid (ties) and data with
// ±0, subnormals and huge values.
func TestMDAVOwnedSameLabels(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	for _, c := range []struct{ n, d, k int }{
		{7, 1, 2}, {33, 3, 3}, {401, 5, 7}, {1002, 2, 100}, {2503, 5, 120}, {4000, 7, 1000}, {5001, 17, 150},
	} {
		for _, mode := range []string{"normal", "grid", "special"} {
			t.Run(fmt.Sprintf("n=%d/d=%d/k=%d/%s", c.n, c.d, c.k, mode), func(t *testing.T) {
				z := make([]float64, c.n*c.d, c.n*c.d+r.IntN(9))
				for i := range z {
					switch mode {
					case "grid":
						z[i] = float64(r.IntN(4))
					case "special":
						z[i] = r.NormFloat64()
						if r.IntN(10) == 0 {
							z[i] = []float64{math.Copysign(0, -1), 0, 1e150, -1e150, 5e-324}[r.IntN(5)]
						}
					default:
						z[i] = r.NormFloat64()
					}
				}
				orig := slices.Clone(z)
				want, err := MDAV(context.Background(), z, c.n, c.d, c.k, 1)
				if err != nil {
					t.Fatal(err)
				}
				for i := range z {
					if math.Float64bits(z[i]) != math.Float64bits(orig[i]) {
						t.Fatalf("MDAV changed its table at %d", i)
					}
				}
				own := append(make([]float64, 0, cap(z)), z...)
				got, err := mdavOwned(context.Background(), own, c.n, c.d, c.k, 1)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("mdavOwned's labels differ from MDAV's")
				}
			})
		}
	}
}
