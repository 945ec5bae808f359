package microagg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// aggregateRef is Aggregate as it was written before its loops were resliced (the
// reference of TestAggregateMatchesReference): the group sums by d.Row and the release
// rows by copy.
func aggregateRef(d *datasets.Dataset, labels []int32) []float64 {
	G := 0
	for _, l := range labels {
		G = max(G, int(l)+1)
	}
	p := d.P
	sum := make([]float64, G*p)
	cnt := make([]int, G)
	for i, l := range labels {
		cnt[l]++
		s := sum[int(l)*p : (int(l)+1)*p]
		for j, v := range d.Row(i) {
			s[j] += v
		}
	}
	overflow := false
	for g := 0; g < G; g++ {
		for j := 0; j < p; j++ {
			sum[g*p+j] /= float64(cnt[g])
			overflow = overflow || math.IsInf(sum[g*p+j], 0)
		}
	}
	if overflow {
		rescaledMeans(d, labels, sum, cnt)
	}
	out := make([]float64, d.N*p)
	for i, l := range labels {
		copy(out[i*p:(i+1)*p], sum[int(l)*p:(int(l)+1)*p])
	}
	return out
}

// TestAggregateMatchesReference compares the release of aggregateInto, into a new table
// and into a reused one, bit for bit with aggregateRef on random partitions (one group to
// one per record) of values with ±0, NaN, ±Inf, subnormals and magnitudes near 1e308 whose
// sums overflow (rescaledMeans).
func TestAggregateMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 31))
	for trial := range 300 {
		n, p := 1+r.IntN(400), 1+r.IntN(9)
		x := make([]float64, n*p)
		for i := range x {
			switch r.IntN(12) {
			case 0:
				x[i] = []float64{math.Copysign(0, -1), 0, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324}[r.IntN(6)]
			case 1:
				x[i] = 1.7e308 * float64(1-2*r.IntN(2))
			default:
				x[i] = r.NormFloat64()
			}
		}
		G := 1 + r.IntN(n)
		labels := make([]int32, n)
		for i := range labels {
			labels[i] = int32(r.IntN(G))
		}
		labels = Canonical(labels)
		names := make([]string, p)
		for j := range names {
			names[j] = fmt.Sprint("V", j)
		}
		d := datasets.New("t", names, n, p, x)
		want := aggregateRef(d, labels)
		for _, dst := range [][]float64{nil, make([]float64, n*p)} {
			got := aggregateInto(dst, d, labels).Data
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d cell %d: %v, want %v", trial, i, got[i], want[i])
				}
			}
		}
	}
}
