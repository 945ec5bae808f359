package kdtree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// tables returns test tables: continuous, clustered, integer grid (many exact ties) and
// duplicated rows.
func tables(n, d int, seed uint64) map[string][]float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := map[string][]float64{}
	norm, grid, clus, dup := make([]float64, n*d), make([]float64, n*d), make([]float64, n*d), make([]float64, n*d)
	for i := range norm {
		norm[i] = r.NormFloat64()
		grid[i] = float64(r.IntN(4))
		clus[i] = float64(10*r.IntN(3)) + 0.1*r.NormFloat64()
	}
	for i := 0; i < n; i++ {
		copy(dup[i*d:(i+1)*d], norm[(i/3)*d:(i/3+1)*d])
	}
	out["normal"], out["grid"], out["clustered"], out["dup"] = norm, grid, clus, dup
	return out
}

func scanNearest(z []float64, n, d int, q []float64) (int, float64) {
	best, bi := math.Inf(1), -1
	for i := 0; i < n; i++ {
		if s := distance.Sq(z[i*d:(i+1)*d], q); s < best {
			best, bi = s, i
		}
	}
	return bi, best
}

// TestNearestMatchesScan checks Nearest against a linear scan (first minimum wins), on
// queries from the table itself and from a perturbed copy.
func TestNearestMatchesScan(t *testing.T) {
	for _, d := range []int{1, 3, 8} {
		n := 700
		for name, z := range tables(n, d, uint64(d)) {
			t.Run(fmt.Sprintf("%s/d=%d", name, d), func(t *testing.T) {
				tr := New(z, n, d)
				r := rand.New(rand.NewPCG(9, uint64(d)))
				for i := 0; i < n; i++ {
					q := slices.Clone(z[i*d : (i+1)*d])
					if i%2 == 1 {
						for l := range q {
							q[l] += 0.3 * r.NormFloat64()
						}
					}
					gi, gs := tr.Nearest(q)
					wi, ws := scanNearest(z, n, d, q)
					if gi != wi || gs != ws {
						t.Fatalf("query %d: got (%d, %v), want (%d, %v)", i, gi, gs, wi, ws)
					}
				}
			})
		}
	}
}

// TestWithinMatchesScan checks that Within reports exactly the rows with distance ≤ r², with
// their distances, and that stopping early stops.
func TestWithinMatchesScan(t *testing.T) {
	for _, d := range []int{2, 5} {
		n := 500
		for name, z := range tables(n, d, 7) {
			tr := New(z, n, d)
			for i := 0; i < n; i += 7 {
				q := z[i*d : (i+1)*d]
				r2 := distance.Sq(z[((i*13)%n)*d:((i*13)%n+1)*d], q)
				var got, want []int32
				tr.Within(q, r2, func(row int32, s float64) bool {
					if s != distance.Sq(z[int(row)*d:(int(row)+1)*d], q) {
						t.Fatalf("%s: wrong distance", name)
					}
					got = append(got, row)
					return false
				})
				for j := 0; j < n; j++ {
					if distance.Sq(z[j*d:(j+1)*d], q) <= r2 {
						want = append(want, int32(j))
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s d=%d query %d: %d rows, want %d", name, d, i, len(got), len(want))
				}
				calls := 0
				tr.Within(q, r2, func(int32, float64) bool { calls++; return true })
				if len(want) > 0 && calls != 1 {
					t.Fatalf("stop ignored: %d calls", calls)
				}
			}
		}
	}
}

func TestEmpty(t *testing.T) {
	tr := New(nil, 0, 3)
	if i, s := tr.Nearest([]float64{1, 2, 3}); i != -1 || !math.IsInf(s, 1) {
		t.Errorf("empty: %d %v", i, s)
	}
}

// TestNearestFromSameAnswer checks that seeding the search with any candidate row gives
// Nearest's answer.
func TestNearestFromSameAnswer(t *testing.T) {
	const n, d = 600, 6
	for name, z := range tables(n, d, 8) {
		tr := New(z, n, d)
		s := tr.NewSearcher()
		for i := 0; i < n; i++ {
			q := z[i*d : (i+1)*d]
			wi, ws := tr.Nearest(q)
			for _, h := range []int{i, (i * 7) % n, n - 1 - i} {
				gi, gs := s.NearestFrom(q, h, distance.Sq(z[h*d:(h+1)*d], q))
				if gi != wi || gs != ws {
					t.Fatalf("%s query %d hint %d: got (%d, %v), want (%d, %v)", name, i, h, gi, gs, wi, ws)
				}
			}
		}
	}
}
