package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// mdavRelease returns EIA (11 columns) and its MDAV k = 3 release (group means in raw units,
// each computed once and copied) with the partition's labels.
func mdavRelease(b *testing.B) (orig, masked *datasets.Dataset, labels []int32) {
	d, err := datasets.Load("eia")
	if err != nil {
		b.Fatal(err)
	}
	z, _, err := datasets.ZScore(d)
	if err != nil {
		b.Fatal(err)
	}
	labels, err = microagg.MDAV(context.Background(), z, d.N, d.P, 3, 0)
	if err != nil {
		b.Fatal(err)
	}
	G := 0
	for _, l := range labels {
		G = max(G, int(l)+1)
	}
	sum := make([]float64, G*d.P)
	cnt := make([]float64, G)
	for i, l := range labels {
		cnt[l]++
		for j, v := range d.Row(i) {
			sum[int(l)*d.P+j] += v
		}
	}
	for g := 0; g < G; g++ {
		for j := 0; j < d.P; j++ {
			sum[g*d.P+j] /= cnt[g]
		}
	}
	masked = d.Clone()
	for i, l := range labels {
		copy(masked.Row(i), sum[int(l)*d.P:(int(l)+1)*d.P])
	}
	return d, masked, labels
}

// BenchmarkMetrics times the O(n²) metrics (dbrl, prl, sse_sst_lb) and dld on EIA's MDAV
// k = 3 release, with one CPU and with all. Every iteration builds a new metrics.Input, so
// the per-Input caches (z-scores, dbrl counts) do not carry over.
func BenchmarkMetrics(b *testing.B) {
	orig, masked, labels := mdavRelease(b)
	for _, id := range []string{"dld", "dbrl", "prl", "sse_sst_lb", "pil", "il3", "id_rank"} {
		m, err := metrics.Lookup(id)
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range []int{1, runtime.NumCPU()} {
			b.Run(fmt.Sprintf("metric=%s/n=%d/workers=%d", id, orig.N, w), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(w))
				b.ReportAllocs()
				var v float64
				for b.Loop() {
					in := &metrics.Input{Orig: orig, Masked: masked, Labels: labels,
						Opt: metrics.Options{K: 3}}
					v = m.Eval(in).Value
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(orig.N), "ns/record")
				sink = v
			})
		}
	}
}

var sink float64

// normalPair returns n×p i.i.d. N(0, 1) values and their noise_additive release with
// noise_pct 5 (the tables of the sdcMicro comparison of docs/datapath.md, generated instead
// of read).
func normalPair(n, p int) (orig, masked *datasets.Dataset) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := make([]float64, n*p)
	y := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64()
		y[i] = x[i] + 0.05*rng.NormFloat64()
	}
	names := make([]string, p)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j+1)
	}
	return datasets.New("norm", names, n, p, x), datasets.New("norm", names, n, p, y)
}

// BenchmarkNumericMeasures times the numeric measures sdcMicro also has on 10^5 × 10 normal
// values and a noise release (10^6 × 10 too with SDCBENCH_LONG=1): the work beyond reading
// the CSV files of `sdcbench eval` (docs/datapath.md, "Measured"). Every iteration builds a
// new metrics.Input, so nothing is shared between them.
func BenchmarkNumericMeasures(b *testing.B) {
	sizes := []int{100_000}
	if os.Getenv("SDCBENCH_LONG") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		orig, masked := normalPair(n, 10)
		for _, id := range []string{"eigen_sdc", "eigen", "interval_disclosure", "il1s_sum_sdc"} {
			m, err := metrics.Lookup(id)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/n=%d", id, n), func(b *testing.B) {
				b.ReportAllocs()
				c0 := cpuSeconds()
				var v float64
				for b.Loop() {
					in := &metrics.Input{Orig: orig, Masked: masked}
					v = m.Eval(in).Value
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
				sink = v
			})
		}
	}
}
