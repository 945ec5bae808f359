package microagg

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// TestSelectNearestMatchesDefinition checks the selecting scan's query for a point (the pass
// over the blocks with a threshold τ, selectNearest, farthestExcluding) against the
// definitions: the k live rows smallest in (distance, position) order, and the farthest live
// row outside them (the largest distance, lowest position on ties). Thresholds τ of −1 (no
// candidate: the fallback to every live row), 0, the k-th distance, quantiles and +Inf;
// integer grids (ties at the k-th and at the largest distance), repeated rows and normal
// values; rows killed at random and in runs; several pass blocks. It fails when the
// fallback is missing or a tie is not taken lowest position first.
func TestSelectNearestMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 30))
	for trial := range 400 {
		d := 1 + r.IntN(8)
		m := 2 + r.IntN(3000)
		z := make([]float64, m*d)
		for i := range z {
			switch trial % 3 {
			case 0:
				z[i] = float64(r.IntN(3))
			case 1:
				z[i] = r.NormFloat64()
			default:
				z[i] = z[(i/d/2)*d+i%d] // rows repeated: distance 0 ties
				if i/d%2 == 0 {
					z[i] = r.NormFloat64()
				}
			}
		}
		k := 1 + r.IntN(max(1, m/3))
		s := newMdavState(z, m, d, k, 1, true)
		s.selectK = true
		for u := range m {
			if r.IntN(4) == 0 || u%97 < 5 {
				s.kill(u)
			}
		}
		if s.alive < k+1 {
			continue
		}
		live := []int{}
		for u := range m {
			if !s.dead[u] {
				live = append(live, u)
			}
		}
		q := live[r.IntN(len(live))]
		for j := range s.pt {
			s.pt[j] = s.rows[mdavindex.LaneOffset(q, j, d)]
		}
		mdavindex.BroadcastQuery(s.qb, s.pt)
		want := make([]float64, len(s.dist))
		mdavindex.DistLanes(want, s.rows, s.qb, d, (m+3)/4)
		slices.SortFunc(live, func(a, b int) int { return cmp.Or(cmp.Compare(want[a], want[b]), cmp.Compare(a, b)) })
		wantG := slices.Clone(live[:k])
		slices.Sort(wantG)
		wantFar, fv := -1, -1.0
		for _, u := range live[k:] {
			if want[u] > fv || want[u] == fv && u < wantFar {
				wantFar, fv = u, want[u]
			}
		}
		for _, tau := range []float64{-1, 0, want[live[k-1]], want[live[len(live)/2]], want[live[min(len(live)-1, 2*k)]], math.Inf(1)} {
			s.tau = tau
			s.pass = passNearest
			s.forBlocks()
			g := slices.Clone(s.selectNearest())
			slices.Sort(g)
			if !slices.Equal(g, wantG) {
				t.Fatalf("trial %d τ %v: group %v, want %v", trial, tau, g, wantG)
			}
			if far := s.farthestExcluding(g); far != wantFar {
				t.Fatalf("trial %d τ %v: farthest %d, want %d", trial, tau, far, wantFar)
			}
		}
	}
}
