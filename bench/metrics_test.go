package bench

import (
	"context"
	"fmt"
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
