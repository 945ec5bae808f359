package microagg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// TestScanBlockMatchesPasses checks the fused pass (scanBlock, the AVX2 kernel where there is
// one) against its definition, the passes it replaced: the distances of distBlock with NaN for
// the dead rows (maskDead), the farthest live row by a strict > from −1 in position order, and
// the live rows whose distance is ≤ τ. Tables of 1 to 17 columns, blocks of 1 to 1,024 rows
// (so a partial last lane group), values with ties (integer grids), ±0, huge magnitudes,
// infinities and NaN (distances +Inf and NaN), dead rows at random and all dead, thresholds
// −Inf, 0, a quantile, +Inf and NaN.
func TestScanBlockMatchesPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	for trial := 0; trial < 600; trial++ {
		d := 1 + r.IntN(17)
		m := 1 + r.IntN(1100)
		mode := trial % 5
		z := make([]float64, m*d)
		for i := range z {
			switch mode {
			case 1:
				z[i] = float64(r.IntN(3))
			case 2:
				z[i] = []float64{math.Copysign(0, -1), 0, 1e200, -1e200, math.Inf(1), math.NaN(), 2}[r.IntN(7)]
			default:
				z[i] = r.NormFloat64()
			}
		}
		s := newMdavState(z, m, d, 1000, 1, true)
		deadRate := []int{0, 2, 8, 1000}[r.IntN(4)]
		for u := range m {
			if deadRate == 1000 || deadRate > 0 && r.IntN(deadRate) == 0 {
				s.kill(u)
			}
		}
		q := make([]float64, d)
		for j := range q {
			q[j] = z[r.IntN(m)*d+j]
			if mode == 3 {
				q[j] = r.NormFloat64()
			}
		}
		copy(s.pt, q)
		mdavindex.BroadcastQuery(s.qb, q)
		want := make([]float64, len(s.dist))
		mdavindex.DistLanes(want, s.rows, s.qb, d, (m+3)/4)
		tau := []float64{math.Inf(-1), 0, want[r.IntN(m)], math.Inf(1), math.NaN()}[r.IntN(5)]
		nb := (m + blockRows - 1) / blockRows
		for b := range nb {
			lo, hi := b*blockRows, min(m, (b+1)*blockRows)
			s.scanBlock(b, lo, hi, tau)
			best, bi := -1.0, -1
			for u := lo; u < hi; u++ {
				v := want[u]
				if s.dead[u] {
					v = math.NaN()
				}
				name := fmt.Sprintf("trial %d (d = %d, m = %d, mode %d), row %d", trial, d, m, mode, u)
				if got := s.dist[u]; math.Float64bits(got) != math.Float64bits(v) {
					t.Fatalf("%s: distance %v (%#x), want %v (%#x)", name, got, math.Float64bits(got), v, math.Float64bits(v))
				}
				if v > best {
					best, bi = v, u
				}
				in := s.cbits[u/64]>>(u%64)&1 == 1
				if in != (v <= tau) {
					t.Fatalf("%s: within τ = %v: %v, distance %v", name, tau, in, v)
				}
			}
			for u := hi; u < lo+blockRows && u < (m+63)/64*64; u++ {
				if s.cbits[u/64]>>(u%64)&1 == 1 {
					t.Fatalf("trial %d: bit of row %d past the block's end (%d) set", trial, u, hi)
				}
			}
			if s.blockArg[b] != bi {
				t.Fatalf("trial %d (d = %d, m = %d, mode %d), block %d: farthest %d, want %d", trial, d, m, mode, b, s.blockArg[b], bi)
			}
		}
	}
}
