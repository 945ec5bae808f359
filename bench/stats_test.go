package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// BenchmarkWilcoxonConfInt times one pairwise test with its Hodges–Lehmann interval, as the
// analysis runs it for every pair: paired on 20 blocks (exact), and unpaired on n values per
// side (asymptotic: R's root search over the O(n) merged statistic).
func BenchmarkWilcoxonConfInt(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 13))
	opt := &stats.WilcoxonOptions{ConfInt: true, ExactTies: true}
	x, y := make([]float64, 20), make([]float64, 20)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()+0.3
	}
	b.Run("paired/n=20", func(b *testing.B) {
		for b.Loop() {
			stats.SignedRank(x, y, opt)
		}
	})
	for _, n := range []int{100, 3840} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()+0.1
		}
		b.Run(fmt.Sprintf("unpaired/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				stats.RankSum(x, y, opt)
			}
		})
	}
}
