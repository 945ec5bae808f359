package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The one-attribute fast paths of prl agree exactly with the all-pairs loops they replace.
func TestPRLSingleMatchesPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	for trial := range 60 {
		n := 1 + rng.IntN(300)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
			y[i] = x[i] + 0.2*rng.NormFloat64()
			if trial%3 == 0 { // ties and exact agreement
				x[i], y[i] = math.Round(x[i]*4)/4, math.Round(y[i]*4)/4
			}
		}
		tau := []float64{0.1, 0, 0.25}[trial%3]
		sorted := slices.Clone(y)
		slices.Sort(sorted)
		k1 := singleAgree(x, sorted, tau)
		own := make([]int, n)
		for a := range n {
			var want int64
			for b := range n {
				want += int64(pattern(x[a:a+1], y[b:b+1], tau))
			}
			if k1[a] != want {
				t.Fatalf("trial %d: record %d agrees with %d, want %d", trial, a, k1[a], want)
			}
			own[a] = pattern(x[a:a+1], y[a:a+1], tau)
		}
		for _, w := range [][]float64{{-1, 2}, {2, -1}, {0.5, 0.5}, {-3, -2}} {
			for _, tMu := range []float64{math.Inf(-1), -2.5, 0, 1, math.Inf(1)} {
				got := singleCredit(k1, own, w, tMu, n)
				for a := range n {
					best, ties, mine := math.Inf(-1), 0, false
					for b := range n {
						wb := w[pattern(x[a:a+1], y[b:b+1], tau)]
						if wb < tMu || wb < best {
							continue
						}
						if wb > best {
							best, ties, mine = wb, 0, false
						}
						ties++
						mine = mine || b == a
					}
					want := 0.0
					if ties > 0 && mine {
						want = 1 / float64(ties)
					}
					if got[a] != want {
						t.Fatalf("trial %d w %v tMu %v: credit[%d] = %v, want %v", trial, w, tMu, a, got[a], want)
					}
				}
			}
		}
	}
}
