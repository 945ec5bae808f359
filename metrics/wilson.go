package metrics

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/binomial"
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
// level (binomial.Wilson: the interval of R's prop.test(x, n, correct = FALSE)). It returns
// NaN values when n < 1 or x ∉ [0, n].
func Wilson(x, n int, level float64) Rate {
	v, e := binomial.Wilson(x, n, level)
	return Rate{Successes: x, Trials: n, Value: v, Err: e}
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
