package microagg

import (
	"context"
	"fmt"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// BenchmarkMDAVIndexed compares the scan MDAV with the indexed one (pivot list and k-d tree) on 50,000 normal rows, one worker, k = 3 (docs/scaling.md). The partitions are
// identical (TestIndexedMDAVSameLabels).
func BenchmarkMDAVIndexed(b *testing.B) {
	const n = 50000
	for _, d := range []int{3, 10} {
		z := mdavtest.Tables(n, d, 1)["normal"]
		for _, mode := range []string{"scan", "indexed"} {
			b.Run(fmt.Sprintf("d=%d/%s", d, mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := mdav(context.Background(), z, n, d, 3, 1, mode == "indexed"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
