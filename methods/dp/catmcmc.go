package dp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// CatDraws is the output of a categorical sampler: per category i, Draws[i] holds the stored
// values used for intervals and ESS (draws of p_i for dm_alg6; the Rao-Blackwellised
// (γ + x_i)/(Cγ + N) for dm_collapsed) and, for dm_collapsed, Hist[i][v] counts the stored
// states with x_i = v (the mixture of §6.3).
type CatDraws struct {
	Draws    [][]float64
	Hist     [][]float64
	Accepted int // accepted proposals after burn-in
	Proposed int // proposals after burn-in
}

// initState is x⁰ ∝ mean_m x̃_m by largest remainder (§6.2).
func (m *CatModel) initState() []int {
	C := m.C()
	w := make([]float64, C)
	for _, row := range m.XT {
		for i, v := range row {
			w[i] += float64(v)
		}
	}
	x := make([]int, C)
	LargestRemainder(x, w, m.N)
	return x
}

// Collapsed runs dm_collapsed (§6.3): a random-walk Metropolis chain on the composition x with
// p and p̃ integrated out, targeting w(x) = exp(Σ_i L_i(x_i)). Each step picks an ordered pair
// i ≠ j and d uniform in 1..D, proposes x_i − d, x_j + d (rejected if x_i < d) and accepts
// with probability min(1, w(x′)/w(x)); with the tables of LogTables a step costs O(1). It
// runs burn + keep iterations, storing every state after burn-in. D ≤ 0 means
// max(1, round(√N/2)).
func (m *CatModel) Collapsed(burn, keep, D int, rng *rand.Rand) CatDraws {
	L := m.LogTables()
	C, n := m.C(), m.N
	if D <= 0 {
		D = max(1, int(math.Round(math.Sqrt(float64(n))/2)))
	}
	out := CatDraws{Draws: make([][]float64, C), Hist: make([][]float64, C)}
	for i := range out.Draws {
		out.Draws[i] = make([]float64, keep)
		out.Hist[i] = make([]float64, n+1)
	}
	x := m.initState()
	den := float64(C)*m.Gamma + float64(n)
	for t := 0; t < burn+keep; t++ {
		i := rng.IntN(C)
		j := rng.IntN(C - 1)
		if j >= i {
			j++
		}
		d := 1 + rng.IntN(D)
		ok := false
		if x[i] >= d {
			delta := L[i][x[i]-d] - L[i][x[i]] + L[j][x[j]+d] - L[j][x[j]]
			if delta >= 0 || math.Log(rng.Float64()) <= delta {
				x[i] -= d
				x[j] += d
				ok = true
			}
		}
		if t >= burn {
			out.Proposed++
			if ok {
				out.Accepted++
			}
			k := t - burn
			for c, v := range x {
				out.Draws[c][k] = (m.Gamma + float64(v)) / den
				out.Hist[c][v]++
			}
		}
	}
	return out
}

// Alg6 holds the settings of the seed's sampler (dm_alg6, §6.2, L1091–1146).
type Alg6 struct {
	Iter, Burn int  // total iterations and burn-in (default 30 000 and 10 000)
	Ponto      int  // adaptation period (default 500)
	Always     bool // adapt for ever (the seed's literal choice) instead of during burn-in only
	PtGamma    bool // diagnostic: draw p̃_m ~ Dir(γ + x + x̃_m) as printed (L1053, L1109)
}

// Run runs Algorithm 6 with the fixes of §6.2. Per iteration t = 1..Iter:
//
//	p   ← Dir(γ + x);   p̃_m ← Dir(α + x + x̃_m)
//	if t mod Ponto = 0 and (Always or t ≤ Burn): β ← mean of the last Ponto draws of p,
//	    floored at 1e−12 and renormalized
//	x_c ~ Mult(N, β)  (β = 1/C at the start), accepted iff
//	log u ≤ [log π(x_c) − log π(x)] + [log q(x) − log q(x_c)]
//
// with log π(y) = Σ_i [y_i log p_i − lgamma(y_i+1)] + Σ_m Σ_i [(α + y_i − 1) log p̃_im −
// lgamma(α + y_i)] and log q(y) = Σ_i [y_i log β_i − lgamma(y_i+1)]. The p draws of the
// iterations after Burn are stored. Cost O(Iter·C·(M + 1)) Gamma draws plus C binomials.
func (a Alg6) Run(m *CatModel, rng *rand.Rand) CatDraws {
	C, n, M := m.C(), m.N, len(m.XT)
	keep := a.Iter - a.Burn
	out := CatDraws{Draws: make([][]float64, C)}
	for i := range out.Draws {
		out.Draws[i] = make([]float64, keep)
	}
	lgf := make([]float64, n+1) // lgamma(v+1)
	lga := make([]float64, n+1) // lgamma(α+v)
	for v := 0; v <= n; v++ {
		lgf[v] = lgamma(float64(v + 1))
		lga[v] = lgamma(m.Alpha + float64(v))
	}
	x := m.initState()
	xc := make([]int, C)
	p := make([]float64, C)
	S := make([]float64, C) // log p_i + Σ_m log p̃_im
	beta := make([]float64, C)
	logBeta := make([]float64, C)
	win := make([]float64, C)
	nwin := 0
	for i := range beta {
		beta[i] = 1 / float64(C)
		logBeta[i] = math.Log(beta[i])
	}
	logPi := func(y []int) float64 {
		l := 0.0
		for i, v := range y {
			if v > 0 {
				l += float64(v) * S[i]
			}
			l -= lgf[v] + float64(M)*lga[v]
		}
		return l
	}
	logQ := func(y []int) float64 {
		l := 0.0
		for i, v := range y {
			if v > 0 {
				l += float64(v) * logBeta[i]
			}
			l -= lgf[v]
		}
		return l
	}
	ptShape := m.Alpha
	if a.PtGamma {
		ptShape = m.Gamma
	}
	for t := 1; t <= a.Iter; t++ {
		logDirichlet(p, S, m.Gamma, x, nil, rng, false)
		for _, row := range m.XT {
			logDirichlet(nil, S, ptShape, x, row, rng, true)
		}
		for i := range win {
			win[i] += p[i]
		}
		nwin++
		if t%a.Ponto == 0 && (a.Always || t <= a.Burn) {
			s := 0.0
			for i := range beta {
				beta[i] = max(1e-12, win[i]/float64(nwin))
				s += beta[i]
			}
			for i := range beta {
				beta[i] /= s
				logBeta[i] = math.Log(beta[i])
				win[i] = 0
			}
			nwin = 0
		}
		Multinomial(xc, n, beta, rng)
		d := logPi(xc) - logPi(x) + logQ(x) - logQ(xc)
		ok := math.Log(rng.Float64()) <= d
		if ok {
			copy(x, xc)
		}
		if t > a.Burn {
			out.Proposed++
			if ok {
				out.Accepted++
			}
			for i := range p {
				out.Draws[i][t-a.Burn-1] = p[i]
			}
		}
	}
	return out
}

// logDirichlet draws q ~ Dir(shape + x_i + add_i) (add may be nil) as normalized gonum Gamma
// draws and adds log q_i to S_i (or sets S_i when accumulate is false); p, if not nil,
// receives q.
func logDirichlet(p, S []float64, shape float64, x, add []int, rng *rand.Rand, accumulate bool) {
	sum := 0.0
	var g [64]float64 // C ≤ 64 on the stack; larger C allocates
	gs := g[:0]
	if len(x) > len(g) {
		gs = make([]float64, 0, len(x))
	}
	for i, v := range x {
		k := v
		if add != nil {
			k += add[i]
		}
		gi := distuv.Gamma{Alpha: shape + float64(k), Beta: 1, Src: rng}.Rand()
		gs = append(gs, gi)
		sum += gi
	}
	ls := math.Log(sum)
	for i, gi := range gs {
		l := math.Log(gi) - ls
		if accumulate {
			S[i] += l
		} else {
			S[i] = l
		}
		if p != nil {
			p[i] = gi / sum
		}
	}
}
