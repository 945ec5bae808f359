package dfo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// gridTable returns n×d small integers, so that many distances and move costs tie exactly.
func gridTable(rng *rand.Rand, n, d int) []float64 {
	z := make([]float64, n*d)
	for i := range z {
		z[i] = float64(rng.IntN(7))
	}
	return z
}

// The column index of SBM and BR must not change a move: on tie-rich integer data and on
// tables large enough for many blocks, SBM, hmEvery and BR make the moves they make with the
// index turned off. The indexed Local is reused across tables, including a buffer refilled in
// place.
func TestIndexChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	var l Local
	ref := Local{plain: true}
	buf := make([]float64, 0, 400*4)
	for c := 0; c < 16; c++ {
		n, d, k := 100+rng.IntN(300), 1+rng.IntN(4), 2+rng.IntN(3)
		var z []float64
		if c%2 == 0 {
			z = append(buf[:0], gridTable(rng, n, d)...) // the same backing array every time
		} else {
			z = randomTable(rng, n, d)
		}
		l.Tol = 1e-12 * totalSS(z, n, d)
		ref.Tol = l.Tol
		gmin, gmax := Bounds(n, k)
		G := gmin + rng.IntN(gmax-gmin+1)
		start := RandomStart(n, G, rng)
		for _, lim := range [][2]int{{1, 0}, {k, 0}, {k, 2*k - 1}} {
			a, b := NewPartition(z, n, d, start, G), NewPartition(z, n, d, start, G)
			ma, mb := l.SBM(a, lim[0], lim[1]), ref.SBM(b, lim[0], lim[1])
			if ma != mb || !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("case %d (n=%d d=%d k=%d sizes %v): SBM %d moves, unindexed %d", c, n, d, k, lim, ma, mb)
			}
		}
		for _, fail := range []OnFail{FailRestrict, FailStop} {
			a, b := NewPartition(z, n, d, start, G), NewPartition(z, n, d, start, G)
			ma, mb := l.hmEvery(a, k, fail), ref.hmEvery(b, k, fail)
			if ma != mb || !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("case %d (n=%d d=%d k=%d G=%d %v): hmEvery %d iterations, unindexed %d", c, n, d, k, G, fail, ma, mb)
			}
		}
		for _, minSize := range []int{0, k} {
			a, b := NewPartition(z, n, d, start, G), NewPartition(z, n, d, start, G)
			ma, mb := l.BR(a, minSize, 0), ref.BR(b, minSize, 0)
			if ma != mb || !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("case %d (n=%d d=%d k=%d G=%d minSize %d): BR %d passes, unindexed %d", c, n, d, k, G, minSize, ma, mb)
			}
		}
	}
}
