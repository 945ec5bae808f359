package microagg

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// TestSelectMDAVSameLabels checks that the scan MDAV with the k nearest selected from all
// live distances (selectNearest, large k) gives the labels of the scan with per-block heaps,
// the implementation before it, on random, clustered, integer-grid (exact distance ties
// everywhere) and duplicated data, with k from 1 to larger than a pass block and 1 and 2
// workers; SDCBENCH_LONG=1 adds 100,000 rows.
func TestSelectMDAVSameLabels(t *testing.T) {
	type cs struct{ n, d, k int }
	cases := []cs{{7, 2, 1}, {50, 2, 3}, {500, 2, 3}, {3000, 10, 3}, {3000, 3, 17}, {4000, 5, 60},
		{2000, 4, 250}, {5000, 5, 1000}, {9000, 2, 1500}, {3000, 16, 100}, {2000, 1, 64}, {2500, 3, 800}}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		cases = append(cases, cs{100000, 5, 1000}, cs{100000, 10, 200})
	}
	for _, c := range cases {
		for name, z := range mdavtest.Tables(c.n, c.d, uint64(c.n+c.d+c.k)) {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d", name, c.n, c.d, c.k), func(t *testing.T) {
				for _, workers := range []int{1, 2} {
					a, err := mdavWith(context.Background(), z, c.n, c.d, c.k, workers, false, false)
					if err != nil {
						t.Fatal(err)
					}
					b, err := mdavWith(context.Background(), z, c.n, c.d, c.k, workers, false, true)
					if err != nil {
						t.Fatal(err)
					}
					if diff := labelsDiffering(a, b); diff > 0 {
						t.Fatalf("workers=%d: %d of %d labels differ", workers, diff, c.n)
					}
				}
			})
		}
	}
}
