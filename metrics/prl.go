package metrics

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/sdcbench/sdcbench/internal/parallel"
)

// Probabilistic record linkage of metrics.md §3.6.
func init() {
	Register(Func(Info{ID: "prl", Unit: "%", Better: Lower,
		Description: "probabilistic record linkage: Fellegi–Sunter with EM, % of originals linked to their own release (FCRM study PRL; metrics.md §3.6)"},
		func(in *Input) Result { return evalCached(in, "prl", PRL) }))
}

// prlMaxAttrs is the largest number of attributes prl accepts (2^p patterns per EM step).
const prlMaxAttrs = 20

// PRL returns prl, Fellegi–Sunter probabilistic record linkage with EM (metrics.md §3.6,
// FCRM study "PRL"), in %. In z-space with X's statistics, over the first s non-constant
// attributes (Opt.PRLSubsets, default all), the pair (a, b) has the agreement pattern
// g = Σ_i γ_i·2^i with γ_i = 1 iff |z_ai − z'_bi| ≤ τ (Opt.PRLTol, 0.1; Opt.PRLAgree "exact":
// equality after rounding to Opt.PRLDigits decimals). Then:
//
//  1. the n² patterns are counted;
//  2. EM fits the conditional-independence mixture π·m(γ) + (1−π)·u(γ) to the counts
//     (init π = 1/n, m_i = 0.9, u_i = 0.1; m_i, u_i clamped to [1e-6, 1−1e-6]; until the
//     largest change is < 1e-12 or 10,000 iterations);
//  3. W(g) = ln m(g) − ln u(g);
//  4. T_μ is the W of the last group of equal-W patterns, in descending W, whose cumulative
//     u mass is ≤ μ (Opt.PRLMu, 0.05; +Inf if the first group exceeds μ; −Inf if μ ≥ 1); T_λ
//     likewise from the bottom with the m mass and λ (Opt.PRLLambda, 0.05);
//  5. original a links to B* = argmax W over {b : W(g(a,b)) ≥ T_μ} and earns 1/|B*| if its
//     own release is in B*.
//
// prl = 100·mean_a credit per subset (Aux "s<s>"), averaged over the subsets. Aux also holds
// "pi", "m<i>", "u<i>" (1-based), "t_mu", "t_lambda", "em_iter" and "possible_links" (pairs
// with T_λ < W < T_μ), prefixed "s<s>_" when there are several subsets. NaN if n = 0, no
// column is left, more than 20 attributes are used, or an input is NaN.
//
// From prlScaleMinRows rows the counts and the links come from the exact scale path of
// prlscale.go (docs/scaling.md), bit-identical to the all-pairs loops of prlPairs, which remain
// the reference and the fallback (τ = 0, huge z-scores, data where most pairs agree; a note
// says so). Cost of the all-pairs path O(n²·s_max), parallel over fixed row blocks; of the
// scale path O(s² n log n) plus the pairs agreeing on three or more attributes; plus
// O(it·2^s·s) for EM.
func PRL(in *Input) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return PRL(in) })
	}
	n := in.Orig.N
	if n == 0 || len(in.KeptColumns()) == 0 || hasNaN(in.Orig.Data, in.Masked.Data) {
		return nan()
	}
	za, zb, q := linkSpace(in, false)
	sizes := subsets(in.Opt.PRLSubsets, nil, q)
	smax := sizes[len(sizes)-1]
	if smax > prlMaxAttrs {
		return nanNote("prl: more than 20 attributes")
	}
	ra, rb, tau := agreementSpace(in.Opt, za, zb, n, q, smax)
	fits, credit, note := prlCore(in.context(), ra, rb, n, smax, tau, sizes, in.Opt, prlBudget(n))
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	res := prlResult(sizes, fits, credit, n)
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	return res
}

// prlCore returns the EM fit of each subset and the linkage credit of each original record
// and subset (credit[a·len(sizes)+t]). From prlScaleMinRows rows it uses the exact scale path
// of prlscale.go, within budget candidate pairs; it returns to the all-pairs loops when that
// path does not apply or runs over budget (note says why; empty when no fallback happened).
// Once ctx is done it returns early with partial results (the caller checks ctx).
func prlCore(ctx context.Context, ra, rb []float64, n, smax int, tau float64, sizes []int, o Options, budget int64) (fits []prlFit, credit []float64, note string) {
	if n >= prlScaleMinRows && !(smax == 1 && len(sizes) == 1) {
		var why string
		fits, credit, why = prlScaled(ctx, ra, rb, n, smax, tau, sizes, o, budget)
		if fits != nil {
			return fits, credit, ""
		}
		if ctx.Err() != nil {
			return nil, nil, ""
		}
		note = "prl: all pairs compared (" + why + ")"
	}
	fits, credit = prlPairs(ctx, ra, rb, n, smax, tau, sizes, o)
	return fits, credit, note
}

// prlPairs is the reference path of prlCore: every pair's pattern is computed twice, once for
// the counts and once for the linkage. It checks ctx once per original record and returns
// early once it is done.
func prlPairs(ctx context.Context, ra, rb []float64, n, smax int, tau float64, sizes []int, o Options) ([]prlFit, []float64) {
	// 1. pattern counts over the first smax attributes
	cnt := make([]int64, 1<<smax)
	var single []int64 // agreeing counts per original record when one attribute is compared
	if smax == 1 && len(sizes) == 1 {
		sorted := append([]float64(nil), rb...)
		slices.Sort(sorted)
		single = singleAgree(ra, sorted, tau)
		for _, k := range single {
			cnt[1] += k
		}
		cnt[0] = int64(n)*int64(n) - cnt[1]
	}
	var mu sync.Mutex
	parallel.Blocks(n, rowBlock, 0, func(lo, hi int) {
		if single != nil {
			return
		}
		local := make([]int64, len(cnt))
		for a := lo; a < hi; a++ {
			if ctx.Err() != nil {
				return
			}
			x := ra[a*smax : (a+1)*smax]
			for b := 0; b < n; b++ {
				local[pattern(x, rb[b*smax:(b+1)*smax], tau)]++
			}
		}
		mu.Lock()
		for g, c := range local {
			cnt[g] += c
		}
		mu.Unlock()
	})

	if ctx.Err() != nil {
		return nil, nil
	}
	fits := fitSubsets(cnt, sizes, n, o)

	// 5. linkage, one credit slot per original record and subset
	ns := len(sizes)
	credit := make([]float64, n*ns)
	if single != nil {
		own := make([]int, n)
		for a := range own {
			own[a] = pattern(ra[a:a+1], rb[a:a+1], tau)
		}
		credit = singleCredit(single, own, fits[0].w, fits[0].tMu, n)
	}
	parallel.Blocks(n, rowBlock, 0, func(lo, hi int) {
		if single != nil {
			return
		}
		best := make([]float64, ns)
		ties := make([]int, ns)
		own := make([]bool, ns)
		for a := lo; a < hi; a++ {
			if ctx.Err() != nil {
				return
			}
			for t := range best {
				best[t], ties[t], own[t] = math.Inf(-1), 0, false
			}
			x := ra[a*smax : (a+1)*smax]
			for b := 0; b < n; b++ {
				g := pattern(x, rb[b*smax:(b+1)*smax], tau)
				for t := range fits {
					f := &fits[t]
					w := f.w[g&(1<<sizes[t]-1)]
					if w < f.tMu || w < best[t] {
						continue
					}
					if w > best[t] {
						best[t], ties[t], own[t] = w, 0, false
					}
					ties[t]++
					own[t] = own[t] || b == a
				}
			}
			for t := range fits {
				if ties[t] > 0 && own[t] {
					credit[a*ns+t] = 1 / float64(ties[t])
				}
			}
		}
	})
	return fits, credit
}

// fitSubsets runs steps 2-4 of PRL for each subset on the pattern counts cnt of the largest.
func fitSubsets(cnt []int64, sizes []int, n int, o Options) []prlFit {
	fits := make([]prlFit, len(sizes))
	for t, s := range sizes {
		c := make([]int64, 1<<s)
		mask := 1<<s - 1
		for g, v := range cnt {
			c[g&mask] += v
		}
		fits[t] = fitPRL(c, s, n, o)
	}
	return fits
}

// prlResult returns prl's Value and Aux from the fits and the credits.
func prlResult(sizes []int, fits []prlFit, credit []float64, n int) Result {
	ns := len(sizes)
	res := Result{Aux: map[string]float64{}}
	var total float64
	for t, s := range sizes {
		var sum float64
		for a := 0; a < n; a++ {
			sum += credit[a*ns+t]
		}
		v := 100 * sum / float64(n)
		total += v
		res.Aux["s"+itoa(s)] = v
		pre := ""
		if ns > 1 {
			pre = "s" + itoa(s) + "_"
		}
		f := fits[t]
		res.Aux[pre+"pi"] = f.pi
		for i := range f.m {
			res.Aux[pre+"m"+itoa(i+1)] = f.m[i]
			res.Aux[pre+"u"+itoa(i+1)] = f.u[i]
		}
		res.Aux[pre+"t_mu"], res.Aux[pre+"t_lambda"] = f.tMu, f.tLambda
		res.Aux[pre+"em_iter"] = float64(f.iter)
		res.Aux[pre+"possible_links"] = float64(f.possible)
	}
	res.Value = total / float64(ns)
	return res
}

// agreementSpace returns the tables whose coordinates are compared by pattern, and the
// tolerance: the linkage tables restricted to the first s attributes with τ, or, for
// Opt.PRLAgree "exact", the values rounded to Opt.PRLDigits decimals with τ = 0 (for finite
// rounded values, |x − y| ≤ 0 iff x = y).
func agreementSpace(o Options, za, zb []float64, n, q, s int) (ra, rb []float64, tau float64) {
	ra, rb = make([]float64, n*s), make([]float64, n*s)
	scale := math.Pow(10, float64(o.PRLDigits))
	exact := o.PRLAgree == "exact"
	for i := 0; i < n; i++ {
		for l := 0; l < s; l++ {
			x, y := za[i*q+l], zb[i*q+l]
			if exact {
				x, y = math.Round(x*scale)/scale, math.Round(y*scale)/scale
			}
			ra[i*s+l], rb[i*s+l] = x, y
		}
	}
	if exact {
		return ra, rb, 0
	}
	return ra, rb, o.prlTol()
}

// pattern returns Σ_l γ_l·2^l with γ_l = 1 iff |x_l − y_l| ≤ tau.
func pattern(x, y []float64, tau float64) int {
	g := 0
	y = y[:len(x)]
	for l, v := range x {
		bit := 0 // a conditional move, not a branch: agreement is unpredictable
		if math.Abs(v-y[l]) <= tau {
			bit = 1
		}
		g |= bit << l
	}
	return g
}

// prlFit is the EM fit and the Fellegi–Sunter thresholds for one attribute subset.
type prlFit struct {
	pi           float64
	m, u         []float64
	w            []float64 // W(g) per pattern
	tMu, tLambda float64
	iter         int
	possible     int64 // pairs with T_λ < W < T_μ
}

// patternProb returns Π p_i^γ_i (1−p_i)^(1−γ_i) for pattern g.
func patternProb(p []float64, g int) float64 {
	v := 1.0
	for i, pi := range p {
		if g>>i&1 == 1 {
			v *= pi
		} else {
			v *= 1 - pi
		}
	}
	return v
}

func clampProb(v float64) float64 { return min(max(v, 1e-6), 1-1e-6) }

// fitPRL runs steps 2-4 of PRL on the pattern counts of s attributes.
func fitPRL(cnt []int64, s, n int, o Options) prlFit {
	G := len(cnt)
	N := float64(n) * float64(n)
	f := prlFit{pi: 1 / float64(n), m: make([]float64, s), u: make([]float64, s)}
	for i := range f.m {
		f.m[i], f.u[i] = 0.9, 0.1
	}
	var seen []int // the patterns that occur; the others do not enter EM
	for g, c := range cnt {
		if c > 0 {
			seen = append(seen, g)
		}
	}
	nm, nu := make([]float64, s), make([]float64, s)
	for f.iter < 10000 {
		f.iter++
		var sw, swc float64
		for i := range nm {
			nm[i], nu[i] = 0, 0
		}
		for _, g := range seen {
			c := cnt[g]
			pm, pu := f.pi*patternProb(f.m, g), (1-f.pi)*patternProb(f.u, g)
			w := pm / (pm + pu)
			cw, cwc := float64(c)*w, float64(c)*(1-w)
			sw += cw
			swc += cwc
			for i := 0; i < s; i++ {
				if g>>i&1 == 1 {
					nm[i] += cw
					nu[i] += cwc
				}
			}
		}
		pi := sw / N
		delta := math.Abs(pi - f.pi)
		f.pi = pi
		for i := 0; i < s; i++ {
			m, u := clampProb(nm[i]/sw), clampProb(nu[i]/swc)
			delta = max(delta, math.Abs(m-f.m[i]), math.Abs(u-f.u[i]))
			f.m[i], f.u[i] = m, u
		}
		if delta < 1e-12 {
			break
		}
	}
	f.w = make([]float64, G)
	pm, pu := make([]float64, G), make([]float64, G)
	for g := range f.w {
		var v float64
		for i := 0; i < s; i++ {
			if g>>i&1 == 1 {
				v += math.Log(f.m[i]) - math.Log(f.u[i])
			} else {
				v += math.Log(1-f.m[i]) - math.Log(1-f.u[i])
			}
		}
		f.w[g] = v
		pm[g], pu[g] = patternProb(f.m, g), patternProb(f.u, g)
	}
	order := make([]int, G)
	for g := range order {
		order[g] = g
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case f.w[a] > f.w[b]:
			return -1
		case f.w[a] < f.w[b]:
			return 1
		}
		return 0
	})
	f.tMu = threshold(order, f.w, pu, o.prlMu(), math.Inf(1))
	rev := slices.Clone(order)
	slices.Reverse(rev)
	f.tLambda = threshold(rev, f.w, pm, o.prlLambda(), math.Inf(-1))
	if o.prlMu() >= 1 {
		f.tMu = math.Inf(-1)
	}
	for g, c := range cnt {
		if f.w[g] > f.tLambda && f.w[g] < f.tMu {
			f.possible += c
		}
	}
	return f
}

// threshold walks the patterns in the given W order, one group of equal W at a time, adding
// each group's mass, and returns the W of the last group whose cumulative mass is ≤ bound,
// or none if the first group already exceeds it.
func threshold(order []int, w, mass []float64, bound, none float64) float64 {
	t := none
	var cum float64
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && (j == i || w[order[j]] == w[order[i]]) { // j == i: a NaN W (n = 1) is a group
			cum += mass[order[j]]
			j++
		}
		if cum > bound {
			break
		}
		t = w[order[i]]
		i = j
	}
	return t
}
