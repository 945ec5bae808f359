// Package bench holds the go test -bench benchmarks of sdcbench's hot paths. Run them with
// `make bench` and compare runs with benchstat.
package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// normalData returns n×d i.i.d. N(0,1) values from PCG(1, 2), z-scored as
// docs/microaggregation.md §6.4 prescribes.
func normalData(n, d int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	names := make([]string, d)
	for j := range names {
		names[j] = fmt.Sprint("x", j)
	}
	z, _, err := datasets.ZScore(datasets.New("normal", names, n, d, x))
	if err != nil {
		panic(err)
	}
	return z
}

func zOf(b *testing.B, name string) ([]float64, int, int) {
	d, err := datasets.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	z, _, err := datasets.ZScore(d)
	if err != nil {
		b.Fatal(err)
	}
	return z, d.N, d.P
}

// BenchmarkMDAV times MDAV at k = 3 on the embedded reference sets and on synthetic normal
// data of growing n (d = 10), with all CPUs (workers=0) and with one.
func BenchmarkMDAV(b *testing.B) {
	type input struct {
		name string
		z    []float64
		n, d int
	}
	var inputs []input
	for _, name := range []string{"census", "tarragona", "eia"} {
		z, n, d := zOf(b, name)
		inputs = append(inputs, input{name, z, n, d})
	}
	for _, n := range []int{10000, 40000} {
		inputs = append(inputs, input{fmt.Sprintf("normal/n=%d", n), normalData(n, 10), n, 10})
	}
	for _, in := range inputs {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("data=%s/workers=%d", in.name, w), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := microagg.MDAV(context.Background(), in.z, in.n, in.d, 3, w); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(in.n), "ns/record")
			})
		}
	}
}
