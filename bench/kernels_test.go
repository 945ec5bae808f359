package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/internal/robust"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// BenchmarkKernels times the code paths that have assembly kernels, at fixed sizes on one
// goroutine: `make bench-asm` runs it once as built and once with -tags purego (the portable
// Go kernels, the same results bit for bit) and compares the two with benchstat
// (docs/scaling.md, "What the assembly buys").
//
//   - DistLanes: the AVX2 lane-distance kernel alone, 4,096 rows × 10 columns;
//   - TreeNearest: 1,000 k-nearest queries (k = 3) on mdavindex's k-d tree of 100,000 × 10
//     rows, whose leaves are coded (the AVX2 8-bit filter, then DistLanes on the candidates);
//   - IndexFarthest: 100 farthest-record walks on the coded pivot list of 100,000 × 10 rows
//     (the AVX2 16-bit filter);
//   - MDAV: the whole method at k = 3 on 20,000 × 10 rows (indexed, below the coded filters'
//     threshold: DistLanes on the tree's leaves and the pivot list);
//   - FastMCD: 100 starts on 5,000 × 5 rows (the SSE2 Mahalanobis kernel).
func BenchmarkKernels(b *testing.B) {
	b.Run("DistLanes/n=4096/d=10", func(b *testing.B) {
		const n, d = 4096, 10
		z := normalData(n, d)
		rows := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				rows[mdavindex.LaneOffset(i, j, d)] = z[i*d+j]
			}
		}
		qb := make([]float64, 4*d)
		mdavindex.BroadcastQuery(qb, z[:d])
		out := make([]float64, n)
		for b.Loop() {
			mdavindex.DistLanes(out, rows, qb, d, n/4)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
	})
	b.Run("TreeNearest/n=100000/d=10/k=3", func(b *testing.B) {
		const n, d, queries = 100000, 10, 1000
		z := normalData(n, d)
		t := mdavindex.NewTree(z, n, d)
		r := rand.New(rand.NewPCG(3, 4))
		recs := make([]int, queries)
		for i := range recs {
			recs[i] = r.IntN(n)
		}
		var qs mdavindex.Query
		var buf []int
		for b.Loop() {
			for _, i := range recs {
				buf = t.Nearest(&qs, buf[:0], z[i*d:(i+1)*d], 3)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/queries, "ns/query")
	})
	b.Run("IndexFarthest/n=100000/d=10", func(b *testing.B) {
		const n, d, queries = 100000, 10, 100
		z := normalData(n, d)
		ix := mdavindex.New(z, n, d, mdavindex.Options{})
		ix.Farthest(make([]float64, d)) // builds the pivot list around the origin
		r := rand.New(rand.NewPCG(5, 6))
		recs := make([]int, queries)
		for i := range recs {
			recs[i] = r.IntN(n)
		}
		for b.Loop() {
			for _, i := range recs {
				ix.FarthestFrom(z[i*d : (i+1)*d])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/queries, "ns/query")
	})
	b.Run("MDAV/n=20000/d=10/k=3", func(b *testing.B) {
		const n, d = 20000, 10
		z := normalData(n, d)
		for b.Loop() {
			if _, err := microagg.MDAV(context.Background(), z, n, d, 3, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FastMCD/n=5000/d=5/starts=100", func(b *testing.B) {
		const n, d = 5000, 5
		z := normalData(n, d)
		opt := robust.MCDOptions{Starts: 100, Workers: 1, Robustbase: true}
		for b.Loop() {
			if _, err := robust.FastMCD(context.Background(), z, n, d, opt, rand.New(rand.NewPCG(1, 2))); err != nil {
				b.Fatal(err)
			}
		}
	})
}
