package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// perturbMethods are the numeric perturbative methods and chains of docs/perturbative.md with
// the study's settings.
var perturbMethods = []struct {
	name string
	raw  map[string]string
}{
	{"noise_additive", map[string]string{"noise_pct": "5"}},
	{"noise_additive0", map[string]string{"noise_pct": "5"}},
	{"noise_correlated", map[string]string{"noise_pct": "5"}},
	{"noise_correlated2", map[string]string{"delta": "0.1"}},
	{"noise_restr", nil},
	{"noise_mult", nil},
	{"rankswap", map[string]string{"p_frac": "0.1"}},
	{"shuffle_ds", nil},
	{"egadp", nil},
	{"egadp_sdcmicro", nil},
	{"restrict(noise_additive)", map[string]string{"noise_pct": "5"}},
	{"revmap(noise_additive)", map[string]string{"noise_pct": "5"}},
}

// logNormal returns n×p i.i.d. round(exp(N(10, 1.5²))) values: skewed, monetary-like.
func logNormal(n, p int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]float64, n*p)
	for i := range data {
		data[i] = math.Round(math.Exp(10 + 1.5*rng.NormFloat64()))
	}
	names := make([]string, p)
	for j := range names {
		names[j] = fmt.Sprintf("V%d", j+1)
	}
	return datasets.New(fmt.Sprintf("lognormal%dx%d", n, p), names, n, p, data)
}

// BenchmarkPerturb times every numeric perturbative method (one goroutine each: they are
// sequential) on EIA (4092×11) and on generated 200,000×5 data; with SDCBENCH_LONG=1 also on
// 1,000,000×5 (the 10 s goal).
func BenchmarkPerturb(b *testing.B) {
	eia, err := datasets.Load("eia")
	if err != nil {
		b.Fatal(err)
	}
	sets := []*datasets.Dataset{eia, logNormal(200_000, 5)}
	if os.Getenv("SDCBENCH_LONG") != "" {
		sets = append(sets, logNormal(1_000_000, 5))
	}
	for _, d := range sets {
		for _, pm := range perturbMethods {
			m, err := methods.Lookup(pm.name)
			if err != nil {
				b.Fatal(err)
			}
			p, err := m.Info().Resolve(pm.raw)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%s", d.Name, pm.name), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 1))
				c0 := cpuSeconds()
				for b.Loop() {
					if _, err := m.Protect(context.Background(), d, p, rng); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// BenchmarkNoiseNormal times the noise methods sdcMicro's addNoise also has on 10^5 × 10
// normal values (10^6 × 10 too with SDCBENCH_LONG=1), the tables of the sdcMicro comparison
// of docs/datapath.md: the method's work beyond reading and writing the CSV files of
// `sdcbench protect`.
func BenchmarkNoiseNormal(b *testing.B) {
	sizes := []int{100_000}
	if os.Getenv("SDCBENCH_LONG") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		d, _ := normalPair(n, 10)
		for _, pm := range []struct {
			name string
			raw  map[string]string
		}{
			{"noise_additive", map[string]string{"noise_pct": "5"}},
			{"noise_correlated2", map[string]string{"delta": "0.1"}},
		} {
			m, err := methods.Lookup(pm.name)
			if err != nil {
				b.Fatal(err)
			}
			p, err := m.Info().Resolve(pm.raw)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/n=%d", pm.name, n), func(b *testing.B) {
				b.ReportAllocs()
				rng := rand.New(rand.NewPCG(1, 1))
				c0 := cpuSeconds()
				for b.Loop() {
					if _, err := m.Protect(context.Background(), d, p, rng); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}
