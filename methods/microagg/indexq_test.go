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

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

func TestNearTieTableHasSqrtTies(t *testing.T) {
	z := mdavtest.NearTieTable(200, 3, 1)
	roots := map[float64]float64{} // √s → one s
	for i := 0; i < 200; i++ {
		for j := i + 1; j < 200; j++ {
			s := distance.Sq(z[i*3:i*3+3], z[j*3:j*3+3])
			if o, ok := roots[math.Sqrt(s)]; ok && o != s {
				return
			}
			roots[math.Sqrt(s)] = s
		}
	}
	t.Fatal("no two distinct squared distances share a square root")
}

func TestSqrtTies(t *testing.T) {
	for _, s := range []float64{0, 1, 2, 4.5, 1e-300, 5e-324, 1e300, math.MaxFloat64, math.Inf(1)} {
		hi := sqrtTies(s)
		if hi < s || math.Sqrt(hi) != math.Sqrt(s) {
			t.Fatalf("sqrtTies(%g) = %g: not a tie", s, hi)
		}
		if nx := math.Nextafter(hi, math.Inf(1)); !math.IsInf(nx, 1) && math.Sqrt(nx) == math.Sqrt(s) {
			t.Fatalf("sqrtTies(%g) = %g: %g ties too", s, hi, nx)
		}
	}
	if sqrtTies(4) == 4 { // √4 = 2 exactly, and 4 + ulp rounds to 2 as well
		t.Fatal("sqrtTies(4) should extend past 4")
	}
}

type idxCase struct{ n, d, k int }

func idxCases(long ...idxCase) []idxCase {
	cases := []idxCase{{600, 2, 3}, {2000, 3, 3}, {2000, 10, 4}, {1500, 5, 10}}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		cases = append(cases, long...)
	}
	return cases
}

// sameLabels runs f with indexed false and true (tree rebuilds at small sizes) and compares.
func sameLabels(t *testing.T, n int, f func(indexed bool) ([]int32, error)) {
	t.Helper()
	a, err := f(false)
	if err != nil {
		t.Fatal(err)
	}
	defer func(o mdavindex.Options, w int) { indexOptions, argminRows = o, w }(indexOptions, argminRows)
	indexOptions, argminRows = mdavindex.Options{TreeRebuildMin: 64, CodedMinRows: 1}, 64
	b, err := f(true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := labelsDiffering(a, b); diff > 0 {
		t.Fatalf("%d of %d labels differ", diff, n)
	}
}

// TestIndexedCBFSSameLabels checks that the indexed CBFS gives the scan's labels, both
// centroids.
func TestIndexedCBFSSameLabels(t *testing.T) {
	ctx := context.Background()
	for _, c := range idxCases(idxCase{30000, 10, 3}, idxCase{30000, 3, 5}) {
		for name, z := range mdavtest.IndexTables(c.n, c.d, uint64(c.n+c.d)) {
			for _, global := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d/global=%v", name, c.n, c.d, c.k, global), func(t *testing.T) {
					sameLabels(t, c.n, func(ix bool) ([]int32, error) { return cbfs(ctx, z, c.n, c.d, c.k, global, ix) })
				})
			}
		}
	}
}

// TestIndexedVMDAVSameLabels checks that the indexed VMDAV gives the scan's labels, both
// centroids and several gain factors (0.2 scattered, 1.1 clustered, 3 extends nearly always).
func TestIndexedVMDAVSameLabels(t *testing.T) {
	ctx := context.Background()
	for _, c := range idxCases(idxCase{30000, 10, 3}, idxCase{30000, 3, 5}) {
		for name, z := range mdavtest.IndexTables(c.n, c.d, uint64(c.n+c.d)) {
			for _, global := range []bool{true, false} {
				for _, gamma := range []float64{0.2, 1.1, 3} {
					t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d/global=%v/gamma=%g", name, c.n, c.d, c.k, global, gamma), func(t *testing.T) {
						sameLabels(t, c.n, func(ix bool) ([]int32, error) {
							return vmdav(ctx, z, c.n, c.d, c.k, gamma, global, ix)
						})
					})
				}
			}
		}
	}
}

// TestIndexedGSMSSameLabels checks that GSMS with tree-built neighbour lists gives the
// scan's labels.
func TestIndexedGSMSSameLabels(t *testing.T) {
	ctx := context.Background()
	for _, c := range idxCases(idxCase{20000, 10, 3}, idxCase{20000, 3, 5}) {
		for name, z := range mdavtest.IndexTables(c.n, c.d, uint64(c.n+c.d)) {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/k=%d", name, c.n, c.d, c.k), func(t *testing.T) {
				sameLabels(t, c.n, func(ix bool) ([]int32, error) { return gsms(ctx, z, c.n, c.d, c.k, 2, ix) })
			})
		}
	}
}

// TestLiveRowsMean checks that the −0-padded buffer gives activeSet.mean bit for bit while
// records are deleted, on tables with signed zeros and values of mixed magnitude.
func TestLiveRowsMean(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, d := range []int{1, 2, 3, 4, 5, 7, 10} {
		const n = 500
		z := make([]float64, n*d)
		for i := range z {
			switch r.IntN(4) {
			case 0:
				z[i] = math.Copysign(0, -1)
			case 1:
				z[i] = r.NormFloat64() * 1e8
			default:
				z[i] = r.NormFloat64()
			}
		}
		R := newActiveSet(z, n, d)
		l := newLiveRows(z, n, d)
		want, got := make([]float64, d), make([]float64, d)
		for _, i := range r.Perm(n)[:n-1] {
			l.kill(i)
			R.remove([]int{slices.Index(R.idx, i)})
			R.mean(want)
			l.mean(got)
			for j := range want {
				if math.Float64bits(want[j]) != math.Float64bits(got[j]) {
					t.Fatalf("d=%d, %d live: column %d: %v, want %v", d, l.alive, j, got[j], want[j])
				}
			}
			if !slices.Equal(l.records(), R.idx) {
				t.Fatalf("d=%d: records %v, want %v", d, l.records(), R.idx)
			}
		}
	}
}
