package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/methods/dfo"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// dfoStart returns the z-scored dataset and its MDAV partition as a dfo.Partition.
func dfoStart(b *testing.B, name string, k int) (*dfo.Partition, float64) {
	z, n, d := zOf(b, name)
	labels, err := microagg.MDAV(context.Background(), z, n, d, k, 1)
	if err != nil {
		b.Fatal(err)
	}
	p := dfo.NewPartition(z, n, d, labels, n/k)
	return p, 1e-12 * float64((n-1)*d)
}

// BenchmarkDFOSBM times the unconstrained single best move search from MDAV (the first
// stage of F′), reporting moves and ns per move.
func BenchmarkDFOSBM(b *testing.B) {
	for _, c := range []struct {
		name string
		k    int
	}{{"tarragona", 3}, {"census", 5}, {"eia", 3}} {
		b.Run(fmt.Sprintf("data=%s/k=%d", c.name, c.k), func(b *testing.B) {
			p0, tol := dfoStart(b, c.name, c.k)
			l := &dfo.Local{Tol: tol}
			b.ReportAllocs()
			b.ResetTimer()
			moves := 0
			for b.Loop() {
				p := p0.Clone()
				moves = l.SBM(p, 1, 0)
			}
			b.ReportMetric(float64(moves), "moves")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(moves, 1)), "ns/move")
		})
	}
}

// BenchmarkDFOSurrogate times one F′ evaluation: HMKM (Strategy II) from MDAV at G = ⌊n/k⌋.
func BenchmarkDFOSurrogate(b *testing.B) {
	for _, c := range []struct {
		name string
		k    int
	}{{"tarragona", 3}, {"census", 10}, {"eia", 3}} {
		b.Run(fmt.Sprintf("data=%s/k=%d", c.name, c.k), func(b *testing.B) {
			p0, tol := dfoStart(b, c.name, c.k)
			l := &dfo.Local{Tol: tol}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Improve(dfo.HMKM, p0.Clone(), c.k); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(p0.N), "ns/record")
		})
	}
}

// BenchmarkDFOPolish times the exchange polish (extension) from MDAV, neighbour lists built
// outside the timer.
func BenchmarkDFOPolish(b *testing.B) {
	for _, name := range []string{"tarragona", "eia"} {
		b.Run("data="+name+"/k=3", func(b *testing.B) {
			p0, tol := dfoStart(b, name, 3)
			nn := dfo.Neighbours(p0.Z, p0.N, p0.D, 14)
			l := &dfo.Local{Tol: tol}
			b.ReportAllocs()
			for b.Loop() {
				l.Polish(p0.Clone(), 3, nn, 0)
			}
		})
	}
}

// BenchmarkDFORun times a whole default dfo run (the paper's readings, MDAV start, γ0 = 10,
// the same seed every iteration) — the runtime goal: EIA k = 3 ≤ 20 s per run.
func BenchmarkDFORun(b *testing.B) {
	for _, c := range []struct {
		name string
		k    int
	}{{"tarragona", 3}, {"census", 3}, {"eia", 3}} {
		b.Run(fmt.Sprintf("data=%s/k=%d", c.name, c.k), func(b *testing.B) {
			z, n, d := zOf(b, c.name)
			start, err := microagg.MDAV(context.Background(), z, n, d, c.k, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var res *dfo.Result
			for b.Loop() {
				if res, err = dfo.Run(context.Background(), z, n, d, start, dfo.Config{K: c.k}, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(res.SseSst, "sse_sst")
		})
	}
}
