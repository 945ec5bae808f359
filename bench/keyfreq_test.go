package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
	"github.com/sdcbench/sdcbench/metrics"
)

// keyLevels are the category counts of the seven generated keys of keyTable.
var keyLevels = []int{2, 4, 6, 8, 12, 20, 30}

// keyTable returns n records of seven generated categorical keys (keyLevels categories each,
// skewed: category c drawn with probability ∝ 1/(c+1)) and a weight in [1, 100); with naRate > 0
// each key cell is missing (NaN) with that probability, as in a release with suppressed cells.
func keyTable(n int, naRate float64) *datasets.Dataset {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	p := len(keyLevels) + 1
	cum := make([][]float64, len(keyLevels))
	for k, L := range keyLevels {
		var s float64
		for c := 0; c < L; c++ {
			s += 1 / float64(c+1)
			cum[k] = append(cum[k], s)
		}
		for c := range cum[k] {
			cum[k][c] /= s
		}
	}
	data := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for k := range keyLevels {
			u, c := r.Float64(), 0
			for c < len(cum[k])-1 && cum[k][c] < u {
				c++
			}
			data[i*p+k] = float64(c + 1)
			if r.Float64() < naRate {
				data[i*p+k] = math.NaN()
			}
		}
		data[i*p+p-1] = 1 + 99*r.Float64()
	}
	names := []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "w"}
	return datasets.New(fmt.Sprintf("keys_n%d", n), names, n, p, data)
}

// keyfreqN returns the record counts of BenchmarkKeyFreq: 10^5, plus 10^6 with
// SDCBENCH_LONG=1 (or one count alone with SDCBENCH_KEYFREQ_N=<n>).
func keyfreqN() []int {
	if n := envN("SDCBENCH_KEYFREQ_N", 0); n > 0 {
		return []int{n}
	}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		return []int{100_000, 1_000_000}
	}
	return []int{100_000}
}

// BenchmarkKeyFreq times keyfreq.Count (sdcMicro freqCalc semantics: a missing key value
// matches anything) on seven generated keys without missing values and with 2 % of the key
// cells missing (issue #30: the missing case must cost at most twice the complete one), and
// the measures that call it (global_risk_er unweighted, ind_risk_max weighted), each
// iteration on a new metrics.Input. Compare the CPU seconds per operation (cpu-s/op) of
// na=0 and na=0.02 within one run.
func BenchmarkKeyFreq(b *testing.B) {
	cols := []int{0, 1, 2, 3, 4, 5, 6}
	for _, n := range keyfreqN() {
		for _, na := range []float64{0, 0.02} {
			d := keyTable(n, na)
			w := d.Col(d.P - 1)
			b.Run(fmt.Sprintf("count/n=%d/na=%g", n, na), func(b *testing.B) {
				b.ReportAllocs()
				keyfreq.Count(d.Data, d.N, d.P, cols, nil) // warm the heap
				runtime.GC()
				c0 := cpuSeconds()
				for b.Loop() {
					f, _ := keyfreq.Count(d.Data, d.N, d.P, cols, nil)
					sink = f[0]
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
			b.Run(fmt.Sprintf("count_weighted/n=%d/na=%g", n, na), func(b *testing.B) {
				b.ReportAllocs()
				keyfreq.Count(d.Data, d.N, d.P, cols, w)
				runtime.GC()
				c0 := cpuSeconds()
				for b.Loop() {
					_, F := keyfreq.Count(d.Data, d.N, d.P, cols, w)
					sink = F[0]
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
			for _, mc := range []struct {
				id, weight string
			}{{"global_risk_er", ""}, {"ind_risk_max", "w"}} {
				m, err := metrics.Lookup(mc.id)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("metric=%s/n=%d/na=%g", mc.id, n, na), func(b *testing.B) {
					runtime.GC()
					c0 := cpuSeconds()
					for b.Loop() {
						in := &metrics.Input{Orig: d, Masked: d, Opt: metrics.Options{
							Keys: []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7"}, Weight: mc.weight}}
						sink = m.Eval(in).Value
					}
					b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
				})
			}
		}
	}
}

// BenchmarkKeyFreqCensus times keyfreq.Frequencies, as the categorical risk measures call it
// (the weight column read in place), on the census keys of censusTable (2–100 levels; code
// space 1.9·10^8 with a digit for a missing value, so the walks of the missing path use a
// hash index) without missing values and with 2 % of the key cells missing (issue #30: at
// most twice the complete case). n = 10^5, or SDCBENCH_KEYFREQ_N. Compare cpu-s/op of na=0
// and na=0.02 within one run.
func BenchmarkKeyFreqCensus(b *testing.B) {
	n := envN("SDCBENCH_KEYFREQ_N", 100_000)
	base := censusTable(n)
	cols := make([]int, len(censusKeys))
	for k := range cols {
		cols[k] = k
	}
	for _, na := range []float64{0, 0.02} {
		d := base.Clone()
		r := rand.New(rand.NewPCG(30, 2))
		for i := 0; i < n; i++ {
			for k := range cols {
				if r.Float64() < na {
					d.Data[i*d.P+k] = math.NaN()
				}
			}
		}
		for _, wcol := range []int{-1, d.P - 1} {
			b.Run(fmt.Sprintf("n=%d/na=%g/weighted=%v", n, na, wcol >= 0), func(b *testing.B) {
				b.ReportAllocs()
				keyfreq.Frequencies(d.Data, d.N, d.P, cols, wcol) // warm the heap
				runtime.GC()
				c0 := cpuSeconds()
				for b.Loop() {
					sink = keyfreq.Frequencies(d.Data, d.N, d.P, cols, wcol).FW[0]
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}
