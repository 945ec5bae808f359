package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/microagg" // registers the methods
)

// BenchmarkMicroagg times every microaggregation method of docs/microaggregation.md
// through the registry (validation, z-scoring, partition and aggregation) on EIA11 (4092×11)
// at k = 3, with default parameters, all CPUs and a fixed PCG(1, 1) generator for the
// randomized ones.
func BenchmarkMicroagg(b *testing.B) {
	d, err := datasets.Load("eia")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"mdav", "vmdav", "rmdm", "pca", "pppca", "clustpppca", "onedims",
		"mhm", "gsms", "cbfs", "fdm", "single", "simple"} {
		b.Run("method="+name, func(b *testing.B) {
			m, err := methods.Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			p, err := m.Info().Resolve(map[string]string{"k": "3"})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var rel *methods.Release
			for b.Loop() {
				rel, err = m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 1)))
				if err != nil {
					b.Fatal(err)
				}
			}
			releaseSink = rel
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.N), "ns/record")
		})
	}
}

var releaseSink *methods.Release
