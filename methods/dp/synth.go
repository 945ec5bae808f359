package dp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// SynthBinary draws M = len(dst) Beta-Binomial copies (bb_synth, Algorithm 2, L588–601) from
// the confidential count x of ones among n records and stores the synthetic counts in dst:
//
//	p̃_m ~ Beta(α + x, α + (n − x)),  x̃_m ~ Binomial(nt, p̃_m)
//
// Shapes are built as α + (integer), so that at ε = 250 (α ≈ 1e−107) a shape of n − x = 0
// stays α and not 0. It panics if x ∉ [0, n] or α ≤ 0 (callers validate). Cost O(M).
func SynthBinary(dst []int, x, n, nt int, alpha float64, rng *rand.Rand) {
	if x < 0 || x > n || !(alpha > 0) {
		panic("dp: SynthBinary: bad arguments")
	}
	for m := range dst {
		pt := distuv.Beta{Alpha: alpha + float64(x), Beta: alpha + float64(n-x), Src: rng}.Rand()
		dst[m] = int(distuv.Binomial{N: float64(nt), P: pt, Src: rng}.Rand())
	}
}

// SynthCategorical draws M = len(dst) Dirichlet-Multinomial copies (dm_synth, Algorithm 1,
// L538–548) from the confidential counts x (one per category), writing copy m into dst[m]
// (each of length len(x)):
//
//	p̃_m ~ Dirichlet(α·1 + x),  x̃_m ~ Multinomial(nt, p̃_m)
//
// The Dirichlet draw is Dirichlet; the multinomial is Multinomial.
func SynthCategorical(dst [][]int, x []int, nt int, alpha float64, rng *rand.Rand) {
	pt := make([]float64, len(x))
	for m := range dst {
		Dirichlet(pt, alpha, x, rng)
		Multinomial(dst[m], nt, pt, rng)
	}
}

// Dirichlet draws dst ~ Dirichlet(α + x_i, i = 1..C) as normalized gonum distuv.Gamma draws,
// exactly the construction of gonum's distmv.Dirichlet.Rand. (distmv itself is not imported:
// it pulls golang.org/x/tools, which the module does not require, and NewDirichlet copies its
// parameters on every call.) A component with a tiny shape may be exactly 0 (§3 Numerics).
// It returns the sum of the Gammas. No allocations.
func Dirichlet(dst []float64, alpha float64, x []int, rng *rand.Rand) float64 {
	s := 0.0
	for i, v := range x {
		dst[i] = distuv.Gamma{Alpha: alpha + float64(v), Beta: 1, Src: rng}.Rand()
		s += dst[i]
	}
	for i := range dst {
		dst[i] /= s
	}
	return s
}

// Multinomial draws dst ~ Multinomial(n, p) by sequential conditional binomials (gonum's
// distuv.Binomial): dst_i ~ Bin(n − Σ_{j<i} dst_j, p_i/(1 − Σ_{j<i} p_j)). p need not be
// normalized exactly; the last category takes the remainder. Cost O(C) binomial draws.
func Multinomial(dst []int, n int, p []float64, rng *rand.Rand) {
	rest := 0.0
	for _, v := range p {
		rest += v
	}
	left := n
	for i := 0; i < len(p)-1; i++ {
		k := 0
		if left > 0 && rest > 0 {
			q := min(1, max(0, p[i]/rest))
			switch q {
			case 0:
			case 1:
				k = left
			default:
				k = int(distuv.Binomial{N: float64(left), P: q, Src: rng}.Rand())
			}
		}
		dst[i] = k
		left -= k
		rest -= p[i]
	}
	dst[len(p)-1] = left
}

// LaplaceCounts releases M noisy copies of the counts x (laplace_counts, §2): copy m, cell i
// is y_mi = x_i + Lap(0, Δ·M/ε), drawn with gonum's distuv.Laplace. dst[m] must have
// len(x) elements.
func LaplaceCounts(dst [][]float64, x []int, eps float64, M int, delta float64, rng *rand.Rand) {
	lap := distuv.Laplace{Mu: 0, Scale: delta * float64(M) / eps, Src: rng}
	for m := range dst {
		for i, v := range x {
			dst[m][i] = float64(v) + lap.Rand()
		}
	}
}

// LaplaceNaive returns the naive estimate of the proportions from Laplace copies: the mean
// count per cell, clamped at 0 and renormalized for C > 2 categories; for one binary cell
// (len(x) = 1) p̂ = clamp(ȳ/n, 0, 1).
func LaplaceNaive(y [][]float64, n int) []float64 {
	C := len(y[0])
	out := make([]float64, C)
	for _, row := range y {
		for i, v := range row {
			out[i] += v / float64(len(y))
		}
	}
	if C == 1 {
		out[0] = min(1, max(0, out[0]/float64(n)))
		return out
	}
	s := 0.0
	for i := range out {
		out[i] = max(0, out[i])
		s += out[i]
	}
	for i := range out {
		if s > 0 {
			out[i] /= s
		} else {
			out[i] = 1 / float64(C)
		}
	}
	return out
}

// LaplaceBayes returns the exact posterior of the binary Laplace baseline (§2) as weights
// w(x), x = 0..n, of the mixture of Beta(γ1 + x, γ2 + n − x):
//
//	w(x) ∝ BB(x; n, γ1, γ2)·∏_m exp(−ε|y_m − x|/(ΔM))
//
// Cost O(n·M).
func LaplaceBayes(y []float64, n int, eps, delta, g1, g2 float64) []float64 {
	M := float64(len(y))
	w := make([]float64, n+1)
	lgn, _ := math.Lgamma(float64(n + 1))
	for x := 0; x <= n; x++ {
		l := lgn - lgamma(float64(x+1)) - lgamma(float64(n-x+1)) + lbeta(g1+float64(x), g2+float64(n-x))
		for _, v := range y {
			l -= eps * math.Abs(v-float64(x)) / (delta * M)
		}
		w[x] = l
	}
	normalizeLog(w)
	return w
}

// Rubin holds Rubin's combining rules for one proportion (§4, L262–311).
type Rubin struct {
	QBar float64 // mean of q_m = x̃_m/nt
	B    float64 // between-copy variance (M − 1 denominator; 0 when M = 1)
	VBar float64 // mean within-copy variance q_m(1 − q_m)/nt
	T    float64 // total variance: rubin_mi (1 + 1/M)b + v̄; rubin_fs (1 + 1/M)b − v̄, or (nt/n)v̄ if ≤ 0
}

// CombineRubin applies Rubin's rules to the synthetic counts xt of one cell (copy size nt,
// confidential size n). fullySynthetic selects rubin_fs (Raghunathan, Reiter & Rubin 2003)
// with Reiter's (2002) fallback T* = (nt/n)·v̄ when T ≤ 0; otherwise rubin_mi.
func CombineRubin(xt []int, nt, n int, fullySynthetic bool) Rubin {
	M := float64(len(xt))
	var r Rubin
	for _, v := range xt {
		q := float64(v) / float64(nt)
		r.QBar += q / M
		r.VBar += q * (1 - q) / float64(nt) / M
	}
	if len(xt) > 1 {
		for _, v := range xt {
			d := float64(v)/float64(nt) - r.QBar
			r.B += d * d / (M - 1)
		}
	}
	if fullySynthetic {
		r.T = (1+1/M)*r.B - r.VBar
		if r.T <= 0 {
			r.T = float64(nt) / float64(n) * r.VBar
		}
	} else {
		r.T = (1+1/M)*r.B + r.VBar
	}
	return r
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// lbeta is lgamma(a) + lgamma(b) − lgamma(a+b); library lbeta routines may return ±Inf for
// tiny arguments (§3 Numerics).
func lbeta(a, b float64) float64 { return lgamma(a) + lgamma(b) - lgamma(a+b) }

// normalizeLog turns log-weights into weights summing to 1, in place.
func normalizeLog(w []float64) {
	mx := math.Inf(-1)
	for _, v := range w {
		mx = max(mx, v)
	}
	s := 0.0
	for i, v := range w {
		w[i] = math.Exp(v - mx)
		s += w[i]
	}
	for i := range w {
		w[i] /= s
	}
}
