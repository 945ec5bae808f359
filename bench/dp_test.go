package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/methods/dp"
)

// BenchmarkDPBinary times one replicate of each binary inference of DP study (base scenario
// n = nt = 100, x = 30, ε = 2, mv2008, §5.3 chain settings: 21 000 iterations) per M, and
// reports ns per MCMC iteration. The inner loops allocate nothing.
func BenchmarkDPBinary(b *testing.B) {
	for _, M := range []int{1, 2, 5, 10} {
		alpha, _ := dp.Alpha(dp.MV2008, 100, 2/float64(M))
		rng := rand.New(rand.NewPCG(1, 1))
		xt := make([]int, M)
		dp.SynthBinary(xt, 30, 100, 100, alpha, rng)
		set := dp.Chain{Burn: 1000, Keep: 1000, Thin: 20}
		s := dp.NewBinarySampler(100, 100, M, alpha, 1, 1)
		dr := &dp.BinaryDraws{P: make([]float64, set.Keep), X: make([]int, set.Keep)}
		iters := float64(set.Iterations())
		b.Run(fmt.Sprintf("sampler=gibbs/M=%d", M), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.Gibbs(dr, xt, set, rng)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iters, "ns/iter")
		})
		b.Run(fmt.Sprintf("sampler=mhl/M=%d", M), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.MHL(dr, xt, set, 11, dp.RoundedUniform, rng)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iters, "ns/iter")
		})
		w := make([]float64, 101)
		b.Run(fmt.Sprintf("sampler=exact/M=%d", M), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dp.ExactBinary(w, xt, 100, 100, alpha, 1, 1)
			}
		})
	}
}

// BenchmarkDPCategorical times one replicate of each categorical inference (C = 4,
// p = (0.7, 0.1, 0.15, 0.05), ε = 2, M = 1) for n = 100 and 500.
func BenchmarkDPCategorical(b *testing.B) {
	for _, n := range []int{100, 500} {
		alpha, _ := dp.Alpha(dp.MV2008, n, 2)
		rng := rand.New(rand.NewPCG(1, 1))
		x := make([]int, 4)
		dp.LargestRemainder(x, []float64{0.7, 0.1, 0.15, 0.05}, n)
		xt := [][]int{make([]int, 4)}
		dp.SynthCategorical(xt, x, n, alpha, rng)
		m := &dp.CatModel{XT: xt, N: n, NT: n, Alpha: alpha, Gamma: 0.5}
		b.Run(fmt.Sprintf("sampler=exact/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.DMExact()
			}
		})
		b.Run(fmt.Sprintf("sampler=collapsed/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.Collapsed(5000, 15000, 0, rng)
			}
		})
		b.Run(fmt.Sprintf("sampler=alg6/n=%d", n), func(b *testing.B) {
			a := dp.Alg6{Iter: 30000, Burn: 10000, Ponto: 500}
			for i := 0; i < b.N; i++ {
				a.Run(m, rng)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/30000, "ns/iter")
		})
	}
}
