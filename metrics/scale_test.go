package metrics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// bruteDBRL is metrics.md §3.5 by a plain O(n²) scan: for each original a and subset size s,
// L = #{b : d(a,b) < d(a,a')}, E = #{b : d = d(a,a')}, credit min(1, (K−L)/E) if L < K.
func bruteDBRL(za, zb []float64, n, q, s, k int) float64 {
	var sum float64
	for a := 0; a < n; a++ {
		dist := func(b int) float64 {
			var acc float64
			for l := 0; l < s; l++ {
				t := za[a*q+l] - zb[b*q+l]
				acc += float64(t * t)
			}
			return acc
		}
		ds := dist(a)
		L, E := 0, 0
		for b := 0; b < n; b++ {
			switch v := dist(b); {
			case v < ds:
				L++
			case v == ds:
				E++
			}
		}
		if L < k {
			sum += math.Min(1, float64(k-L)/float64(E))
		}
	}
	return 100 * sum / float64(n)
}

// TestLinkageTreesMatchScan checks the k-d tree versions of dbrl, dbrl2 and dld against plain
// scans on continuous, tied (integer grid) and microaggregated (duplicated rows) releases.
func TestLinkageTreesMatchScan(t *testing.T) {
	const n, p = 600, 8
	r := rand.New(rand.NewPCG(5, 5))
	orig := make([]float64, n*p)
	for i := range orig {
		orig[i] = float64(r.IntN(5)) + 0.01*float64(i%3)
	}
	releases := map[string][]float64{}
	noise, grid, dup := make([]float64, n*p), make([]float64, n*p), make([]float64, n*p)
	for i := range orig {
		noise[i] = orig[i] + 0.8*r.NormFloat64()
		grid[i] = math.Round(orig[i] + r.NormFloat64())
	}
	for i := 0; i < n; i++ {
		copy(dup[i*p:(i+1)*p], orig[(i/3)*3*p:(i/3)*3*p+p])
	}
	releases["noise"], releases["grid"], releases["dup"] = noise, grid, dup
	names := make([]string, p)
	for j := range names {
		names[j] = fmt.Sprint("x", j)
	}
	d := datasets.New("t", names, n, p, orig)
	for name, rel := range releases {
		in := &metrics.Input{Orig: d, Masked: datasets.New("t", names, n, p, rel)}
		za, zb := in.Z()
		for _, k := range []int{1, 2} {
			res := metrics.DBRL(in)
			if k == 2 {
				res = metrics.DBRL2(in)
			}
			var mean float64
			for _, s := range []int{3, 5, 8} {
				want := bruteDBRL(za, zb, n, p, s, k)
				if got := res.Aux[fmt.Sprint("s", s)]; math.Abs(got-want) > 1e-9 {
					t.Errorf("%s K=%d s=%d: dbrl %v, scan %v", name, k, s, got, want)
				}
				mean += want / 3
			}
			if math.Abs(res.Value-mean) > 1e-9 {
				t.Errorf("%s K=%d: value %v, want %v", name, k, res.Value, mean)
			}
		}
		hits := 0
		for j := 0; j < n; j++ {
			if metrics.NearestRow(za, n, p, zb[j*p:(j+1)*p]) == j {
				hits++
			}
		}
		if got, want := metrics.DLD(in).Value, 100*float64(hits)/n; got != want {
			t.Errorf("%s: dld %v, scan %v", name, got, want)
		}
		if name == "dup" { // the same groups given as a partition
			labels := make([]int32, n)
			for i := range labels {
				labels[i] = int32(i / 3)
			}
			in.Labels = labels
			if got, want := metrics.DLD(in).Value, 100*float64(hits)/n; got != want {
				t.Errorf("dup with labels: dld %v, scan %v", got, want)
			}
		}
	}
}
