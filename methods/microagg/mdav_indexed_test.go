package microagg

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

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
		for name, z := range mdavtest.Tables(c.n, c.d, uint64(c.n+c.d)) {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d", name, c.n, c.d, c.k), func(t *testing.T) {
				a, err := mdav(context.Background(), z, c.n, c.d, c.k, 2, false)
				if err != nil {
					t.Fatal(err)
				}
				defer func(o mdavindex.Options) { indexOptions = o }(indexOptions)
				// the coded filters (internal/mdavindex/quant.go) on and off, one and two
				// workers
				for _, cm := range []int{1, math.MaxInt} {
					for _, w := range []int{1, 2} {
						indexOptions = mdavindex.Options{TreeRebuildMin: 64, CodedMinRows: cm}
						b, err := mdav(context.Background(), z, c.n, c.d, c.k, w, true)
						if err != nil {
							t.Fatal(err)
						}
						if diff := labelsDiffering(a, b); diff > 0 {
							t.Fatalf("coded from %d rows, %d workers: %d of %d labels differ", cm, w, diff, c.n)
						}
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
