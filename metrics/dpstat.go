package metrics

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Posterior summaries used by the DP metrics (docs/dp.md,
// metrics.md §5): type-7 quantiles, HPD intervals of draws, effective sample sizes and the exact
// Beta-mixture posterior of the binary synthesizer.

// QuantileType7 returns R's type-7 quantile of the sorted sample s at probability u:
// with h = (S−1)u + 1, Q = s_(⌊h⌋) + (h − ⌊h⌋)(s_(⌊h⌋+1) − s_(⌊h⌋)) (metrics.md §0.1).
func QuantileType7(s []float64, u float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	h := float64(len(s)-1) * u
	j := int(math.Floor(h))
	if j >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[j] + (h-float64(j))*(s[j+1]-s[j])
}

// HPDSorted returns coda's HPDinterval of the sorted draws s at the given level (metrics.md
// §5): gap = round(level·S) clipped to [1, S−1], and the window [s_i, s_{i+gap}] of minimal
// width, the smallest i on ties. Cost O(S).
func HPDSorted(s []float64, level float64) (lo, hi float64) {
	S := len(s)
	if S < 2 {
		return math.NaN(), math.NaN()
	}
	gap := min(S-1, max(1, int(math.Round(level*float64(S)))))
	best := 0
	for i := 1; i+gap < S; i++ {
		if s[i+gap]-s[i] < s[best+gap]-s[best] {
			best = i
		}
	}
	return s[best], s[best+gap]
}

// ESSGeyer returns the effective sample size of the chain y by Geyer's initial positive
// sequence (metrics.md §5): ρ̂_t = γ̂_t/γ̂_0 with γ̂_t = (1/S)Σ(y_i − ȳ)(y_{i+t} − ȳ),
// Γ_k = ρ̂_2k + ρ̂_2k+1 summed while positive, τ = −1 + 2ΣΓ_k and ESS = S/max(1, τ), so it is
// capped at S. A constant chain gives NaN. Cost O(S·K) for K lags used, or O(S log S) by FFT
// for S > 512 (sticky chains of 20 000 draws need thousands of lags).
func ESSGeyer(y []float64) float64 {
	S := len(y)
	if S < 2 {
		return math.NaN()
	}
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(S)
	acov := directAcov(y, mean)
	if S > 512 {
		acov = fftAcov(y, mean)
	}
	g0 := acov(0)
	if g0 == 0 {
		return math.NaN()
	}
	sum := 0.0
	for k := 0; 2*k+1 < S; k++ {
		G := (acov(2*k) + acov(2*k+1)) / g0
		if !(G > 0) {
			break
		}
		sum += G
	}
	tau := -1 + 2*sum
	return float64(S) / max(1, tau)
}

// directAcov returns t ↦ γ̂_t = (1/S)Σ_{i<S−t}(y_i − m)(y_{i+t} − m).
func directAcov(y []float64, m float64) func(int) float64 {
	return func(t int) float64 {
		s := 0.0
		for i := 0; i+t < len(y); i++ {
			s += (y[i] - m) * (y[i+t] - m)
		}
		return s / float64(len(y))
	}
}

// fftAcov returns γ̂_t from one FFT of the centred chain zero-padded to a power of two ≥ 2S
// (the Wiener–Khinchin identity), computed once.
func fftAcov(y []float64, m float64) func(int) float64 {
	S := len(y)
	n := 1
	for n < 2*S {
		n <<= 1
	}
	buf := make([]float64, n)
	for i, v := range y {
		buf[i] = v - m
	}
	fft := fourier.NewFFT(n)
	c := fft.Coefficients(nil, buf)
	for i, v := range c {
		c[i] = complex(real(v)*real(v)+imag(v)*imag(v), 0)
	}
	ac := fft.Sequence(buf, c)
	return func(t int) float64 { return ac[t] / float64(n) / float64(S) }
}

// ESSARSpectrum returns coda's effectiveSize of y (docs/dp.md): biased
// autocovariances to lag P = min(N−1, ⌊10·log10 N⌋), Yule–Walker AR(p) fits by
// Levinson–Durbin, p* = argmin N·ln σ²_p + 2p, var_pred = σ²_p*·N/(N − p* − 1),
// S0 = var_pred/(1 − Σφ)² and ESS = N·s²/S0 with s² the (N−1) sample variance. No cap.
func ESSARSpectrum(y []float64) float64 {
	N := len(y)
	if N < 3 {
		return math.NaN()
	}
	P := min(N-1, int(math.Floor(10*math.Log10(float64(N)))))
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(N)
	r := make([]float64, P+1)
	for t := range r {
		for i := 0; i+t < N; i++ {
			r[t] += (y[i] - mean) * (y[i+t] - mean)
		}
		r[t] /= float64(N)
	}
	if r[0] == 0 {
		return math.NaN()
	}
	phi := make([]float64, P+1)
	prev := make([]float64, P+1)
	bestP, bestAIC := 0, float64(N)*math.Log(r[0])
	bestSig, bestSum := r[0], 0.0
	sig := r[0]
	for p := 1; p <= P; p++ {
		acc := r[p]
		for j := 1; j < p; j++ {
			acc -= prev[j] * r[p-j]
		}
		k := acc / sig
		phi[p] = k
		for j := 1; j < p; j++ {
			phi[j] = prev[j] - k*prev[p-j]
		}
		sig *= 1 - k*k
		copy(prev, phi)
		if aic := float64(N)*math.Log(sig) + 2*float64(p); aic < bestAIC {
			bestP, bestAIC, bestSig = p, aic, sig
			bestSum = 0
			for j := 1; j <= p; j++ {
				bestSum += phi[j]
			}
		}
	}
	varPred := bestSig * float64(N) / float64(N-bestP-1)
	s0 := varPred / ((1 - bestSum) * (1 - bestSum))
	s2 := r[0] * float64(N) / float64(N-1)
	return float64(N) * s2 / s0
}

// BetaMixture is the distribution Σ_v W[v]·Beta(A0 + v, AB − A0 − v), v = 0..len(W)−1: the
// form of every exact posterior of DP study (docs/dp.md). The
// components differ by one success, so the CDF and density of all of them at a point follow
// from one regularized incomplete beta by the recurrence
//
//	I_t(a, b) = I_t(a+1, b−1) + Γ(a+b)/(Γ(a+1)Γ(b))·t^a(1−t)^(b−1)
//
// which adds positive terms only. Terms with W[v] < 1e−15 at either end are dropped.
type BetaMixture struct {
	W      []float64
	A0, AB float64
	lo, hi int       // support of the kept components
	lgAB   float64   // lgamma(AB)
	lr     []float64 // lr[v] = log(a_v/b_v)
}

// NewBetaMixture returns the mixture; w must sum to 1 and AB > A0 + len(w) − 1.
func NewBetaMixture(w []float64, a0, ab float64) *BetaMixture {
	m := &BetaMixture{W: w, A0: a0, AB: ab, lo: 0, hi: len(w) - 1}
	for m.lo < m.hi && w[m.lo] < 1e-15 {
		m.lo++
	}
	for m.hi > m.lo && w[m.hi] < 1e-15 {
		m.hi--
	}
	m.lgAB, _ = math.Lgamma(ab)
	m.lr = make([]float64, len(w))
	for v := m.lo; v <= m.hi; v++ {
		a := a0 + float64(v)
		m.lr[v] = math.Log(a / (ab - a))
	}
	return m
}

// Mean returns Σ W[v]·a_v/AB.
func (m *BetaMixture) Mean() float64 {
	s := 0.0
	for v := m.lo; v <= m.hi; v++ {
		s += m.W[v] * (m.A0 + float64(v)) / m.AB
	}
	return s
}

// CDFPDF returns the CDF and the density at t ∈ [0, 1]. Cost one RegIncBeta and O(len(W))
// exp evaluations.
func (m *BetaMixture) CDFPDF(t float64) (F, f float64) {
	if t <= 0 || t >= 1 {
		F = 0
		if t >= 1 {
			F = 1
		}
		for v := m.lo; v <= m.hi; v++ {
			a := m.A0 + float64(v)
			b := m.AB - a
			f += m.W[v] * distuv.Beta{Alpha: a, Beta: b}.Prob(min(1, max(0, t)))
		}
		return F, f
	}
	lt, l1t := math.Log(t), math.Log1p(-t)
	a := m.A0 + float64(m.hi)
	b := m.AB - a
	I := mathext.RegIncBeta(a, b, t)
	la, _ := math.Lgamma(a + 1)
	lb, _ := math.Lgamma(b)
	lT := m.lgAB - la - lb + a*lt + (b-1)*l1t // T_hi
	F = m.W[m.hi] * I
	f = m.W[m.hi] * math.Exp(lT) * a / t
	for v := m.hi - 1; v >= m.lo; v-- {
		lT += m.lr[v+1] + l1t - lt // T_v = T_{v+1}·(a_{v+1}/b_{v+1})·(1−t)/t
		T := math.Exp(lT)
		I += T // I_v = I_{v+1} + T_v
		F += m.W[v] * I
		f += m.W[v] * T * (m.A0 + float64(v)) / t
	}
	return min(1, F), f
}

// Quantile returns F⁻¹(u) by safeguarded Newton steps inside a bisection bracket, to an
// absolute tolerance of 1e−12 in t (the spec's bisection to 1e−10 gives the same value).
// Quantile(0) = 0 and Quantile(1) = 1.
func (m *BetaMixture) Quantile(u float64) float64 { return m.quantile(u, -1) }

func (m *BetaMixture) quantile(u, start float64) float64 {
	if u <= 0 {
		return 0
	}
	if u >= 1 {
		return 1
	}
	lo, hi := 0.0, 1.0
	t := start
	if !(t > 0 && t < 1) {
		t = m.Mean()
	}
	for it := 0; it < 200; it++ {
		F, f := m.CDFPDF(t)
		if F < u {
			lo = t
		} else {
			hi = t
		}
		if F == u || hi-lo < 1e-12 {
			break
		}
		next := t - (F-u)/f
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-t) < 1e-13 {
			t = next
			break
		}
		t = next
	}
	return t
}

// HPD returns the shortest interval [Q(u), Q(u+level)] over u ∈ [0, 1−level] (§5.1). For a
// unimodal density its width W(u) has W′(u) = 1/f(Q(u+level)) − 1/f(Q(u)), decreasing in
// f(Q(u+level)) − f(Q(u)); the minimum is the root of that difference, found by the Illinois
// method to 1e−10 in u. This is the golden-section minimum of the spec in about a fifth of
// the quantile evaluations.
func (m *BetaMixture) HPD(level float64) (lo, hi float64) {
	qlo, qhi := 0.0, m.Mean()
	h := func(u float64) float64 {
		qlo = m.quantile(u, qlo)
		qhi = m.quantile(u+level, qhi)
		_, flo := m.CDFPDF(qlo)
		_, fhi := m.CDFPDF(qhi)
		return fhi - flo
	}
	a, b := 0.0, 1-level
	ha := h(a)
	if ha <= 0 {
		return 0, m.quantile(level, -1)
	}
	hb := h(b)
	if hb >= 0 {
		return m.quantile(b, -1), 1
	}
	side := 0
	for it := 0; it < 100 && b-a > 1e-10; it++ {
		u := a + ha*(b-a)/(ha-hb) // Illinois: regula falsi with the stale end's value halved
		if !(u > a && u < b) {
			u = (a + b) / 2
		}
		hu := h(u)
		switch {
		case hu == 0:
			a, b = u, u
		case hu > 0:
			a, ha = u, hu
			if side == 1 {
				hb /= 2
			}
			side = 1
		default:
			b, hb = u, hu
			if side == -1 {
				ha /= 2
			}
			side = -1
		}
	}
	u := (a + b) / 2
	return m.quantile(u, qlo), m.quantile(u+level, qhi)
}
