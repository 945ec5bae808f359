package mdavindex

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// TestLaneTreeKNearest deletes rows at random and checks Tree.nearest against sorting the live
// rows by (distance, row), on tables with and without ties.
func TestLaneTreeKNearest(t *testing.T) {
	const n, d = 800, 4
	for name, z := range mdavtest.Tables(n, d, 3) {
		tr := NewTree(z, n, d)
		var qs Query
		live := make([]bool, n)
		for i := range live {
			live[i] = true
		}
		r := rand.New(rand.NewPCG(4, 4))
		for step := 0; step < 300; step++ {
			i := r.IntN(n)
			tr.Delete(i)
			live[i] = false
			q := z[r.IntN(n)*d:][:d]
			for _, k := range []int{1, 3, 7} {
				got := tr.Nearest(&qs, nil, q, k)
				var want []int
				for j := 0; j < n; j++ {
					if live[j] {
						want = append(want, j)
					}
				}
				slices.SortFunc(want, func(a, b int) int {
					da, db := distance.Sq(z[a*d:(a+1)*d], q), distance.Sq(z[b*d:(b+1)*d], q)
					switch {
					case da < db:
						return -1
					case da > db:
						return 1
					}
					return a - b
				})
				want = want[:min(k, len(want))]
				if !slices.Equal(got, want) {
					t.Fatalf("%s step %d k=%d: got %v, want %v", name, step, k, got, want)
				}
			}
		}
	}
}
