package dp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Chain holds the run lengths of an MCMC sampler: Burn iterations are discarded, then
// Keep·Thin iterations run and every Thin-th state is stored. The binary default (§5.3,
// L1205–1206) is {Burn: 1000, Keep: 1000, Thin: 20}; the L-tuning study (E1) uses
// {1000, 1000, 1}.
type Chain struct {
	Burn, Keep, Thin int
}

// Iterations returns Burn + Keep·Thin.
func (c Chain) Iterations() int { return c.Burn + c.Keep*c.Thin }

// Validate reports a negative burn-in or a Keep or Thin below 1.
func (c Chain) Validate() error {
	if c.Burn < 0 || c.Keep < 1 || c.Thin < 1 {
		return invalid("chain settings burn=%d keep=%d thin=%d: want burn ≥ 0, keep ≥ 1, thin ≥ 1", c.Burn, c.Keep, c.Thin)
	}
	return nil
}

// BinaryDraws is the output of a binary sampler.
type BinaryDraws struct {
	P        []float64 // stored draws of p, len Keep
	X        []int     // stored states of x, len Keep
	Accepted int       // MH-L: accepted candidates after burn-in (a candidate equal to x counts)
	Proposed int       // MH-L: proposals after burn-in (candidates outside 0..n count)
}

// BinarySampler runs Charest's samplers (Algorithms 3 and 4) for one configuration (n, nt,
// M, α, prior). Its tables depend only on the configuration, so one sampler serves every
// replicate; Gibbs and MHL then allocate nothing. A BinarySampler is not safe for
// concurrent use.
type BinarySampler struct {
	n, nt, M   int
	alpha      float64
	g1, g2     float64
	c, dc, edc []float64 // log π(x) without the p, p̃ terms; its differences and their exp
	fast       bool      // every |dc| < 300, so exp(dc + D) neither over- nor underflows for |D| < 300
	w          []float64 // x-step weights
	mode       int       // the last mode of the x-step
}

// NewBinarySampler precomputes, for x = 0..n,
//
//	c(x) = −lgamma(x+1) − lgamma(n−x+1) − M·[lgamma(α+x) + lgamma(α+(n−x))]
//
// so that log π(x | p, p̃) = c(x) + x·A + (n−x)·B + const with A = log p + Σ_m log p̃_m and
// B = log(1−p) + Σ_m log(1−p̃_m) (§5, full conditional of x with the support 0..n). Cost
// O(n) lgamma evaluations.
func NewBinarySampler(n, nt, M int, alpha, g1, g2 float64) *BinarySampler {
	s := &BinarySampler{n: n, nt: nt, M: M, alpha: alpha, g1: g1, g2: g2,
		c: make([]float64, n+1), dc: make([]float64, n), edc: make([]float64, n), w: make([]float64, n+1)}
	for x := 0; x <= n; x++ {
		s.c[x] = -lgamma(float64(x+1)) - lgamma(float64(n-x+1)) -
			float64(M)*(lgamma(alpha+float64(x))+lgamma(alpha+float64(n-x)))
	}
	s.fast = true
	for x := 0; x < n; x++ {
		s.dc[x] = s.c[x+1] - s.c[x]
		s.edc[x] = math.Exp(s.dc[x])
		if !(math.Abs(s.dc[x]) < 300) {
			s.fast = false
		}
	}
	return s
}

// conditionals draws p and every p̃_m given x (steps 1–2 of Algorithms 3 and 4):
//
//	p | · ~ Beta(γ1 + x, γ2 + n − x),  p̃_m | · ~ Beta(α + x + x̃_m, α + n − x + nt − x̃_m)
//
// and returns p and the sums A = log p + Σ log p̃_m, B = log(1−p) + Σ log(1−p̃_m). Each Beta
// is two gonum distuv.Gamma draws, the construction of distuv.Beta.Rand, so that 1 − p̃ is
// gb/(ga+gb) and exact at the boundaries (a shape of 1e−107 gives a Gamma of exactly 0 and
// log p̃ = −Inf, which is valid, §3 Numerics). The products of the ratios are accumulated and
// their log taken once, flushed to the sums before they can underflow: two logs per
// iteration instead of 2(M+1).
func (s *BinarySampler) conditionals(xt []int, x int, rng *rand.Rand) (p, A, B float64) {
	ga := distuv.Gamma{Alpha: s.g1 + float64(x), Beta: 1, Src: rng}.Rand()
	gb := distuv.Gamma{Alpha: s.g2 + float64(s.n-x), Beta: 1, Src: rng}.Rand()
	p = ga / (ga + gb)
	pa, pb := p, gb/(ga+gb)
	for _, v := range xt {
		ga = distuv.Gamma{Alpha: s.alpha + float64(x+v), Beta: 1, Src: rng}.Rand()
		gb = distuv.Gamma{Alpha: s.alpha + float64((s.n-x)+(s.nt-v)), Beta: 1, Src: rng}.Rand()
		pa *= ga / (ga + gb)
		pb *= gb / (ga + gb)
		if pa < 1e-250 || pb < 1e-250 {
			A += math.Log(pa)
			B += math.Log(pb)
			pa, pb = 1, 1
		}
	}
	return p, A + math.Log(pa), B + math.Log(pb)
}

// logPi returns log π(x) up to a constant; a zero coefficient times −Inf counts as 0.
func (s *BinarySampler) logPi(x int, A, B float64) float64 {
	l := s.c[x]
	if x > 0 {
		l += float64(x) * A
	}
	if x < s.n {
		l += float64(s.n-x) * B
	}
	return l
}

// initX is x⁰ = clamp(round(n·mean_m(x̃_m)/nt), 0, n) (§5.2).
func (s *BinarySampler) initX(xt []int) int {
	sum := 0
	for _, v := range xt {
		sum += v
	}
	x := int(math.Round(float64(s.n) * float64(sum) / float64(len(xt)) / float64(s.nt)))
	return min(s.n, max(0, x))
}

// sampleX draws x from π(x) ∝ exp(c(x) + x·A + (n−x)·B), x = 0..n, by inverse CDF. log π is
// concave in x, so the fast path finds the mode (the first x with c(x+1) − c(x) + A − B < 0,
// searched from the previous mode), walks outward multiplying ratios exp(dc(x))·exp(A − B)
// until a weight falls below 1e−15 of the mode's, and inverts the CDF from the mode outward:
// one exp per call instead of n+1.
func (s *BinarySampler) sampleX(x int, A, B float64, rng *rand.Rand) int {
	n := s.n
	switch {
	case math.IsInf(A, -1) && math.IsInf(B, -1):
		return x // degenerate (p̃ at both 0 and 1): no finite weight
	case math.IsInf(A, -1):
		return 0
	case math.IsInf(B, -1):
		return n
	}
	D := A - B
	w := s.w
	lo, hi := 0, n
	sum := 0.0
	if s.fast && math.Abs(D) < 300 {
		// mode = smallest x with dc(x) + D < 0 (dc is decreasing), or n: a local search from
		// the previous mode, which moves little between iterations.
		mode := min(s.mode, n)
		for mode < n && s.dc[mode]+D >= 0 {
			mode++
		}
		for mode > 0 && s.dc[mode-1]+D < 0 {
			mode--
		}
		s.mode = mode
		r := math.Exp(D)
		w[mode] = 1
		up := 1.0 // mass at and above the mode
		for v, k := 1.0, mode; k < n; k++ {
			v *= s.edc[k] * r
			if v < 1e-15 {
				break
			}
			w[k+1] = v
			up += v
			hi = k + 1
		}
		down := 0.0
		for v, k := 1.0, mode; k > 0; k-- {
			v /= s.edc[k-1] * r
			if v < 1e-15 {
				break
			}
			w[k-1] = v
			down += v
			lo = k - 1
		}
		// Inverse CDF from the mode outward: a few steps instead of a scan from lo.
		u := rng.Float64() * (up + down)
		if u < up {
			for k := mode; k <= hi; k++ {
				u -= w[k]
				if u < 0 {
					return k
				}
			}
			return hi
		}
		u -= up
		for k := mode - 1; k >= lo; k-- {
			u -= w[k]
			if u < 0 {
				return k
			}
		}
		return lo
	}
	mx := math.Inf(-1)
	for k := 0; k <= n; k++ {
		w[k] = s.c[k] + float64(k)*D
		mx = max(mx, w[k])
	}
	for k := 0; k <= n; k++ {
		w[k] = math.Exp(w[k] - mx)
		sum += w[k]
	}
	u := rng.Float64() * sum
	for k := lo; k <= hi; k++ {
		u -= w[k]
		if u < 0 {
			return k
		}
	}
	return hi
}

func (s *BinarySampler) check(dst *BinaryDraws, xt []int, set Chain) {
	if len(xt) != s.M || len(dst.P) != set.Keep || len(dst.X) != set.Keep {
		panic("dp: BinarySampler: xt or draws of the wrong length")
	}
}

// Gibbs runs Algorithm 3 (charest_gibbs, §5.2, L737–797) on the synthetic counts xt and
// stores Keep draws of (p, x) in dst (dst.P and dst.X must have len Keep). Each iteration
// draws p, every p̃_m, then x from its full conditional on 0..n given the current p and p̃.
// Cost O(Iterations·(M + spread of x)); no allocations.
func (s *BinarySampler) Gibbs(dst *BinaryDraws, xt []int, set Chain, rng *rand.Rand) {
	s.check(dst, xt, set)
	x := s.initX(xt)
	k := 0
	for t := 0; t < set.Iterations(); t++ {
		p, A, B := s.conditionals(xt, x, rng)
		x = s.sampleX(x, A, B, rng)
		if t >= set.Burn && (t-set.Burn+1)%set.Thin == 0 {
			dst.P[k], dst.X[k] = p, x
			k++
		}
	}
	dst.Accepted, dst.Proposed = 0, 0
}

// MHLProposal selects the Metropolis proposal of charest_mhl.
type MHLProposal int

const (
	// RoundedUniform is x_c = x + round(U(−L, L)) with U continuous (the default, L830):
	// P(x_c − x = j) = 1/(2L) for |j| < L and 1/(4L) for j = ±L. It is symmetric.
	RoundedUniform MHLProposal = iota
	// DiscreteExcl is uniform on {y ∈ 0..n : 1 ≤ |y − x| ≤ L} with the Hastings ratio
	// |N(x)|/|N(x_c)| (L856–861).
	DiscreteExcl
)

// MHL runs Algorithm 4 (charest_mhl, §5.3, L799–863): Gibbs steps for p and p̃, then one
// Metropolis step for x with step size L and the corrected acceptance log u ≤ log π(x_c) −
// log π(x) (the seed writes "τ ≤ u", L845). Candidates outside 0..n are rejected and count
// as proposals. dst.Accepted/dst.Proposed count the post-burn-in iterations. No allocations.
func (s *BinarySampler) MHL(dst *BinaryDraws, xt []int, set Chain, L int, prop MHLProposal, rng *rand.Rand) {
	s.check(dst, xt, set)
	if L < 1 {
		panic("dp: MHL: L < 1")
	}
	n := s.n
	x := s.initX(xt)
	k, acc, tot := 0, 0, 0
	for t := 0; t < set.Iterations(); t++ {
		p, A, B := s.conditionals(xt, x, rng)
		var xc int
		logH := 0.0
		if prop == RoundedUniform {
			xc = x + roundedUniformStep(rng.Float64(), L)
		} else {
			nx := neighbours(x, n, L)
			j := rng.IntN(nx)
			// The j-th element of {x−L..x−1, x+1..x+L} ∩ 0..n.
			lo := max(0, x-L)
			if j < x-lo {
				xc = lo + j
			} else {
				xc = x + 1 + (j - (x - lo))
			}
			logH = math.Log(float64(nx)) - math.Log(float64(neighbours(xc, n, L)))
		}
		ok := false
		if xc >= 0 && xc <= n {
			d := s.logPi(xc, A, B) - s.logPi(x, A, B) + logH
			if xc == x || math.Log(rng.Float64()) <= d {
				ok = true
				x = xc
			}
		}
		if t >= set.Burn {
			tot++
			if ok {
				acc++
			}
			if (t-set.Burn+1)%set.Thin == 0 {
				dst.P[k], dst.X[k] = p, x
				k++
			}
		}
	}
	dst.Accepted, dst.Proposed = acc, tot
}

// neighbours returns |{y ∈ 0..n : 1 ≤ |y − x| ≤ L}|.
func neighbours(x, n, L int) int { return min(n, x+L) - max(0, x-L) }

// roundedUniformStep maps u ~ U(0, 1) to round(U(−L, L)) = round((2u − 1)·L).
func roundedUniformStep(u float64, L int) int { return int(math.Round((2*u - 1) * float64(L))) }
