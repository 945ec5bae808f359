package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// TestSelectMDAVSameLabels checks that the scan MDAV with the k nearest selected from all
// live distances (selectNearest, large k) gives the labels of the scan with per-block heaps,
// the implementation before it, on random, clustered, integer-grid (exact distance ties
// everywhere) and duplicated data, with k from 1 to larger than a pass block and 1 and 2
// workers (the selecting scan's passes split over the workers from selectParallelRows rows,
// lowered here to parallelRows); SDCBENCH_LONG=1 adds 100,000 rows.
func TestSelectMDAVSameLabels(t *testing.T) {
	defer func(r int) { selectParallelRows = r }(selectParallelRows)
	selectParallelRows = parallelRows
	type cs struct{ n, d, k int }
	cases := []cs{{7, 2, 1}, {50, 2, 3}, {500, 2, 3}, {3000, 10, 3}, {3000, 3, 17}, {4000, 5, 60},
		{2000, 4, 250}, {5000, 5, 1000}, {9000, 2, 1500}, {3000, 16, 100}, {2000, 1, 64}, {2500, 3, 800},
		{20000, 5, 100}, {12000, 2, 300}}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		cases = append(cases, cs{100000, 5, 1000}, cs{100000, 10, 200})
	}
	for _, c := range cases {
		for name, z := range mdavtest.Tables(c.n, c.d, uint64(c.n+c.d+c.k)) {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d", name, c.n, c.d, c.k), func(t *testing.T) {
				for _, workers := range []int{1, 2} {
					a, err := mdavWith(context.Background(), z, c.n, c.d, c.k, workers, false, false, false)
					if err != nil {
						t.Fatal(err)
					}
					b, err := mdavWith(context.Background(), z, c.n, c.d, c.k, workers, false, true, false)
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

// TestCanonicalMatchesMap compares Canonical, and canonicalize in place, with its definition, a map from each label to
// the number of labels seen before it, on random labels: small (as MDAV's), negative, and
// larger than the number of records.
func TestCanonicalMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(300)
		labels := make([]int32, n)
		span := int32(1 + r.IntN(2*n+2))
		for i := range labels {
			labels[i] = r.Int32N(span) - int32(r.IntN(2))*r.Int32N(3)
			if r.IntN(20) == 0 {
				labels[i] = math.MaxInt32 - r.Int32N(3)
			}
		}
		want := make([]int32, n)
		m := map[int32]int32{}
		for i, l := range labels {
			if l < 0 {
				want[i] = l
				continue
			}
			c, ok := m[l]
			if !ok {
				c = int32(len(m))
				m[l] = c
			}
			want[i] = c
		}
		if got := Canonical(labels); !slices.Equal(got, want) {
			t.Fatalf("trial %d: Canonical(%v) = %v, want %v", trial, labels, got, want)
		}
		if got := slices.Clone(labels); !slices.Equal(canonicalize(got, got), want) {
			t.Fatalf("trial %d: canonicalize in place of %v = %v, want %v", trial, labels, got, want)
		}
	}
}
