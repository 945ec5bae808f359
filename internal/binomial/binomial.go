// Package binomial computes confidence intervals for a binomial proportion from x successes in
// n trials: Wilson's score interval and the exact Clopper–Pearson interval, both NaN for
// n < 1, x ∉ [0, n] or a level outside (0, 1).
package binomial

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Wilson returns the centre and half-width of the Wilson score interval of x successes in n
// trials at the given two-sided level (Wilson 1927; the interval of R's
// prop.test(x, n, correct = FALSE)):
//
//	centre = (x + z²/2)/(n + z²),  half-width = z/(n + z²)·√(x(n−x)/n + z²/4),  z = Φ⁻¹(1 − (1−level)/2).
func Wilson(x, n int, level float64) (centre, halfWidth float64) {
	if n < 1 || x < 0 || x > n || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	z2 := z * z
	fx, fn := float64(x), float64(n)
	den := fn + z2
	return (fx + z2/2) / den, z / den * math.Sqrt(fx*(fn-fx)/fn+z2/4)
}

// ClopperPearson returns the exact two-sided binomial interval of x successes in n trials at
// the given level, the interval of R's binom.test(x, n, conf.level = level):
//
//	low = Beta⁻¹((1−level)/2; x, n−x+1) (0 if x = 0),  high = Beta⁻¹(1−(1−level)/2; x+1, n−x) (1 if x = n).
//
// Each end is also a one-sided bound at 1 − (1−level)/2.
func ClopperPearson(x, n int, level float64) (low, high float64) {
	if n < 1 || x < 0 || x > n || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	a := (1 - level) / 2
	low, high = 0, 1
	if x > 0 {
		low = distuv.Beta{Alpha: float64(x), Beta: float64(n - x + 1)}.Quantile(a)
	}
	if x < n {
		high = distuv.Beta{Alpha: float64(x + 1), Beta: float64(n - x)}.Quantile(1 - a)
	}
	return low, high
}
