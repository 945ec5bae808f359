package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// mdavTables returns z-scored-like test tables of n rows and d columns: normal, clustered,
// integer grid (exact distance ties everywhere) and rows repeated three times.
func mdavTables(n, d int, seed uint64) map[string][]float64 {
	r := rand.New(rand.NewPCG(seed, 11))
	norm, grid, clus, dup := make([]float64, n*d), make([]float64, n*d), make([]float64, n*d), make([]float64, n*d)
	cent := make([]float64, 8*d)
	for i := range cent {
		cent[i] = 10 * r.NormFloat64()
	}
	for i := 0; i < n; i++ {
		c := r.IntN(8)
		for j := 0; j < d; j++ {
			norm[i*d+j] = r.NormFloat64()
			grid[i*d+j] = float64(r.IntN(5))
			clus[i*d+j] = cent[c*d+j] + r.NormFloat64()
		}
	}
	for i := 0; i < n; i++ {
		copy(dup[i*d:(i+1)*d], norm[(i/3)*d:(i/3+1)*d])
	}
	return map[string][]float64{"normal": norm, "grid": grid, "clustered": clus, "dup": dup}
}

// TestIndexedMDAVSameLabels checks that the indexed MDAV (pivot list and k-d tree) gives the
// labels of the scan on random, clustered, integer-grid and duplicated data; the sizes up to
// 100,000 rows run with SDCBENCH_LONG=1.
func TestIndexedMDAVSameLabels(t *testing.T) {
	type cs struct{ n, d, k int }
	cases := []cs{{500, 2, 3}, {3000, 10, 3}, {3000, 3, 5}, {10000, 10, 3}, {4000, 5, 60}, {2000, 4, 250}, {3000, 16, 3}, {2000, 1, 3}}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		cases = append(cases, cs{30000, 10, 3}, cs{30000, 5, 4}, cs{100000, 10, 3}, cs{100000, 3, 3})
	}
	for _, c := range cases {
		for name, z := range mdavTables(c.n, c.d, uint64(c.n+c.d)) {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d", name, c.n, c.d, c.k), func(t *testing.T) {
				a, err := mdav(context.Background(), z, c.n, c.d, c.k, 2, false)
				if err != nil {
					t.Fatal(err)
				}
				defer func(o mdavindex.Options) { indexOptions = o }(indexOptions)
				// the coded filters (internal/mdavindex/quant.go) on and off
				for _, cm := range []int{1, math.MaxInt} {
					indexOptions = mdavindex.Options{TreeRebuildMin: 64, CodedMinRows: cm}
					b, err := mdav(context.Background(), z, c.n, c.d, c.k, 2, true)
					if err != nil {
						t.Fatal(err)
					}
					if diff := labelsDiffering(a, b); diff > 0 {
						t.Fatalf("coded from %d rows: %d of %d labels differ", cm, diff, c.n)
					}
				}
			})
		}
	}
}

// labelsDiffering returns the number of positions where the labels a and b differ, or
// len(a)+1 when their lengths differ.
func labelsDiffering(a, b []int32) int {
	if len(a) != len(b) {
		return len(a) + 1
	}
	diff := 0
	for i := range a {
		if a[i] != b[i] {
			diff++
		}
	}
	return diff
}
