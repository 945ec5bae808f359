package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
	_ "github.com/sdcbench/sdcbench/methods/perturb"
	"github.com/sdcbench/sdcbench/metrics"
)

// scaleN returns the row counts of the scale benchmarks: 10^4 and 10^5, plus 10^6 with
// SDCBENCH_LONG=1 (or SDCBENCH_SCALE_N=<n> alone).
func scaleN() []int {
	if s := os.Getenv("SDCBENCH_SCALE_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err == nil {
			return []int{n}
		}
	}
	ns := []int{10_000, 100_000}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		ns = append(ns, 1_000_000)
	}
	return ns
}

// noiseRelease returns normal_d10_n<n> and a release with N(0, 0.1²) noise per value (seeded).
func noiseRelease(b *testing.B, n int) (orig, masked *datasets.Dataset) {
	f, _, _, _ := datasets.ParseFamily("normal_d10_n1")
	d, err := f.Generate(n, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	m := d.Clone()
	r := rand.New(rand.NewPCG(2, 2))
	for i := range m.Data {
		m.Data[i] += 0.1 * r.NormFloat64()
	}
	return d, m
}

// rankswapRelease returns the rank-swapped release of orig (p_frac 0.05, as in the scaling
// study), seeded.
func rankswapRelease(b *testing.B, orig *datasets.Dataset) *datasets.Dataset {
	m, err := methods.Lookup("rankswap")
	if err != nil {
		b.Fatal(err)
	}
	p, err := m.Info().Resolve(map[string]string{"p_frac": "0.05"})
	if err != nil {
		b.Fatal(err)
	}
	rel, err := m.Protect(context.Background(), orig, p, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		b.Fatal(err)
	}
	return rel.Masked
}

// BenchmarkMeasuresScale times the record-linkage and interval measures of the scaling study
// (docs/scaling.md) on normal_d10_n<n> released with 10 % noise and by rank swapping
// (p_frac 0.05), every CPU. Each iteration builds a new metrics.Input, so no cache carries
// over.
func BenchmarkMeasuresScale(b *testing.B) {
	for _, n := range scaleN() {
		orig, noisy := noiseRelease(b, n)
		swapped := rankswapRelease(b, orig)
		for _, rel := range []struct {
			name   string
			masked *datasets.Dataset
		}{{"noise", noisy}, {"rankswap", swapped}} {
			for _, id := range []string{"dbrl", "dld", "interval_disclosure", "id_rank", "sdid"} {
				m, err := metrics.Lookup(id)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/%s/n=%d", id, rel.name, n), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						m.Eval(&metrics.Input{Orig: orig, Masked: rel.masked})
					}
				})
			}
		}
	}
}

// BenchmarkMDAVScale times MDAV (k = 3, every CPU) on normal_d10_n<n> z-scores: the exact
// indexed variant from 8,192 rows (docs/scaling.md).
func BenchmarkMDAVScale(b *testing.B) {
	for _, n := range scaleN() {
		orig, _ := noiseRelease(b, n)
		z, _, err := datasets.ZScore(orig)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := microagg.MDAV(context.Background(), z, n, 10, 3, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
