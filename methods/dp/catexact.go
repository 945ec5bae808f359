package dp

import (
	"math"
	"sort"
)

// CatModel is what the analyst of a categorical release sees (§6): the synthetic counts
// XT[m][i] of M copies of size NT over C categories, the confidential size N, the
// synthesizer's per-category α and the Dirichlet(Gamma, …, Gamma) prior.
type CatModel struct {
	XT    [][]int
	N, NT int
	Alpha float64
	Gamma float64
}

// C returns the number of categories.
func (m *CatModel) C() int { return len(m.XT[0]) }

// Validate checks the shape of XT, that every copy sums to NT, and the positivity of α and γ.
func (m *CatModel) Validate() error {
	if len(m.XT) == 0 || len(m.XT[0]) < 2 {
		return invalid("need at least one copy of at least 2 categories")
	}
	for k, row := range m.XT {
		if len(row) != len(m.XT[0]) {
			return invalid("copy %d has %d categories, copy 1 has %d", k+1, len(row), len(m.XT[0]))
		}
		if err := CheckCounts(row, m.NT); err != nil {
			return err
		}
	}
	if !(m.Alpha > 0) || !(m.Gamma > 0) {
		return invalid("α and γ must be > 0 (got %v, %v)", m.Alpha, m.Gamma)
	}
	return nil
}

// LogTables returns, per category i and value v = 0..N, the log of the collapsed weight
// factor of §6.1:
//
//	L_i(v) = lgamma(γ + v) − lgamma(v + 1) + Σ_m [lgamma(α + (v + x̃_im)) − lgamma(α + v)]
//
// so that log w(x) = Σ_i L_i(x_i) + const over the compositions x of N. Cost O(C·N·M).
func (m *CatModel) LogTables() [][]float64 {
	C, n := m.C(), m.N
	L := make([][]float64, C)
	M := float64(len(m.XT))
	for i := range L {
		L[i] = make([]float64, n+1)
		for v := 0; v <= n; v++ {
			l := lgamma(m.Gamma+float64(v)) - lgamma(float64(v+1)) - M*lgamma(m.Alpha+float64(v))
			for _, row := range m.XT {
				l += lgamma(m.Alpha + float64(v+row[i]))
			}
			L[i][v] = l
		}
	}
	return L
}

// DMExact returns the exact marginal posterior of each x_i (dm_exact, §6.1): W[i][v] is
// P(x_i = v | x̃), v = 0..N, so that p_i | x̃ ~ Σ_v W[i][v]·Beta(γ + v, (C−1)γ + N − v).
//
// The spec enumerates the C(N+C−1, C−1) compositions of N; this computes the same marginals
// exactly by convolution: with e_i(v) = exp(L_i(v) − max L_i),
//
//	P(x_i = v) ∝ e_i(v) · (∗_{j≠i} e_j)(N − v)
//
// from prefix and suffix convolutions, in O(C·N²) time and O(C·N) memory, so that it is
// feasible for every scenario of the spec (n = 500 with C = 16, SUSEP with 4·10¹⁰ states).
func (m *CatModel) DMExact() [][]float64 {
	L := m.LogTables()
	C, n := len(L), m.N
	e := make([][]float64, C)
	for i, li := range L {
		e[i] = make([]float64, n+1)
		mx := math.Inf(-1)
		for _, v := range li {
			mx = max(mx, v)
		}
		for v, l := range li {
			e[i][v] = math.Exp(l - mx)
		}
	}
	delta := make([]float64, n+1)
	delta[0] = 1
	pre := make([][]float64, C+1) // pre[k] = e_0 ∗ … ∗ e_{k−1}
	suf := make([][]float64, C+1) // suf[k] = e_k ∗ … ∗ e_{C−1}
	pre[0], suf[C] = delta, delta
	for k := 0; k < C; k++ {
		pre[k+1] = convolve(pre[k], e[k])
	}
	for k := C - 1; k >= 0; k-- {
		suf[k] = convolve(e[k], suf[k+1])
	}
	W := make([][]float64, C)
	for i := range W {
		q := convolve(pre[i], suf[i+1])
		W[i] = make([]float64, n+1)
		s := 0.0
		for v := 0; v <= n; v++ {
			W[i][v] = e[i][v] * q[n-v]
			s += W[i][v]
		}
		for v := range W[i] {
			W[i][v] /= s
		}
	}
	return W
}

// convolve returns (a ∗ b)(t) for t = 0..len(a)−1, scaled so that its maximum is 1.
func convolve(a, b []float64) []float64 {
	n := len(a)
	out := make([]float64, n)
	for s, av := range a {
		if av == 0 {
			continue
		}
		bb := b[:n-s]
		oo := out[s:]
		for t, bv := range bb {
			oo[t] += av * bv
		}
	}
	mx := 0.0
	for _, v := range out {
		mx = max(mx, v)
	}
	if mx > 0 {
		for t := range out {
			out[t] /= mx
		}
	}
	return out
}

// StateCount returns C(n+C−1, C−1), the number of compositions of n into C parts.
func StateCount(n, C int) float64 {
	l := lgamma(float64(n+C)) - lgamma(float64(C)) - lgamma(float64(n+1))
	return math.Round(math.Exp(l))
}

// DMEnumerate computes the posterior of §6.1 by enumerating every composition of N, as the
// spec states it. It returns the number of states, the joint mode and the marginals (as
// DMExact). It refuses more than maxStates states with an error. Use it on small cases
// (tests); cost O(states·C).
func (m *CatModel) DMEnumerate(maxStates float64) (states int, mode []int, W [][]float64, err error) {
	C, n := m.C(), m.N
	if sc := StateCount(n, C); sc > maxStates {
		return 0, nil, nil, invalid("%g states exceed the limit %g", sc, maxStates)
	}
	L := m.LogTables()
	W = make([][]float64, C)
	for i := range W {
		W[i] = make([]float64, n+1)
	}
	x := make([]int, C)
	mode = make([]int, C)
	var logs []float64
	var xs [][]int
	var rec func(i, left int, l float64)
	rec = func(i, left int, l float64) {
		if i == C-1 {
			x[i] = left
			logs = append(logs, l+L[i][left])
			xs = append(xs, append([]int(nil), x...))
			return
		}
		for v := 0; v <= left; v++ {
			x[i] = v
			rec(i+1, left-v, l+L[i][v])
		}
	}
	rec(0, n, 0)
	best := ArgMax(logs)
	copy(mode, xs[best])
	normalizeLog(logs)
	for k, w := range logs {
		for i, v := range xs[k] {
			W[i][v] += w
		}
	}
	return len(logs), mode, W, nil
}

// LargestRemainder writes into dst the integers that sum to n and are proportional to w
// (Hamilton's method: floor, then one extra unit to the largest remainders, ties to the
// lower index).
func LargestRemainder(dst []int, w []float64, n int) {
	s := 0.0
	for _, v := range w {
		s += v
	}
	type rem struct {
		i int
		r float64
	}
	rs := make([]rem, len(w))
	left := n
	for i, v := range w {
		q := float64(n) * v / s
		dst[i] = int(math.Floor(q))
		left -= dst[i]
		rs[i] = rem{i, q - math.Floor(q)}
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].r > rs[b].r })
	for k := 0; k < left; k++ {
		dst[rs[k%len(rs)].i]++
	}
}
