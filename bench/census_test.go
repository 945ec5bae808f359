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
// Zipf-like frequencies (level l of L with probability ∝ 1/(l+1)^censusZipf; with 1.5 and
// 100 levels the first is 1,000 times as frequent as the last), and a sampling weight w = 5 + 15·Exp(1). Deterministic in n.
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

// censusStep is one timed computation on the census table and its check value.
type censusStep struct {
	name string
	run  func() (float64, error)
}

// censusStepNames are the names of censusSteps, in their order.
var censusStepNames = []string{"frequency", "ind_risk_mean", "global_risk_er", "kanon_k3"}

// censusSteps returns the computations of BenchmarkCensus on d (censusTable): the weighted
// frequencies fk and Fk (keyfreq.Frequencies: per key tuple, and each record's tuple; value:
// sample uniques), the individual risk
// (ind_risk_mean, weighted, from a fresh metrics.Input so the frequencies are recomputed), the
// global risk (global_risk_er, likewise) and kanon with k = 3 and sdcMicro's default
// importance (value: suppressions). The names are bench/sdcmicro_census.R's steps.
func censusSteps(d *datasets.Dataset) []censusStep {
	names := make([]string, len(censusKeys))
	cols := make([]int, len(censusKeys))
	for j, k := range censusKeys {
		names[j], cols[j] = k.name, j
	}
	opt := metrics.Options{Keys: names, Weight: "w"}
	steps := []censusStep{{"frequency", func() (float64, error) {
		fr := keyfreq.Frequencies(d.Data, d.N, d.P, cols, d.P-1)
		u := 0.0
		for _, t := range fr.Of {
			if fr.F[t] == 1 {
				u++
			}
		}
		return u, nil
	}}}
	for _, id := range []string{"ind_risk_mean", "global_risk_er"} {
		steps = append(steps, censusStep{id, func() (float64, error) {
			m, err := metrics.Lookup(id)
			if err != nil {
				return 0, err
			}
			return m.Eval(&metrics.Input{Orig: d, Masked: d, Opt: opt}).Value, nil
		}})
	}
	return append(steps, censusStep{"kanon_k3", func() (float64, error) {
		keys, err := d.Select(names)
		if err != nil {
			return 0, err
		}
		m := categorical.KAnon{}
		p, err := m.Info().Resolve(map[string]string{"k": "3"})
		if err != nil {
			return 0, err
		}
		rel, err := m.Protect(context.Background(), keys, p, nil)
		if err != nil {
			return 0, err
		}
		return float64(rel.Info["n_suppressed"].(int)), nil
	}})
}

// BenchmarkCensus times censusSteps on the generated census table (5·10^6 records × 7 keys
// and a weight; issue 26's census scale, goal ≤ 60 s each on 2 cores). Each reports the CPU
// seconds of the process per operation (cpu-s/op), steadier than wall time on a shared
// machine, the minor page faults per operation (faults/op: fresh memory, which the first
// operation of the first step pays for; TestCensusFresh times each step as a first call) and
// the step's check value. Run with -bench Census -benchtime 1x;
// SDCBENCH_CENSUS_N changes the size.
func BenchmarkCensus(b *testing.B) {
	n := censusN(b)
	d := censusTable(n)
	for _, st := range censusSteps(d) {
		b.Run(fmt.Sprintf("%s/n=%d", st.name, n), func(b *testing.B) {
			var v float64
			var err error
			c0, f0 := cpuSeconds(), minorFaults()
			for b.Loop() {
				if v, err = st.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(minorFaults()-f0)/float64(b.N), "faults/op")
			b.ReportMetric(v, "value")
		})
	}
}
