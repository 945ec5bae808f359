package stats

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Exactness says when a Wilcoxon test computes its exact p-value; it copies R's exact argument.
type Exactness int

const (
	// ExactAuto is R's exact = NULL: exact when every sample has fewer than 50 values and there
	// are no ties (nor zero differences in the signed-rank test).
	ExactAuto Exactness = iota
	// ExactAlways is R's exact = TRUE: exact unless ties or zeros make it impossible.
	ExactAlways
	// ExactNever is R's exact = FALSE: always the normal approximation.
	ExactNever
)

// WilcoxonOptions are the settings of RankSum and SignedRank. The zero value gives R's defaults:
// exact = NULL, correct = TRUE, a two-sided alternative and alpha 0.05.
type WilcoxonOptions struct {
	Exact Exactness
	// NoCorrect turns off the continuity correction of the normal approximation
	// (R's correct = FALSE). The default, false, applies it.
	NoCorrect bool
	// Alpha is the significance level used for the Warnings; 0 means DefaultThresholds.Alpha.
	Alpha float64
	// ConfInt asks for the Hodges–Lehmann estimate and its confidence interval (R's
	// conf.int = TRUE), returned in Comparison.Shift.
	ConfInt bool
	// ConfLevel is the interval's confidence level; 0 means 0.95 (R's conf.level).
	ConfLevel float64
	// ExactTies replaces R's normal approximation, when ties or zero differences forbid the
	// exact test, by the exact permutation distribution conditional on the tied ranks (signed
	// rank: fewer than 50 non-zero differences; rank sum: at most 60 observations). With few
	// blocks the approximation can report p-values the design cannot produce (four tied
	// differences: 0.07 where the permutation p is 0.125). Off by default, as R.
	ExactTies bool
	// Context, when not nil, stops the exact null distribution (quadratic memory and cubic time
	// in the sample sizes) when it is done: the Comparison then has P NaN and the context's
	// error among its Warnings.
	Context context.Context
}

// ctxErr returns the error of o.Context, nil without one.
func (o WilcoxonOptions) ctxErr() error {
	if o.Context == nil {
		return nil
	}
	return o.Context.Err()
}

// Comparison is the result of a two-sided test of equal location.
type Comparison struct {
	// Method is R's method string, e.g. "Wilcoxon rank sum exact test" or
	// "Wilcoxon signed rank test with continuity correction".
	Method string
	// Statistic is R's W (rank sum of x minus n1(n1+1)/2) or V (sum of the ranks of the positive
	// differences).
	Statistic float64
	// P is the two-sided p-value; NaN when it is undefined (no data, or all differences zero).
	P float64
	// Z is the standardized statistic of the normal approximation (after the continuity
	// correction); NaN for an exact test.
	Z float64
	// Exact reports whether P comes from the exact null distribution.
	Exact bool
	// N1 and N2 are the sizes used: the two samples after NaN removal for RankSum; for
	// SignedRank N1 is the number of non-zero differences and N2 the number of complete pairs.
	N1, N2 int
	// Alpha is the level the Warnings refer to.
	Alpha float64
	// Warnings explain weaknesses of the result (see ErrTies, ErrZeros, ErrTooFew).
	Warnings []error
	// Shift is the location-shift estimate and interval when WilcoxonOptions.ConfInt is set,
	// else nil.
	Shift *Shift
	// A12 is the Vargha–Delaney effect size: P(X > Y) + P(X = Y)/2 over the two samples
	// (W/(n1·n2)) for RankSum, and the share of positive differences, zeros counting half, for
	// SignedRank. 0.5 means no effect; NaN without data.
	A12 float64
	// R is the rank-biserial correlation (Kerby 2014, "The simple difference formula"), in
	// [−1, 1], 0 for no effect: 2W/(n1·n2) − 1 for RankSum (the share of pairs where x is above
	// y minus the share where it is below), and the matched-pairs version
	// (T+ − T−)/(T+ + T−) = 4V/(n(n+1)) − 1 over the n non-zero differences for SignedRank.
	// NaN without data (or without a non-zero difference).
	R float64
}

// Warnings that a Comparison may carry.
var (
	// ErrTies: the data have ties, so the exact p-value cannot be computed and the normal
	// approximation with tie correction is used (R: "cannot compute exact p-value with ties").
	ErrTies = errors.New("stats: cannot compute exact p-value with ties")
	// ErrZeros: some paired differences are zero; they are dropped and the normal approximation
	// is used (R: "cannot compute exact p-value with zeroes").
	ErrZeros = errors.New("stats: cannot compute exact p-value with zeroes")
	// ErrTooFew: the samples are too small to ever give a p-value at or below alpha; a Comparison
	// wraps it with the sizes and the smallest achievable p.
	ErrTooFew = errors.New("stats: too few observations to reach alpha")
	// ErrNoObs: a sample is empty after removing missing values (R stops with an error).
	ErrNoObs = errors.New("stats: not enough non-missing observations")
	// ErrExactTooLarge: an exact test was asked for (ExactAlways) but a sample has more than
	// MaxExact values, so the normal approximation is used, as R's default does from 50 values.
	ErrExactTooLarge = errors.New("stats: sample too large for the exact distribution, normal approximation used")
)

// MaxExact caps the exact null distributions: a sample (or the non-zero differences of the
// signed-rank test) with more than MaxExact values gets the normal approximation even with
// ExactAlways, with ErrExactTooLarge among the Warnings. The rank-sum distribution of sizes m and
// n needs about m·n² counts and m²·n²/2 additions (200 and 200: 64 MB, about a second); R's
// own default (ExactAuto) switches to the approximation at 50 values.
const MaxExact = 200

// RankSum returns the two-sided Wilcoxon rank-sum (Mann-Whitney) test of x against y, as
// wilcox.test(x, y) in R with the options' exact and correct arguments. NaN values are dropped.
//
// The statistic is W = Σ rank(x) − n1(n1+1)/2 over the pooled ranks (ties averaged). The exact
// p-value is 2·min(P(W ≤ w), P(W ≥ w)) capped at 1; the normal approximation uses mean n1n2/2,
// variance n1n2/12·((n+1) − Σ(t³−t)/(n(n−1))) with n = n1+n2 and tie-group sizes t, and a
// continuity correction of 0.5 towards the mean. The exact distribution costs O(n1²n2²/4).
func RankSum(x, y []float64, opt *WilcoxonOptions) Comparison {
	var o WilcoxonOptions
	if opt != nil {
		o = *opt
	}
	x, y = dropNaN(x), dropNaN(y)
	c := Comparison{Method: "Wilcoxon rank sum test", N1: len(x), N2: len(y), Alpha: alphaOrDefault(o.Alpha),
		Statistic: math.NaN(), P: math.NaN(), Z: math.NaN(), A12: math.NaN(), R: math.NaN()}
	if len(x) == 0 || len(y) == 0 {
		c.Warnings = append(c.Warnings, ErrNoObs)
		return c
	}
	pooled := append(append(make([]float64, 0, len(x)+len(y)), x...), y...)
	r := Rank(nil, pooled)
	n1, n2 := float64(len(x)), float64(len(y))
	var sx float64
	for _, v := range r[:len(x)] {
		sx += v
	}
	w := sx - n1*(n1+1)/2
	c.Statistic = w
	c.A12 = w / (n1 * n2)
	c.R = 2*w/(n1*n2) - 1
	ties := tieSizes(r)
	hasTies := len(ties) != len(r)
	exact := o.Exact == ExactAlways || (o.Exact == ExactAuto && len(x) < 50 && len(y) < 50)
	if exact && (len(x) > MaxExact || len(y) > MaxExact) {
		exact = false
		c.Warnings = append(c.Warnings, fmt.Errorf("%w: n1=%d, n2=%d", ErrExactTooLarge, len(x), len(y)))
	}
	if o.ConfInt {
		sh := twoSampleShift(x, y, exact && !hasTies, o)
		c.Shift = &sh
	}
	if exact && !hasTies {
		d, err := rankSumDistCtx(o, len(x), len(y))
		if err != nil {
			c.Warnings = append(c.Warnings, err)
			return c
		}
		var p float64
		if w > n1*n2/2 {
			p = d.upper(w)
		} else {
			p = d.lower(w)
		}
		c.Method = "Wilcoxon rank sum exact test"
		c.Exact = true
		c.P = math.Min(2*p, 1)
		if pmin := math.Min(2*d.lower(0), 1); pmin > c.Alpha {
			c.Warnings = append(c.Warnings, fmt.Errorf("%w: n1=%d, n2=%d, smallest p=%.4g > alpha=%g",
				ErrTooFew, len(x), len(y), pmin, c.Alpha))
		}
		return c
	}
	if o.ExactTies && hasTies && len(r) <= maxConditional {
		p, pmin := conditionalRankSum(r, len(x))
		c.conditional("rank sum", p, pmin)
		return c
	}
	if exact && hasTies {
		c.Warnings = append(c.Warnings, ErrTies)
	}
	n := n1 + n2
	var tt float64
	for _, t := range ties {
		tt += t*t*t - t
	}
	z := w - n1*n2/2
	sigma := math.Sqrt(n1 * n2 / 12 * ((n + 1) - tt/(n*(n-1))))
	c.normal(z, sigma, !o.NoCorrect)
	return c
}

// SignedRank returns the two-sided Wilcoxon signed-rank test of the paired differences x − y, as
// wilcox.test(x, y, paired = TRUE) in R; with y nil it tests x against 0 (wilcox.test(x)). Pairs
// with a NaN are dropped, then zero differences are dropped, as R does. It panics if y is not nil
// and its length differs from x's.
//
// The statistic is V = Σ rank(|d|) over the positive differences d. The exact p-value is
// 2·min(P(V ≤ v), P(V ≥ v)) capped at 1; it needs fewer than 50 non-zero differences without ties
// and no zeros. The normal approximation uses mean n(n+1)/4, variance
// n(n+1)(2n+1)/24 − Σ(t³−t)/48 and a continuity correction of 0.5 towards the mean.
func SignedRank(x, y []float64, opt *WilcoxonOptions) Comparison {
	var o WilcoxonOptions
	if opt != nil {
		o = *opt
	}
	if y != nil && len(x) != len(y) {
		panic(badLength)
	}
	d := make([]float64, 0, len(x))
	for i, v := range x {
		if y != nil {
			v -= y[i]
		}
		if !math.IsNaN(v) {
			d = append(d, v)
		}
	}
	return signedRank(d, 0, o)
}

// OneSample returns the two-sided Wilcoxon signed-rank test of the values x against the fixed
// value mu, as wilcox.test(x, mu = mu) in R: the differences x − mu are tested as SignedRank
// tests them (NaN dropped, then zeros), and the Hodges–Lehmann estimate (pseudomedian) and its
// interval are those of x itself, on mu's scale, as R reports them. It is the test of a
// randomized method's replicates against a deterministic method's one value
// (docs/analysis.md "Tests that fit the design"). Comparison.R is the matched-pairs
// rank-biserial correlation of x − mu.
func OneSample(x []float64, mu float64, opt *WilcoxonOptions) Comparison {
	var o WilcoxonOptions
	if opt != nil {
		o = *opt
	}
	d := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			d = append(d, v-mu)
		}
	}
	return signedRank(d, mu, o)
}

// signedRank is the signed-rank test of the differences d (without NaN); the interval and
// estimate are computed, as R does, on the non-zero differences plus mu.
func signedRank(d []float64, mu float64, o WilcoxonOptions) Comparison {
	c := Comparison{Method: "Wilcoxon signed rank test", N2: len(d), Alpha: alphaOrDefault(o.Alpha),
		Statistic: math.NaN(), P: math.NaN(), Z: math.NaN(), A12: math.NaN(), R: math.NaN()}
	if len(d) == 0 {
		c.Warnings = append(c.Warnings, ErrNoObs)
		return c
	}
	nz := d[:0:0]
	for _, v := range d {
		if v != 0 {
			nz = append(nz, v)
		}
	}
	zeros := len(nz) != len(d)
	c.N1 = len(nz)
	var pos float64
	for _, v := range nz {
		if v > 0 {
			pos++
		}
	}
	c.A12 = (pos + float64(len(d)-len(nz))/2) / float64(len(d))
	abs := make([]float64, len(nz))
	for i, v := range nz {
		abs[i] = math.Abs(v)
	}
	r := Rank(nil, abs)
	var v float64
	for i, di := range nz {
		if di > 0 {
			v += r[i]
		}
	}
	c.Statistic = v
	n := float64(len(nz))
	if n > 0 {
		c.R = 4*v/(n*(n+1)) - 1
	}
	ties := tieSizes(r)
	hasTies := len(ties) != len(r)
	exact := o.Exact == ExactAlways || (o.Exact == ExactAuto && len(nz) < 50)
	if exact && len(nz) > MaxExact {
		exact = false
		c.Warnings = append(c.Warnings, fmt.Errorf("%w: %d non-zero differences", ErrExactTooLarge, len(nz)))
	}
	if o.ConfInt {
		xs := nz
		if mu != 0 { // R: x <- x + mu before the interval
			xs = make([]float64, len(nz))
			for i, v := range nz {
				xs[i] = v + mu
			}
		}
		sh := oneSampleShift(xs, exact && !hasTies && !zeros, o)
		c.Shift = &sh
	}
	if exact && !hasTies && !zeros {
		dist, err := signedRankDistCtx(o, len(nz))
		if err != nil {
			c.Warnings = append(c.Warnings, err)
			return c
		}
		var p float64
		if v > n*(n+1)/4 {
			p = dist.upper(v)
		} else {
			p = dist.lower(v)
		}
		c.Method = "Wilcoxon signed rank exact test"
		c.Exact = true
		c.P = math.Min(2*p, 1)
		if pmin := math.Min(2*dist.lower(0), 1); pmin > c.Alpha {
			c.Warnings = append(c.Warnings, fmt.Errorf("%w: %d pairs, smallest p=%.4g > alpha=%g",
				ErrTooFew, len(nz), pmin, c.Alpha))
		}
		return c
	}
	if o.ExactTies && (hasTies || zeros) && len(nz) > 0 && len(nz) < 50 {
		p, pmin := conditionalSignedRank(r, v)
		c.conditional("signed rank", p, pmin)
		return c
	}
	if exact && hasTies {
		c.Warnings = append(c.Warnings, ErrTies)
	}
	if exact && zeros {
		c.Warnings = append(c.Warnings, ErrZeros)
	}
	var tt float64
	for _, t := range ties {
		tt += t*t*t - t
	}
	z := v - n*(n+1)/4
	sigma := math.Sqrt(n*(n+1)*(2*n+1)/24 - tt/48)
	c.normal(z, sigma, !o.NoCorrect)
	return c
}

// normal fills the normal-approximation fields from the centred statistic z and its SD.
func (c *Comparison) normal(z, sigma float64, correct bool) {
	if correct {
		c.Method += " with continuity correction"
		z -= 0.5 * sign(z)
	}
	z /= sigma
	c.Z = z
	// 2·min(Φ(z), 1−Φ(z)) = erfc(|z|/√2)
	c.P = math.Erfc(math.Abs(z) / math.Sqrt2)
	if math.IsNaN(c.P) {
		c.Warnings = append(c.Warnings, errors.New("stats: p-value undefined (zero variance)"))
	}
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func dropNaN(x []float64) []float64 {
	out := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// dist is an integer-valued null distribution: counts[s] ways to get statistic s, out of total.
type dist struct {
	counts []float64
	total  float64
}

// lower returns P(S ≤ q) with q rounded down as R does (floor(q + 1e-7)).
func (d dist) lower(q float64) float64 {
	k := int(math.Floor(q + 1e-7))
	if k < 0 {
		return 0
	}
	if k >= len(d.counts)-1 {
		return 1
	}
	var s float64
	for _, c := range d.counts[:k+1] {
		s += c
	}
	return s / d.total
}

// upper returns P(S ≥ q) for an integer q, R's p…(q − 1, lower.tail = FALSE).
func (d dist) upper(q float64) float64 {
	k := int(math.Floor(q - 1 + 1e-7)) // P(S > k)
	if k < 0 {
		return 1
	}
	if k >= len(d.counts)-1 {
		return 0
	}
	var s float64
	for _, c := range d.counts[k+1:] {
		s += c
	}
	return s / d.total
}

// signedRankDist returns the null distribution of V for n non-zero differences: the number of
// subsets of {1..n} with each sum, out of 2^n (R's csignrank).
func signedRankDist(n int) dist {
	d, _ := signedRankDistCtx(WilcoxonOptions{}, n)
	return d
}

// signedRankDistCtx is signedRankDist stopped, with o.Context's error, once o.Context is done.
func signedRankDistCtx(o WilcoxonOptions, n int) (dist, error) {
	m := n * (n + 1) / 2
	c := make([]float64, m+1)
	c[0] = 1
	top := 0
	for i := 1; i <= n; i++ {
		if err := o.ctxErr(); err != nil {
			return dist{}, err
		}
		top += i
		for s := top; s >= i; s-- {
			c[s] += c[s-i]
		}
	}
	return dist{counts: c, total: math.Ldexp(1, n)}, nil
}

// rankSumDist returns the null distribution of W for samples of sizes m and n: the number of
// arrangements with each value of W, out of C(m+n, m) (R's cwilcox). It uses the recurrence
// c(m, n; k) = c(m−1, n; k−n) + c(m, n−1; k), which only adds non-negative counts.
func rankSumDist(m, n int) dist {
	d, _ := rankSumDistCtx(WilcoxonOptions{}, m, n)
	return d
}

// rankSumDistCtx is rankSumDist stopped, with o.Context's error, once o.Context is done.
func rankSumDistCtx(o WilcoxonOptions, m, n int) (dist, error) {
	// prev[j] holds c(i−1, j; ·) for j = 0..n; cur[j] holds c(i, j; ·).
	prev := make([][]float64, n+1)
	for j := range prev {
		prev[j] = []float64{1} // c(0, j; 0) = 1
	}
	for i := 1; i <= m; i++ {
		cur := make([][]float64, n+1)
		cur[0] = []float64{1} // c(i, 0; 0) = 1
		for j := 1; j <= n; j++ {
			if err := o.ctxErr(); err != nil {
				return dist{}, err
			}
			v := make([]float64, i*j+1)
			copy(v, cur[j-1]) // c(i, j−1; k)
			for k, c := range prev[j] {
				v[k+j] += c // c(i−1, j; k−j)
			}
			cur[j] = v
		}
		prev = cur
	}
	c := prev[n]
	var total float64
	for _, v := range c {
		total += v
	}
	return dist{counts: c, total: total}, o.ctxErr()
}
