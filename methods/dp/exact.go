package dp

import "math"

// ExactBinary computes the exact posterior of Charest's binary model (charest_exact, §5.1)
// given the synthetic counts xt of M = len(xt) copies of size nt, the confidential size n,
// the synthesizer's α and the Beta(g1, g2) prior. It writes w(x), x = 0..n, normalized to sum
// 1, into w (len n+1; nil allocates) and returns it:
//
//	log w(x) = lchoose(n,x) + lbeta(γ1+x, γ2+n−x)
//	         + Σ_m [lbeta(α+(x+x̃_m), α+((n−x)+(nt−x̃_m))) − lbeta(α+x, α+(n−x))]
//
// The posterior of p is the mixture Σ_x w(x)·Beta(γ1+x, γ2+n−x). Integer parts are summed
// before α is added, so the weights stay finite at ε = 250 (α ≈ 1e−107). The constant
// lgamma terms of the Beta normalizers are dropped. Cost O(n + nt) lgamma evaluations and
// O(n·M) additions.
func ExactBinary(w []float64, xt []int, n, nt int, alpha, g1, g2 float64) []float64 {
	if w == nil {
		w = make([]float64, n+1)
	}
	if len(w) != n+1 {
		panic("dp: ExactBinary: len(w) != n+1")
	}
	// Tables of lgamma(α + k), k = 0..n+nt, and of the prior and binomial terms: O(n + nt)
	// lgamma calls, then O(n·M) additions.
	la := make([]float64, n+nt+1)
	for k := range la {
		la[k] = lgamma(alpha + float64(k))
	}
	M := float64(len(xt))
	lgn, lg12 := lgamma(float64(n+1)), lgamma(g1+g2+float64(n))
	for x := 0; x <= n; x++ {
		l := lgn - lgamma(float64(x+1)) - lgamma(float64(n-x+1)) +
			lgamma(g1+float64(x)) + lgamma(g2+float64(n-x)) - lg12
		for _, v := range xt {
			l += la[x+v] + la[(n-x)+(nt-v)]
		}
		l -= M * (la[x] + la[n-x])
		w[x] = l
	}
	normalizeLog(w)
	return w
}

// MixtureMoments returns the mean and variance of Σ_x w(x)·Beta(a0+x, ab−a0−x), the form of
// every posterior mixture of this package (ab = a + b is the same for every component):
//
//	E = Σ w·a/ab,  Var = Σ w·[a·b/(ab²(ab+1)) + (a/ab)²] − E²
func MixtureMoments(w []float64, a0, ab float64) (mean, variance float64) {
	var m2 float64
	for x, wx := range w {
		if wx == 0 {
			continue
		}
		a := a0 + float64(x)
		b := ab - a
		mu := a / ab
		mean += wx * mu
		m2 += wx * (a*b/(ab*ab*(ab+1)) + mu*mu)
	}
	return mean, math.Max(0, m2-mean*mean)
}

// ArgMax returns the index of the largest element (the first on ties).
func ArgMax(w []float64) int {
	best := 0
	for i, v := range w {
		if v > w[best] {
			best = i
		}
	}
	return best
}
