package microagg

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// TestRMDMIndexedSame checks that the k-d tree grouping of RMDM gives the scan's partition,
// on continuous, integer (tied) and duplicated data, with random and tied seed distances.
func TestRMDMIndexedSame(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, c := range []struct {
		kind string
		n, d int
	}{{"normal", 500, 2}, {"normal", 3000, 5}, {"ints", 2000, 3}, {"ints", 1200, 5}, {"dups", 900, 4}, {"normal", 10000, 6}, {"normal", 9000, 10}, {"ints", 8500, 12}, {"normal", 8200, 16}} {
		z := make([]float64, c.n*c.d)
		for i := range z {
			switch c.kind {
			case "normal":
				z[i] = r.NormFloat64()
			case "ints":
				z[i] = float64(r.IntN(4))
			case "dups":
				z[i] = float64(r.IntN(3)) * 0.7
				if i >= c.d && r.IntN(2) == 0 {
					z[i] = z[i-c.d]
				}
			}
		}
		for _, mdKind := range []string{"random", "tied", "zero"} {
			md := make([]float64, c.n)
			for i := range md {
				switch mdKind {
				case "random":
					md[i] = r.ExpFloat64()
				case "tied":
					md[i] = float64(r.IntN(6))
				}
			}
			for _, k := range []int{1, 2, 3, 7, 50} {
				name := fmt.Sprintf("%s/n=%d/d=%d/md=%s/k=%d", c.kind, c.n, c.d, mdKind, k)
				scan, err := rmdmGroups(context.Background(), z, c.n, c.d, k, md, nil)
				if err != nil {
					t.Fatal(err)
				}
				tree, err := rmdmGroups(context.Background(), z, c.n, c.d, k, md, mdavindex.NewTree(z, c.n, c.d))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(scan, tree) {
					t.Fatalf("%s: indexed labels differ from the scan", name)
				}
			}
		}
	}
}
