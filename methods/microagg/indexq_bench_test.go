package microagg

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// BenchmarkIndexedMethods compares the scan and the indexed paths of CBFS, VMDAV (both
// centroids, γ = 0.2) and GSMS on normal rows, one worker, k = 3 (docs/scaling.md): 50,000
// rows, or SDCBENCH_SCALE_N. The partitions are identical (indexq_test.go).
func BenchmarkIndexedMethods(b *testing.B) {
	n := 50000
	if v, err := strconv.Atoi(os.Getenv("SDCBENCH_SCALE_N")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	type run func(z []float64, d int, indexed bool) ([]int32, error)
	methods := []struct {
		name string
		f    run
	}{
		{"cbfs-global", func(z []float64, d int, ix bool) ([]int32, error) { return cbfs(ctx, z, n, d, 3, true, ix) }},
		{"cbfs-remaining", func(z []float64, d int, ix bool) ([]int32, error) { return cbfs(ctx, z, n, d, 3, false, ix) }},
		{"vmdav-global", func(z []float64, d int, ix bool) ([]int32, error) { return vmdav(ctx, z, n, d, 3, 0.2, true, ix) }},
		{"vmdav-remaining", func(z []float64, d int, ix bool) ([]int32, error) { return vmdav(ctx, z, n, d, 3, 0.2, false, ix) }},
		{"gsms", func(z []float64, d int, ix bool) ([]int32, error) { return gsms(ctx, z, n, d, 3, 1, ix) }},
	}
	for _, d := range []int{3, 10} {
		z := mdavtest.Tables(n, d, 1)["normal"]
		for _, m := range methods {
			for _, mode := range []string{"scan", "indexed"} {
				b.Run(fmt.Sprintf("%s/d=%d/%s", m.name, d, mode), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := m.f(z, d, mode == "indexed"); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
