package metrics

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Rate is a success rate with its Wilson score interval, as the attack metrics report it.
type Rate struct {
	Successes, Trials int
	Value             float64 // the Wilson centre (x + z²/2)/(n + z²), Anonymeter's point estimate
	Err               float64 // the Wilson half-width: Low = Value − Err, High = Value + Err
}

// Low and High are the ends of the Wilson interval.
func (r Rate) Low() float64  { return r.Value - r.Err }
func (r Rate) High() float64 { return r.Value + r.Err }

// Wilson returns the Wilson score interval of x successes in n trials at the given two-sided
// level (Wilson 1927; the interval of R's prop.test(x, n, correct = FALSE)):
//
//	centre = (x + z²/2)/(n + z²),  half-width = z/(n + z²)·√(x(n−x)/n + z²/4),  z = Φ⁻¹(1 − (1−level)/2).
//
// It returns NaN values when n < 1 or x ∉ [0, n].
func Wilson(x, n int, level float64) Rate {
	if n < 1 || x < 0 || x > n || !(level > 0 && level < 1) {
		return Rate{Successes: x, Trials: n, Value: math.NaN(), Err: math.NaN()}
	}
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	z2 := z * z
	fx, fn := float64(x), float64(n)
	den := fn + z2
	return Rate{Successes: x, Trials: n,
		Value: (fx + z2/2) / den,
		Err:   z / den * math.Sqrt(fx*(fn-fx)/fn+z2/4)}
}

// Risk is an attack's privacy risk (Giomi et al. 2022, Eq. 1) with its propagated interval.
type Risk struct {
	Value, Low, High float64
}

// ResidualRisk returns the risk R = (r_t − r_c)/(1 − r_c) of an attack whose success rate on
// the protected records is rt and on records held out of the protection (or, without them, a
// naive baseline) is rc. The interval is R ± e with the first-order propagation of the two
// Wilson half-widths (Anonymeter):
//
//	e = √( (e_t/(1−r_c))² + (e_c·(1−r_t)/(1−r_c)²)² ).
//
// R is NaN when r_c = 1 (nothing to learn beyond the control).
func ResidualRisk(rt, rc Rate) Risk {
	if rc.Value >= 1 || math.IsNaN(rt.Value) || math.IsNaN(rc.Value) {
		return Risk{math.NaN(), math.NaN(), math.NaN()}
	}
	d := 1 - rc.Value
	v := (rt.Value - rc.Value) / d
	e := math.Hypot(rt.Err/d, rc.Err*math.Abs(rt.Value-1)/(d*d))
	return Risk{Value: v, Low: v - e, High: v + e}
}

// ClopperPearson returns the exact two-sided binomial interval of x successes in n trials at
// the given level, the interval of R's binom.test(x, n, conf.level = level):
//
//	low = Beta⁻¹((1−level)/2; x, n−x+1) (0 if x = 0),  high = Beta⁻¹(1−(1−level)/2; x+1, n−x) (1 if x = n).
//
// Each end is also a one-sided bound at 1 − (1−level)/2. NaN values for n < 1 or x ∉ [0, n].
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
