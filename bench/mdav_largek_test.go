package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// BenchmarkMDAVLargeK times MDAV alone at k = 1000 on 10^5 × 5 normal z-scores (issue #30
// item 3, docs/scaling.md "MDAV at large k"), with one worker and with all CPUs, and reports
// the process's CPU seconds per call beside the wall time; SDCBENCH_LONG=1 adds 10^6 × 5.
func BenchmarkMDAVLargeK(b *testing.B) {
	const d, k = 5, 1000
	sizes := []int{100000}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		sizes = append(sizes, 1000000)
	}
	for _, n := range sizes {
		z := normalData(n, d)
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				c0 := cpuSeconds()
				for b.Loop() {
					if _, err := microagg.MDAV(context.Background(), z, n, d, k, w); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// BenchmarkMaMdavLargeK times what `sdcbench protect --method ma_mdav --param k=1000` does
// between reading and writing the CSV on 10^5 × 5 normal values: the method's validation and
// its Protect (z-scores, MDAV, group means), in CPU seconds per call.
func BenchmarkMaMdavLargeK(b *testing.B) {
	const n, p = 100000, 5
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*p)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	names := make([]string, p)
	for j := range names {
		names[j] = fmt.Sprint("V", j+1)
	}
	ds := datasets.New("normal", names, n, p, x)
	m, err := methods.Lookup("ma_mdav")
	if err != nil {
		b.Fatal(err)
	}
	prm, err := m.Info().Resolve(map[string]string{"k": "1000"})
	if err != nil {
		b.Fatal(err)
	}
	c0 := cpuSeconds()
	for b.Loop() {
		if v, ok := m.(methods.Validator); ok {
			if err := v.Validate(ds, prm); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := m.Protect(context.Background(), ds, prm, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
}
