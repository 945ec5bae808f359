package bench

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/metrics"
)

// prlN returns the row counts of BenchmarkPRLScale: 20,000, plus 200,000 with
// SDCBENCH_LONG=1 (about a minute of 2 CPUs per run), or SDCBENCH_PRL_N=<n> alone.
func prlN() []int {
	if s := os.Getenv("SDCBENCH_PRL_N"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return []int{n}
		}
	}
	ns := []int{20_000}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		ns = append(ns, 200_000)
	}
	return ns
}

// BenchmarkPRLScale times prl (all 10 attributes, τ = 0.1) on normal_d10_n<n> with N(0, 0.1²)
// noise, every CPU: the exact scale path of docs/scaling.md (it fails if prl notes a fall
// back to all pairs). Each iteration builds a new metrics.Input, so no cache carries over.
func BenchmarkPRLScale(b *testing.B) {
	m, err := metrics.Lookup("prl")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range prlN() {
		orig, masked := noiseRelease(b, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := m.Eval(&metrics.Input{Orig: orig, Masked: masked})
				if len(r.Notes) > 0 {
					b.Fatal(r.Notes)
				}
			}
		})
	}
}
