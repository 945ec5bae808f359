package stats

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
)

// Shift is a location-shift estimate with its two-sided confidence interval, as the estimate and
// conf.int of R's wilcox.test(..., conf.int = TRUE).
type Shift struct {
	// Estimate is the Hodges–Lehmann estimate: the median of the Walsh averages (x_i + x_j)/2
	// (pseudomedian) of the paired differences, or the median of all differences x_i − y_j of
	// two samples; in the asymptotic case the root of the uncorrected normal statistic, as R.
	Estimate float64
	// Lo and Hi bound the interval; NaN when it cannot be computed.
	Lo, Hi float64
	// Level is the confidence level actually given: the requested one unless the sample is
	// too small to achieve it (R's conf.level attribute).
	Level float64
	// Exact reports whether the interval inverts the exact null distribution.
	Exact bool
}

// rootTol is R's default tol.root of wilcox.test (1e-4), used by uniroot.
const rootTol = 1e-4

func confLevel(o WilcoxonOptions) float64 {
	if o.ConfLevel == 0 {
		return 0.95
	}
	if !(o.ConfLevel > 0 && o.ConfLevel < 1) {
		panic("stats: confidence level outside (0, 1)")
	}
	return o.ConfLevel
}

// qnormUpper returns qnorm(p, lower.tail = FALSE) and qnorm(p) for p in (0, 1).
func qnormUpper(p float64) float64 { return distuv.UnitNormal.Quantile(1 - p) }
func qnormLower(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// rMedian is R's median: the middle value, or the mean of the two middle values of s (sorted).
func rMedian(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// oneSampleShift is the conf.int part of wilcox.test(x) for the non-zero values x (R drops the
// zeros before it): exact when exact is set (no ties, no zeros), else asymptotic.
func oneSampleShift(x []float64, exact bool, o WilcoxonOptions) Shift {
	level := confLevel(o)
	alpha := 1 - level
	n := len(x)
	s := Shift{Estimate: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: level, Exact: exact}
	if exact {
		walsh := make([]float64, 0, n*(n+1)/2)
		for i := range x {
			for j := i; j < n; j++ {
				walsh = append(walsh, x[i]+x[j])
			}
		}
		for i := range walsh {
			walsh[i] /= 2
		}
		slices.Sort(walsh)
		d, err := signedRankDistCtx(o, n)
		if err != nil {
			return s
		}
		qu := d.quantile(alpha/2, math.Exp(-float64(n)*math.Ln2))
		if qu == 0 {
			qu = 1
		}
		ql := n*(n+1)/2 - qu
		achieved := 2 * d.lower(float64(qu-1))
		s.Lo, s.Hi = walsh[qu-1], walsh[ql]
		if achieved-alpha > alpha/2 {
			s.Level = 1 - signif2(achieved)
		}
		s.Estimate = rMedian(walsh)
		return s
	}
	if n == 0 {
		s.Level = 0
		return s
	}
	x = slices.Clone(x)
	slices.Sort(x)
	mumin, mumax := x[0], x[n-1]
	w := func(d float64, correct bool) float64 { return oneSampleW(x, d, correct) }
	correct := !o.NoCorrect
	wmin := w(mumin, correct)
	wmax := math.NaN()
	if !isInfNaN(wmin) {
		wmax = w(mumax, correct)
	}
	if isInfNaN(wmax) { // all observations tied: R gives NaN limits at level 0
		s.Estimate, s.Level = (mumin+mumax)/2, 0
		return s
	}
	for wmin-qnormUpper(alpha/2) < 0 || wmax-qnormLower(alpha/2) > 0 {
		alpha *= 2
	}
	if alpha >= 1 || 1-level < alpha*0.75 {
		s.Level = 1 - math.Min(1, alpha)
	}
	if alpha < 1 {
		root := func(zq float64) float64 {
			return zeroin(func(d float64) float64 { return w(d, correct) - zq }, mumin, mumax, wmin-zq, wmax-zq, rootTol)
		}
		s.Lo, s.Hi = root(qnormUpper(alpha/2)), root(qnormLower(alpha/2))
	} else {
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		s.Lo = rMedian(sorted)
		s.Hi = s.Lo
	}
	f := func(d float64) float64 { return w(d, false) }
	s.Estimate = zeroin(f, mumin, mumax, f(mumin), f(mumax), rootTol)
	return s
}

// oneSampleW is the standardized signed-rank statistic of x − d (R's W inside wilcox.test) for
// x sorted increasingly. R ranks |x − d| over the non-zero differences; with x sorted, the
// positive differences are increasing from the first x above d and the magnitudes of the negative
// ones increasing from the last x below d, so one merge gives the ranks, their sum over the
// positive differences and the tie sizes in O(n), without sorting.
func oneSampleW(x []float64, d float64, correct bool) float64 {
	// negatives: x[0..neg) with x−d < 0; positives: x[pos..n) with x−d > 0.
	n := len(x)
	neg := 0
	for neg < n && x[neg]-d < 0 {
		neg++
	}
	pos := neg
	for pos < n && x[pos]-d == 0 {
		pos++
	}
	i, j := neg-1, pos // i walks the negatives downwards, j the positives upwards
	var rank, sum, tt float64
	for i >= 0 || j < n {
		var v float64
		switch {
		case j >= n:
			v = -(x[i] - d)
		case i < 0:
			v = x[j] - d
		default:
			v = math.Min(-(x[i] - d), x[j]-d)
		}
		var cn, cp float64
		for i >= 0 && -(x[i]-d) == v {
			cn++
			i--
		}
		for j < n && x[j]-d == v {
			cp++
			j++
		}
		t := cn + cp
		sum += cp * (rank + (t+1)/2)
		tt += t*t*t - t
		rank += t
	}
	nx := rank
	zd := sum - nx*(nx+1)/4
	sigma := math.Sqrt(nx*(nx+1)*(2*nx+1)/24 - tt/48)
	var corr float64
	if correct {
		corr = sign(zd) * 0.5
	}
	return (zd - corr) / sigma
}

// twoSampleShift is the conf.int part of wilcox.test(x, y).
func twoSampleShift(x, y []float64, exact bool, o WilcoxonOptions) Shift {
	level := confLevel(o)
	alpha := 1 - level
	s := Shift{Estimate: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: level, Exact: exact}
	nx, ny := len(x), len(y)
	if exact {
		diffs := make([]float64, 0, nx*ny)
		for _, b := range y { // outer(x, y, "-") in column-major order; sorted anyway
			for _, a := range x {
				diffs = append(diffs, a-b)
			}
		}
		slices.Sort(diffs)
		d, err := rankSumDistCtx(o, nx, ny)
		if err != nil {
			return s
		}
		qu := d.quantile(alpha/2, 0)
		if qu == 0 {
			qu = 1
		}
		ql := nx*ny - qu
		achieved := 2 * d.lower(float64(qu-1))
		s.Lo, s.Hi = diffs[qu-1], diffs[ql]
		if achieved-alpha > alpha/2 {
			s.Level = 1 - achieved
		}
		s.Estimate = rMedian(diffs)
		return s
	}
	x, y = slices.Clone(x), slices.Clone(y)
	slices.Sort(x)
	slices.Sort(y)
	mumin := x[0] - y[ny-1]
	mumax := x[nx-1] - y[0]
	w := func(d float64, correct bool) float64 { return twoSampleW(x, y, d, correct) }
	correct := !o.NoCorrect
	wmin, wmax := w(mumin, correct), w(mumax, correct)
	root := func(zq float64) float64 {
		fl := wmin - zq
		if fl <= 0 {
			return mumin
		}
		fu := wmax - zq
		if fu >= 0 {
			return mumax
		}
		return zeroin(func(d float64) float64 { return w(d, correct) - zq }, mumin, mumax, fl, fu, rootTol)
	}
	if isInfNaN(wmin) || isInfNaN(wmax) || !(mumin < mumax) {
		return s // R stops: all observations tied
	}
	s.Lo, s.Hi = root(qnormUpper(alpha/2)), root(qnormLower(alpha/2))
	f := func(d float64) float64 { return w(d, false) }
	s.Estimate = zeroin(f, mumin, mumax, f(mumin), f(mumax), rootTol)
	return s
}

// twoSampleW is the standardized rank-sum statistic of x − d against y (R's W inside
// wilcox.test) for x and y sorted increasingly: x − d stays sorted, so one merge of the two gives
// the pooled ranks of x, their sum and the tie sizes in O(n1 + n2).
func twoSampleW(x, y []float64, d float64, correct bool) float64 {
	i, j := 0, 0
	var rank, sum, tt float64
	for i < len(x) || j < len(y) {
		var v float64
		if j >= len(y) || i < len(x) && x[i]-d <= y[j] {
			v = x[i] - d
		} else {
			v = y[j]
		}
		var cx, cy float64
		for i < len(x) && x[i]-d == v {
			cx++
			i++
		}
		for j < len(y) && y[j] == v {
			cy++
			j++
		}
		t := cx + cy
		sum += cx * (rank + (t+1)/2)
		tt += t*t*t - t
		rank += t
	}
	nx, ny := float64(len(x)), float64(len(y))
	dz := sum - nx*(nx+1)/2 - nx*ny/2
	var corr float64
	if correct {
		corr = sign(dz) * 0.5
	}
	sigma := math.Sqrt((nx * ny / 12) * ((nx + ny + 1) - tt/((nx+ny)*(nx+ny-1))))
	return (dz - corr) / sigma
}

// rFinite maps non-finite values as R's uniroot callback does (fcn2 in R's optimize.c): −Inf
// to the most negative double, +Inf and NaN to the largest.
func rFinite(v float64) float64 {
	switch {
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	case math.IsInf(v, 1) || math.IsNaN(v):
		return math.MaxFloat64
	}
	return v
}

func isInfNaN(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// signif2 is R's signif(x, 2): two significant digits, a tie going to the even digit
// (signif(0.125, 2) is 0.12).
func signif2(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return v
}

// quantile is R's qsignrank / qwilcox for a lower-tail probability p ≤ 0.5: the smallest q with
// P(S ≤ q) ≥ p − 10ε, accumulating counts·f (f = 2^−n for the signed rank, as R's
// exp(−n·log 2)) or counts/total when f is 0.
func (d dist) quantile(p, f float64) int {
	p -= 10 * 0x1p-52
	var acc float64
	for q, c := range d.counts {
		if f != 0 {
			acc += c * f
		} else {
			acc += c / d.total
		}
		if acc >= p {
			return q
		}
	}
	return len(d.counts) - 1
}

// zeroin is Brent's root finder exactly as R's R_zeroin2 (the engine of uniroot): a in [ax, bx]
// with f(ax) = fa and f(bx) = fb of opposite signs, tolerance tol, at most 1000 iterations. The
// confidence limits of the asymptotic Wilcoxon interval are roots of a step function, so they
// depend on every step of the search; following R's iteration is what makes them equal R's.
func zeroin(f func(float64) float64, ax, bx, fa, fb, tol float64) float64 {
	const eps = 0x1p-52
	a, b := ax, bx
	c, fc := a, fa
	if fa == 0 {
		return a
	}
	if fb == 0 {
		return b
	}
	for range 1001 {
		prevStep := b - a
		if math.Abs(fc) < math.Abs(fb) {
			a, b, c = b, c, b
			fa, fb, fc = fb, fc, fb
		}
		tolAct := 2*eps*math.Abs(b) + tol/2
		newStep := (c - b) / 2
		if math.Abs(newStep) <= tolAct || fb == 0 {
			return b
		}
		if math.Abs(prevStep) >= tolAct && math.Abs(fa) > math.Abs(fb) {
			var p, q float64
			cb := c - b
			if a == c {
				t1 := fb / fa
				p = cb * t1
				q = 1 - t1
			} else {
				q = fa / fc
				t1 := fb / fc
				t2 := fb / fa
				p = t2 * (cb*q*(q-t1) - (b-a)*(t1-1))
				q = (q - 1) * (t1 - 1) * (t2 - 1)
			}
			if p > 0 {
				q = -q
			} else {
				p = -p
			}
			if p < (0.75*cb*q-math.Abs(tolAct*q)/2) && p < math.Abs(prevStep*q/2) {
				newStep = p / q
			}
		}
		if math.Abs(newStep) < tolAct {
			if newStep > 0 {
				newStep = tolAct
			} else {
				newStep = -tolAct
			}
		}
		a, fa = b, fb
		b += newStep
		fb = rFinite(f(b))
		if (fb > 0 && fc > 0) || (fb < 0 && fc < 0) {
			c, fc = a, fa
		}
	}
	return b
}
