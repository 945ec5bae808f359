package magga

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/kdtree"
)

// TestLinkQueryBruteForce compares dldHits' tree test with the linear scan it replaces, on
// random tables with repeated rows and coarse values (many exact ties), random labels and
// query points taken from the table, from centroids and at random.
func TestLinkQueryBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4))
	for trial := range 200 {
		n, d := 2+rng.IntN(300), 1+rng.IntN(5)
		z := make([]float64, n*d)
		for i := range z {
			z[i] = float64(rng.IntN(4)) // coarse grid: many ties
			if trial%2 == 1 {
				z[i] = rng.NormFloat64()
			}
		}
		for i := 1; i < n; i++ { // repeated rows
			if rng.IntN(5) == 0 {
				src := rng.IntN(i)
				copy(z[i*d:(i+1)*d], z[src*d:(src+1)*d])
			}
		}
		G := 1 + rng.IntN(n)
		labels := make([]int32, n)
		for i := range labels {
			labels[i] = int32(rng.IntN(G))
		}
		lq := newLinkQuery(kdtree.New(z, n, d))
		q := make([]float64, d)
		for range 20 {
			switch rng.IntN(3) {
			case 0:
				i := rng.IntN(n)
				copy(q, z[i*d:(i+1)*d])
			case 1:
				for l := range q {
					q[l] = float64(rng.IntN(4)) / 2
				}
			default:
				for l := range q {
					q[l] = rng.NormFloat64()
				}
			}
			g := labels[rng.IntN(n)]
			b, jb := 0.0, int32(-1)
			for i, lab := range labels {
				if s := distance.Sq(q, z[i*d:(i+1)*d]); lab == g && (jb < 0 || s < b) {
					b, jb = s, int32(i)
				}
			}
			// brute force: the nearest record (lowest index on ties) has label g
			best, bi := 0.0, -1
			for i := range n {
				if s := distance.Sq(q, z[i*d:(i+1)*d]); bi < 0 || s < best {
					best, bi = s, i
				}
			}
			want := labels[bi] == g
			if got := lq.linked(q, b, jb, g, labels); got != want {
				t.Fatalf("trial %d (n=%d d=%d): linked = %v, brute force %v", trial, n, d, got, want)
			}
		}
	}
}
