package mdavindex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDistLanes checks both kernels against the scalar definition, bit for bit, for every
// column count and group count up to the unrolled widths.
func TestDistLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := 1; d <= 13; d++ {
		for groups := 0; groups <= 9; groups++ {
			n := 4 * groups
			rows := make([]float64, n*d) // row-major
			for i := range rows {
				rows[i] = rng.NormFloat64() * math.Exp(rng.NormFloat64())
			}
			q := make([]float64, d)
			for j := range q {
				q[j] = rng.NormFloat64()
			}
			lanes := make([]float64, n*d)
			for i := 0; i < n; i++ {
				for j := 0; j < d; j++ {
					lanes[LaneOffset(i, j, d)] = rows[i*d+j]
				}
			}
			qb := make([]float64, 4*d)
			BroadcastQuery(qb, q)
			got := make([]float64, n)
			goGot := make([]float64, n)
			DistLanes(got, lanes, qb, d, groups)
			distLanesGo(goGot, lanes, qb, d, groups)
			for i := 0; i < n; i++ {
				want := sqDist(rows[i*d:(i+1)*d], q)
				if math.Float64bits(got[i]) != math.Float64bits(want) || math.Float64bits(goGot[i]) != math.Float64bits(want) {
					t.Fatalf("d=%d groups=%d row %d: kernel %v, portable %v, scalar %v", d, groups, i, got[i], goGot[i], want)
				}
			}
		}
	}
	t.Logf("AVX2 kernel in use: %v", useAVX2)
}

// sqDist is the scalar definition the kernels must match: it returns Σ_j (a_j − b_j)², accumulated in column order without FMA.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	j := 0
	for ; j+4 <= len(a); j += 4 {
		t0 := a[j] - b[j]
		t1 := a[j+1] - b[j+1]
		t2 := a[j+2] - b[j+2]
		t3 := a[j+3] - b[j+3]
		s += float64(t0 * t0)
		s += float64(t1 * t1)
		s += float64(t2 * t2)
		s += float64(t3 * t3)
	}
	for ; j < len(a); j++ {
		t := a[j] - b[j]
		s += float64(t * t)
	}
	return s
}
