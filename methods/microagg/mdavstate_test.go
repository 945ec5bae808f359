package microagg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockSumsMatchRowLoop checks the block sums of MDAV's centroid (sumBlock, sumOctet, as
// resum and centroid use them) bit for bit against their definition, each column's live
// values added in ascending row order to 0, skipping the dead rows (the loop before the
// dead rows were stored as −0 and summed). Tables of 1 to 17 columns, row counts around the
// sum and pass block sizes, values with −0, +0, subnormals, huge magnitudes, infinities and
// NaN, and dead rows killed at random, in runs (as MDAV's groups die), and all of a block.
func TestBlockSumsMatchRowLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 5))
	special := []float64{math.Copysign(0, -1), 0, 5e-324, -5e-324, 1e308, -1e308, math.Inf(1),
		math.Inf(-1), math.NaN(), 1, -1}
	for _, d := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17} {
		for _, n := range []int{1, 3, 63, 64, 65, 127, 128, 129, 200, 511, 512, 513, 1024, 1111, 5000} {
			for _, mode := range []string{"random", "runs", "block", "special"} {
				t.Run(fmt.Sprintf("d=%d/n=%d/%s", d, n, mode), func(t *testing.T) {
					z := make([]float64, n*d)
					for i := range z {
						z[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
						if mode == "special" && r.IntN(3) == 0 {
							z[i] = special[r.IntN(len(special))]
						}
					}
					s := newMdavState(z, n, d, 1, 1, true)
					check := func(when string) {
						t.Helper()
						for b := 0; b < (s.m+sumRows-1)/sumRows; b++ {
							for j := range d {
								want := 0.0
								for u := b * sumRows; u < min((b+1)*sumRows, s.m); u++ {
									if !s.dead[u] {
										want += z[int(s.act[u])*d+j]
									}
								}
								got := s.bsum[b*d+j]
								if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
									t.Fatalf("%s: block %d column %d: sum %v (%#x), want %v (%#x)", when, b, j, got, math.Float64bits(got), want, math.Float64bits(want))
								}
							}
						}
					}
					check("new")
					for round := 0; round < 3 && s.alive > 0; round++ {
						switch mode {
						case "runs":
							start := r.IntN(s.m)
							for u := start; u < min(s.m, start+1+r.IntN(150)); u++ {
								if !s.dead[u] {
									s.kill(u)
								}
							}
						case "block":
							b := r.IntN((s.m + sumRows - 1) / sumRows)
							for u := b * sumRows; u < min((b+1)*sumRows, s.m); u++ {
								if !s.dead[u] {
									s.kill(u)
								}
							}
						default:
							for u := range s.m {
								if !s.dead[u] && r.IntN(4) == 0 {
									s.kill(u)
								}
							}
						}
						if s.alive > 0 {
							s.centroid()
							check(fmt.Sprintf("round %d, centroid", round))
						}
						s.maintain()
						s.centroid()
						check(fmt.Sprintf("round %d, after maintain", round))
					}
				})
			}
		}
	}
}

// TestKthValueMatchesSort checks kthValue against the sorted slice on random values, values
// with many ties (few distinct values, all equal), ±0, infinities, sorted and reversed input,
// for every rank of small slices and random ranks of large ones.
func TestKthValueMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(40)
		if trial%4 == 0 {
			n = 1 + r.IntN(5000)
		}
		x := make([]float64, n)
		for i := range x {
			switch trial % 5 {
			case 0:
				x[i] = r.NormFloat64()
			case 1:
				x[i] = float64(r.IntN(3))
			case 2:
				x[i] = 7
			case 3:
				x[i] = []float64{math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1}[r.IntN(5)]
			default:
				x[i] = float64(i)
			}
		}
		if trial%10 == 9 {
			slices.Reverse(x)
		}
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		ranks := []int{0, n - 1, n / 2, r.IntN(n)}
		if n <= 40 {
			ranks = ranks[:0]
			for k := range n {
				ranks = append(ranks, k)
			}
		}
		for _, k := range ranks {
			y := slices.Clone(x)
			if got, want := kthValue(y, k), sorted[k]; got != want {
				t.Fatalf("trial %d, n = %d: kthValue(k = %d) = %v, want %v", trial, n, k, got, want)
			}
			if got, want := selectKth(slices.Clone(x), k), sorted[k]; got != want {
				t.Fatalf("trial %d: selectKth(k = %d) = %v, want %v", trial, k, got, want)
			}
		}
	}
}
