package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// benchProtect1e6 times one method with k = 1000 on normal_d5_n1000000 (issue #11's speed
// goal: under 10 s on 2 cores). It runs only with -bench.
func benchProtect1e6(b *testing.B, method string) {
	d, err := datasets.Load("normal_d5_n1000000")
	if err != nil {
		b.Fatal(err)
	}
	m, err := methods.Lookup(method)
	if err != nil {
		b.Fatal(err)
	}
	p, err := m.Info().Resolve(map[string]string{"k": "1000"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMaRmdSdc1e6 times ma_rmd_sdc (FAST-MCD plus the RMDM grouping), k = 1000, 10^6 × 5.
func BenchmarkMaRmdSdc1e6(b *testing.B) { benchProtect1e6(b, "ma_rmd_sdc") }

// BenchmarkMaMdav1e6 times ma_mdav, k = 1000, 10^6 × 5.
func BenchmarkMaMdav1e6(b *testing.B) { benchProtect1e6(b, "ma_mdav") }
