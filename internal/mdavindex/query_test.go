package mdavindex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// TestLowestWithin compares the tree's radius query and its bounded nearest query with scans
// over the live records.
func TestLowestWithin(t *testing.T) {
	const n, d = 3000, 3
	for name, z := range mdavtest.IndexTables(n, d, 5) {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 7))
			ix := New(z, n, d, Options{})
			var qs Query
			for it := 0; it < 300; it++ {
				ix.Delete(r.IntN(n)) // repeated deletes are no-ops of the tree
				q := z[r.IntN(n)*d:][:d]
				r2 := []float64{0, 0.5, 2, 1e-300}[it%4]
				want := -1
				for i := 0; i < n; i++ {
					if !ix.dead[i] && distance.Sq(z[i*d:(i+1)*d], q) <= r2 {
						want = i
						break
					}
				}
				if got := ix.Tree().LowestWithin(&qs, q, r2); got != want {
					t.Fatalf("query %d: got %d, want %d", it, got, want)
				}
				// nearestBelow: the smallest distance below the bound, or a miss
				below := []float64{math.Inf(1), 0.3, 1e-300, 0}[it%4]
				wantD := below
				for i := 0; i < n; i++ {
					if s := distance.Sq(z[i*d:(i+1)*d], q); !ix.dead[i] && s < wantD {
						wantD = s
					}
				}
				u, s := ix.Tree().NearestBelow(&qs, q, below)
				if s != wantD || (u < 0) != (wantD == below) || (u >= 0 && (ix.dead[u] || distance.Sq(z[u*d:(u+1)*d], q) != s)) {
					t.Fatalf("query %d: nearestBelow(%g) = (%d, %g), want distance %g", it, below, u, s, wantD)
				}
			}
		})
	}
}
