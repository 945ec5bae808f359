package microagg

import (
	"math"
	"sync/atomic"
)

// ppBins is the number of histogram bins of madBelow: the bins span 8·lb around an estimate
// of the median, so a bin is 1/1024 of lb wide.
const ppBins = 8192

// ppSample is about the number of records whose projections estimate the centre of
// madBelow's histogram.
const ppSample = 256

// ppMaxAbs bounds |z| for madBelow: below it no projection onto a unit vector overflows, so
// every projection is finite.
const ppMaxAbs = 1e300

// madCert holds the scratch space of madBelow, and the table in lane layout (toLanes) when
// the AVX2 kernel bins the rows (shared read-only by the workers; nil: binRows).
type madCert struct {
	hist   []int32
	sample []float64
	lanes  []float64
}

// madBelow reports whether the MAD that PP1 would compute for the projections
// x_h = Project(z, a)_h of the n×d table z (median(|x_h − median(x)|), each median the mean of
// the two middle values for an even count) is certainly below lb > 0, from one pass that
// projects and bins the rows (a histogram) instead of two selections (issue #30). Every |z|
// must be below ppMaxAbs.
//
// With T the largest float64 below lb: if the two middle order statistics of x lie in bins
// that bound median(x) to [L, U], and at least ⌊n/2⌋+1 values lie in bins inside
// (U − T, L + T), each of those has |x_h − median(x)| < T, so its rounded deviation is ≤ T
// (rounding is monotone and T is a float64), and so is the MAD, whose middle order statistics
// are among them. The projections are Project's, operation for operation; bin edges are
// widened by a margin far above the rounding error of the bin index. false means only that
// the bound could not be shown.
func (c *madCert) madBelow(z []float64, n, d int, a []float64, lb float64) bool {
	if n < 2 || !(lb > 0) || math.IsInf(lb, 1) {
		return false
	}
	// centre: the median of the projections of a strided sample
	step := max(1, n/ppSample)
	c.sample = c.sample[:0]
	for i := 0; i < n; i += step {
		c.sample = append(c.sample, dot(z[i*d:(i+1)*d], a))
	}
	mid := median(c.sample)
	R := 4 * lb
	base := mid - R
	invw := ppBins / (2 * R)
	if math.IsInf(base, 0) || math.IsInf(invw, 0) {
		return false
	}
	if c.hist == nil {
		c.hist = make([]int32, ppBins+2)
	}
	h := c.hist
	clear(h)
	if c.lanes != nil {
		g := n / 4
		binLanesAVX2(&h[0], &c.lanes[0], &a[0], d, g, base, invw, -1, ppBins)
		binRows(h, z[4*g*d:], n-4*g, d, a, base, invw)
	} else {
		binRows(h, z, n, d, a, base, invw)
	}
	// bins of the middle order statistics (0-based ranks h−1 and h for even n, h for odd)
	half := n / 2
	rLo, rHi := half, half
	if n%2 == 0 {
		rLo = half - 1
	}
	jLo, jHi := -1, -1
	cum := 0
	for j, cnt := range h {
		cum += int(cnt)
		if jLo < 0 && cum > rLo {
			jLo = j
		}
		if cum > rHi {
			jHi = j
			break
		}
	}
	if jLo <= 0 || jHi > ppBins {
		return false
	}
	w := 1 / invw
	eps := 1e-9 * (math.Abs(base) + R + lb)
	edgeLo := func(j int) float64 { return base + float64(j-1)*w - eps }
	edgeHi := func(j int) float64 { return base + float64(j)*w + eps }
	L, U := edgeLo(jLo), edgeHi(jHi)
	T := math.Nextafter(lb, 0)
	lo, hi := U-T+eps, L+T-eps // the window, shrunk by the margin
	j0 := max(1, int((lo-base)*invw)-1)
	j1 := min(ppBins, int((hi-base)*invw)+2)
	inside := 0
	for j := j0; j <= j1; j++ {
		if edgeLo(j) > lo && edgeHi(j) < hi {
			inside += int(h[j])
		}
	}
	return inside >= half+1
}

// dot is one row of Project without centre: Σ_j float64(x_j·a_j) in column order.
func dot(x, a []float64) float64 {
	var s float64
	for j, aj := range a {
		s += float64(x[j] * aj)
	}
	return s
}

// binRows adds each row's projection x = dot(z_i, a) to the histogram h: bin 0 below base,
// bin j (1..ppBins) for (x − base)·invw in [j−1, j) (up to rounding), bin ppBins+1 above.
// Four rows at a time, each with its own sum in column order (the same values as dot).
func binRows(h []int32, z []float64, n, d int, a []float64, base, invw float64) {
	bin := func(x float64) int {
		t := min(max((x-base)*invw, -1), ppBins)
		return int(t + 1)
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		r := z[i*d : (i+4)*d : (i+4)*d]
		var s0, s1, s2, s3 float64
		for j, aj := range a {
			s0 += float64(r[j] * aj)
			s1 += float64(r[d+j] * aj)
			s2 += float64(r[2*d+j] * aj)
			s3 += float64(r[3*d+j] * aj)
		}
		h[bin(s0)]++
		h[bin(s1)]++
		h[bin(s2)]++
		h[bin(s3)]++
	}
	for ; i < n; i++ {
		h[bin(dot(z[i*d:(i+1)*d], a))]++
	}
}

// toLanes returns the rows of the n×d table z in groups of four, column-interleaved, the
// layout of binLanesAVX2: row 4g+l's column j at [g·4d + 4j + l]. The n mod 4 last rows are
// left out, and nil is returned when there is no whole group.
func toLanes(z []float64, n, d int) []float64 {
	g := n / 4
	if g == 0 {
		return nil
	}
	lanes := make([]float64, 4*g*d)
	for i := 0; i < 4*g; i++ {
		base := (i/4)*4*d + i%4
		for j, v := range z[i*d : (i+1)*d] {
			lanes[base+4*j] = v
		}
	}
	return lanes
}

// ppCertifiable reports whether madBelow may be used on z: every value finite with
// |z| < ppMaxAbs.
func ppCertifiable(z []float64) bool {
	for _, v := range z {
		if !(math.Abs(v) < ppMaxAbs) {
			return false
		}
	}
	return true
}

// atomicMaxFloat raises the non-negative float64 stored as bits in a to v if v is larger
// (non-negative float64s order as their bit patterns).
func atomicMaxFloat(a *atomic.Uint64, v float64) {
	b := math.Float64bits(v)
	for {
		old := a.Load()
		if old >= b || a.CompareAndSwap(old, b) {
			return
		}
	}
}
