package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// envN returns the record count in the environment variable name, or def.
func envN(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// benchProtectCPU times method m with parameters raw on normal_d<d>_n<n> (generated before
// the timer) and reports CPU seconds per call (cpu-s/op): on a loaded machine compare the
// ratios of sub-benchmarks within one run.
func benchProtectCPU(b *testing.B, method string, raw map[string]string, n, d int) {
	f, _, _, _ := datasets.ParseFamily("normal_d5_n1")
	data, err := f.Generate(n, d, 1)
	if err != nil {
		b.Fatal(err)
	}
	m, err := methods.Lookup(method)
	if err != nil {
		b.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	c0 := cpuSeconds()
	for b.Loop() {
		if _, err := m.Protect(context.Background(), data, p, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
}

// BenchmarkMaRmdSdcDims times ma_rmd_sdc (k = 3) on normal data with 5 and 10 columns
// (issue #30: the cost at d = 10 must stay within 3× of d = 5); n = 10^5, or
// SDCBENCH_RMD_N.
func BenchmarkMaRmdSdcDims(b *testing.B) {
	n := envN("SDCBENCH_RMD_N", 100_000)
	for _, d := range []int{5, 10} {
		b.Run(fmt.Sprintf("n=%d/d=%d", n, d), func(b *testing.B) {
			benchProtectCPU(b, "ma_rmd_sdc", map[string]string{"k": "3"}, n, d)
		})
	}
}

// BenchmarkPPPCA times pppca (k = 3) on normal data with 5 columns (issue #30): n = 10^4, or
// SDCBENCH_PPPCA_N (the projection-pursuit component evaluates every record's direction on
// every record, so the cost grows as n²).
func BenchmarkPPPCA(b *testing.B) {
	n := envN("SDCBENCH_PPPCA_N", 10_000)
	b.Run(fmt.Sprintf("n=%d/d=5", n), func(b *testing.B) {
		benchProtectCPU(b, "pppca", map[string]string{"k": "3"}, n, 5)
	})
}
