package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
	"github.com/sdcbench/sdcbench/methods/categorical"
	"github.com/sdcbench/sdcbench/metrics"
)

// censusKeys are the seven keys of the generated census table and their numbers of levels:
// sex, urban/rural, household size, marital status by relationship, five-year age group,
// region and occupation (docs/categorical.md "kanon at census scale").
var censusKeys = []struct {
	name   string
	levels int
}{{"sex", 2}, {"urbrur", 4}, {"hhsize", 8}, {"marital", 12}, {"agegroup", 20}, {"region", 50}, {"occupation", 100}}

// censusZipf is the exponent of the keys' level frequencies.
const censusZipf = 1.5

// censusTable returns n generated census records: the seven keys, drawn independently with
// Zipf-like frequencies (level l with probability ∝ 1/(l+1)^1.1, so a column's first level
// is 5 to 20 times its last), and a sampling weight w = 5 + 15·Exp(1). Deterministic in n.
func censusTable(n int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(2026, 26))
	p := len(censusKeys) + 1
	names := make([]string, p)
	levels := make([][]string, p)
	cum := make([][]float64, len(censusKeys))
	for j, k := range censusKeys {
		names[j] = k.name
		var s float64
		for l := 0; l < k.levels; l++ {
			levels[j] = append(levels[j], strconv.Itoa(l+1))
			s += math.Pow(float64(l+1), -censusZipf)
			cum[j] = append(cum[j], s)
		}
		for l := range cum[j] {
			cum[j][l] /= s
		}
	}
	names[p-1] = "w"
	data := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for j := range censusKeys {
			l, _ := slices.BinarySearch(cum[j], rng.Float64())
			data[i*p+j] = float64(min(l, len(cum[j])-1))
		}
		data[i*p+p-1] = 5 + 15*rng.ExpFloat64()
	}
	d := datasets.New(fmt.Sprintf("census_n%d", n), names, n, p, data)
	d.Levels = levels
	return d
}

// censusN is the size of the census benchmarks: 5,000,000, or SDCBENCH_CENSUS_N.
func censusN(b *testing.B) int {
	if s := os.Getenv("SDCBENCH_CENSUS_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			b.Fatalf("SDCBENCH_CENSUS_N=%q: want a number of records ≥ 10", s)
		}
		return n
	}
	return 5_000_000
}

// keysOnly returns the seven key columns of a census table.
func keysOnly(b *testing.B, d *datasets.Dataset) *datasets.Dataset {
	names := make([]string, len(censusKeys))
	for j, k := range censusKeys {
		names[j] = k.name
	}
	k, err := d.Select(names)
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkCensus times, on the generated census table (5·10^6 records × 7 keys and a weight;
// issue 26's census scale, goal ≤ 60 s each on 2 cores): the weighted frequencies fk and Fk
// (keyfreq.Count), the individual risk (ind_risk_mean, weighted, from a fresh metrics.Input
// so the frequencies are recomputed), the global risk (global_risk_er, likewise) and kanon
// with k = 3 and sdcMicro's default importance. Each reports the CPU seconds of the process
// per operation (cpu-s/op), steadier than wall time on a shared machine. Run with
// -bench Census -benchtime 1x; SDCBENCH_CENSUS_N changes the size.
func BenchmarkCensus(b *testing.B) {
	n := censusN(b)
	d := censusTable(n)
	keys := keysOnly(b, d)
	cols := []int{0, 1, 2, 3, 4, 5, 6}
	w := d.Col(d.P - 1)
	opt := metrics.Options{Keys: keys.Names, Weight: "w"}
	cpuRun := func(name string, f func() float64) {
		b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
			var v float64
			c0 := cpuSeconds()
			for b.Loop() {
				v = f()
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(v, "value")
		})
	}
	cpuRun("frequency", func() float64 {
		f, _ := keyfreq.Count(d.Data, d.N, d.P, cols, w)
		u := 0.0
		for _, v := range f {
			if v == 1 {
				u++
			}
		}
		return u // sample uniques
	})
	for _, id := range []string{"ind_risk_mean", "global_risk_er"} {
		m, err := metrics.Lookup(id)
		if err != nil {
			b.Fatal(err)
		}
		cpuRun(id, func() float64 {
			return m.Eval(&metrics.Input{Orig: d, Masked: d, Opt: opt}).Value
		})
	}
	m := categorical.KAnon{}
	p, err := m.Info().Resolve(map[string]string{"k": "3"})
	if err != nil {
		b.Fatal(err)
	}
	cpuRun("kanon_k3", func() float64 {
		rel, err := m.Protect(context.Background(), keys, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		return float64(rel.Info["n_suppressed"].(int))
	})
}
