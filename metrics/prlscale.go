package metrics

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/sdcbench/sdcbench/internal/parallel"
)

// The exact scale path of prl (docs/scaling.md, "prl at scale"). The all-pairs loops of
// prlPairs visit n² pairs twice; this path obtains the same pattern counts and the same
// linkage credits from three exact pieces:
//
//   - single attributes: the released values that agree with x on attribute l form one
//     interval of the released column sorted on l, because fl(x − y) is monotone in y; a
//     two-pointer sweep gives every original record's interval [lo, hi);
//   - pairs of attributes: the number of released records agreeing on l and m is a count of
//     points in a rectangle of rank space, done for all original records at once by an
//     offline sweep with a Fenwick tree, O(n log n) per pair;
//   - three or more agreements: these pairs are enumerated, each once, through a grid of
//     cell ≥ τ on each attribute pair (i, j) with the released records of a cell sorted on a
//     third attribute k, and kept only when i, j, k are the pair's three lowest agreeing
//     attributes.
//
// Subtracting the enumerated pairs from the single and pair counts (inclusion–exclusion) gives,
// for every original record a, the exact number of released records with each pattern of at
// most two agreements; the enumerated pairs give the others. Summed over a these are the n²
// pattern counts; per record they give the best weight, its tie count and whether the own
// release is among them, whatever the order of the weights (W need not grow with the number
// of agreements). Results are identical to prlPairs (TestPRLScaleMatchesPairs).

// prlScaleMinRows is the number of rows from which prl takes the scale path.
const prlScaleMinRows = 2000

// prlBudget returns the work (prlgrid.go's units: one per candidate pair examined, and
// prlPatternCost more per pattern computed) the scale path may spend listing the pairs with
// three or more agreements before it gives up: 2n², an eighth of the 2n² patterns of the
// all-pairs path. Data where many pairs agree on many attributes (coarse, discrete or skewed
// columns) exceed it; the listing then meets a pair once per triple of its agreements.
func prlBudget(n int) int64 { return 2 * int64(n) * int64(n) }

// prlPatternCost is the cost of computing one pattern, in units of examining one candidate
// (roughly their time ratio on s = 10 attributes).
const prlPatternCost = 8

// prlMaxCell bounds |z|/τ so that grid cells are exact integers (see prlScaled).
const prlMaxCell = 1e9

// prlScaled is prlCore's scale path. It returns nil fits and the reason when it does not
// apply: τ = 0 (prl_agree "exact") or not finite, values more than 10^9·τ from 0, more
// agreeing attribute pairs (summed over the pairs of records) than budget/2, or more than
// budget units of work (prlBudget).
func prlScaled(ctx context.Context, ra, rb []float64, n, s int, tau float64, sizes []int, o Options, budget int64) ([]prlFit, []float64, string) {
	if !(tau > 0) || math.IsInf(tau, 0) {
		return nil, nil, "agreement tolerance 0 or infinite"
	}
	if n > math.MaxInt32 {
		return nil, nil, "more than 2^31 rows" // record indices and counts are int32
	}
	// Cells of width h = τ(1+10⁻⁶): agreement, |fl(x − y)| ≤ τ, implies |x − y|/h < 1 − 10⁻⁷, so
	// floor(fl(x/h)) and floor(fl(y/h)) differ by at most 1 while |x/h| < 10⁹ (the division's
	// rounding error is then below 10⁻⁶).
	h := tau * (1 + 1e-6)
	for _, v := range [][]float64{ra, rb} {
		for _, x := range v {
			if !(math.Abs(x) < prlMaxCell*h) {
				return nil, nil, "values beyond 10^9 tolerances"
			}
		}
	}
	sc := &prlScale{ctx: ctx, n: n, s: s, tau: tau, h: h, ra: ra, rb: rb}
	sc.intervals()
	if ctx.Err() == nil {
		sc.pairCounts()
	}
	if ctx.Err() != nil {
		return nil, nil, "cancelled"
	}
	const crowded = "too many pairs agree on several attributes"
	var twice int64 // Σ over pairs of C(#agreements, 2)
	for a := range n {
		for _, c := range sc.low[a*sc.L+1+s : (a+1)*sc.L] {
			twice += int64(c)
		}
	}
	if twice > budget/2 { // n² with prlBudget: the listing would meet most pairs several times
		return nil, nil, crowded
	}
	cnt, ok := sc.countHigh(budget)
	if !ok {
		return nil, nil, crowded
	}
	if ctx.Err() != nil {
		return nil, nil, "cancelled"
	}
	sc.lowCounts(cnt)
	fits := fitSubsets(cnt, sizes, n, o)
	for _, f := range fits {
		if math.IsNaN(f.tMu) || slices.ContainsFunc(f.w, math.IsNaN) {
			// the all-pairs linkage treats a NaN weight by the order in which it meets the
			// records (EM degenerates, e.g. for n = 1); only that order reproduces it
			return nil, nil, prlNaNWeights
		}
	}
	return fits, sc.link(fits, sizes), ""
}

const prlNaNWeights = "NaN weights"

// prlScale holds the per-attribute orders, the per-record agreement counts and the grids.
type prlScale struct {
	ctx    context.Context // checked per record or block of grid cells (cancel.go)
	n, s   int
	tau, h float64
	ra, rb []float64 // row-major n×s, original and released

	border, aorder [][]int32 // per attribute: released records by value, original records by value
	rank           [][]int32 // per attribute: position of each released record in border
	lo, hi         [][]int32 // per attribute: original record a agrees with border[lo[a]:hi[a]]
	// low holds L = 1 + s + s(s−1)/2 counts per original record a, at a·L: the number of
	// released records agreeing with a on three or more attributes, then, per attribute l,
	// those agreeing on l and, per pair slot, those agreeing on both; after lowCounts, those
	// whose pattern is exactly {l}, exactly {l, m}.
	low   []int32
	L     int
	pairs [][2]int // attributes of each pair slot
	grids []*prlGrid
}

// slot returns the index of the attribute pair l < m among the s(s−1)/2 pairs.
func (sc *prlScale) slot(l, m int) int { return l*sc.s - l*(l+1)/2 + m - l - 1 }

// intervals sorts each attribute and finds every original record's agreeing interval.
func (sc *prlScale) intervals() {
	n, s, tau := sc.n, sc.s, sc.tau
	sc.border, sc.aorder = make([][]int32, s), make([][]int32, s)
	sc.rank, sc.lo, sc.hi = make([][]int32, s), make([][]int32, s), make([][]int32, s)
	sc.L = 1 + s + s*(s-1)/2
	sc.low = make([]int32, n*sc.L)
	for l := range s {
		for m := l + 1; m < s; m++ {
			sc.pairs = append(sc.pairs, [2]int{l, m})
		}
	}
	parallel.Each(s, 0, func(_, l int) {
		bo, ao := sortedOn(sc.rb, n, s, l), sortedOn(sc.ra, n, s, l)
		rank, ys := make([]int32, n), make([]float64, n)
		for x, b := range bo {
			rank[b], ys[x] = int32(x), sc.rb[int(b)*s+l]
		}
		lo, hi := make([]int32, n), make([]int32, n)
		p, q := 0, 0
		for _, a := range ao { // x ascending: both ends only move right
			x := sc.ra[int(a)*s+l]
			for p < n && ys[p] < x && !(math.Abs(x-ys[p]) <= tau) {
				p++
			}
			q = max(q, p)
			for q < n && (ys[q] <= x || math.Abs(x-ys[q]) <= tau) {
				q++
			}
			lo[a], hi[a] = int32(p), int32(q)
			sc.low[int(a)*sc.L+1+l] = int32(q - p)
		}
		sc.border[l], sc.aorder[l], sc.rank[l], sc.lo[l], sc.hi[l] = bo, ao, rank, lo, hi
	})
}

// sortedOn returns the row indices 0..n−1 ordered by column l of the n×s table v (ties by index).
func sortedOn(v []float64, n, s, l int) []int32 {
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(x, y int32) int {
		if c := cmpFloat(v[int(x)*s+l], v[int(y)*s+l]); c != 0 {
			return c
		}
		return int(x - y)
	})
	return idx
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// pairCounts sets the pair counts of low: the released records agreeing with a on both l and
// m are the points (rank_l(b), rank_m(b)) in the rectangle [lo_l(a), hi_l(a)) × [lo_m(a),
// hi_m(a)), counted by sweeping rank_l with a Fenwick tree over rank_m.
func (sc *prlScale) pairCounts() {
	n, L := sc.n, sc.L
	parallel.Each(len(sc.pairs), 0, func(_, p int) {
		if sc.ctx.Err() != nil {
			return // cancelled: prlScaled checks ctx
		}
		l, m := sc.pairs[p][0], sc.pairs[p][1]
		out := sc.low[1+sc.s+p:]
		fw := make([]int32, n+1)
		count := func(k int32) int32 { // points inserted with rank_m < k
			var c int32
			for ; k > 0; k &= k - 1 {
				c += fw[k]
			}
			return c
		}
		ao, bo, lo, hi := sc.aorder[l], sc.border[l], sc.lo[l], sc.hi[l]
		rm, lom, him := sc.rank[m], sc.lo[m], sc.hi[m]
		i, j := 0, 0
		for x := 0; x <= n; x++ { // lo and hi are non-decreasing along ao
			for ; i < n && int(lo[ao[i]]) == x; i++ {
				a := ao[i]
				out[int(a)*L] -= count(him[a]) - count(lom[a])
			}
			for ; j < n && int(hi[ao[j]]) == x; j++ {
				a := ao[j]
				out[int(a)*L] += count(him[a]) - count(lom[a])
			}
			if x < n {
				for k := rm[bo[x]] + 1; int(k) <= n; k += k & -k {
					fw[k]++
				}
			}
		}
	})
}

// countHigh enumerates the pairs with three or more agreements: it returns their pattern
// counts (indices with at least three bits set), counts them per original record in low, and
// subtracts each from the single and pair counts of its record. ok is false when the work
// exceeds budget (prlBudget).
func (sc *prlScale) countHigh(budget int64) (cnt []int64, ok bool) {
	s, L := sc.s, sc.L
	workers := runtime.GOMAXPROCS(0)
	local := make([][]int64, workers)
	for w := range local {
		local[w] = make([]int64, 1<<s)
	}
	var scanned atomic.Int64
	ok = sc.enumerate(nil, nil, func(w int, a int32, g int, k int32) {
		local[w][g] += int64(k)
		c := sc.low[int(a)*L : int(a+1)*L]
		c[0] += k
		for r := g; r != 0; r &= r - 1 {
			l := bits.TrailingZeros(uint(r))
			c[1+l] -= k
			for r2 := r & (r - 1); r2 != 0; r2 &= r2 - 1 {
				c[1+s+sc.slot(l, bits.TrailingZeros(uint(r2)))] -= k
			}
		}
	}, &scanned, budget)
	cnt = make([]int64, 1<<s)
	for _, lc := range local {
		for g, c := range lc {
			cnt[g] += c
		}
	}
	return cnt, ok
}

// lowCounts turns the single and pair counts of low into the exact per-record counts of the
// patterns {l} and {l, m} and completes cnt with them and with pattern 0.
func (sc *prlScale) lowCounts(cnt []int64) {
	n, s, L := sc.n, sc.s, sc.L
	for a := range n {
		c := sc.low[a*L : (a+1)*L]
		for p, lm := range sc.pairs {
			v := c[1+s+p]
			c[1+lm[0]] -= v
			c[1+lm[1]] -= v
			cnt[1<<lm[0]|1<<lm[1]] += int64(v)
		}
		for l := range s {
			cnt[1<<l] += int64(c[1+l])
		}
	}
	var rest int64
	for _, c := range cnt[1:] {
		rest += c
	}
	cnt[0] = int64(n)*int64(n) - rest
}

// link returns the credits of step 5: per original record and subset, the best weight at or
// above T_μ over the released records, the number of records with that weight, and whether
// the own release is one of them.
func (sc *prlScale) link(fits []prlFit, sizes []int) []float64 {
	n, s, ns := sc.n, sc.s, len(fits)
	best := make([]float64, n*ns)
	ties := make([]int64, n*ns)
	floor := make([]float64, n*ns) // a weight some released record realizes with a
	own := make([]int, n)
	// first the patterns of at most two agreements, from the per-record counts
	parallel.Blocks(n, rowBlock, 0, func(lo, hi int) {
		for a := lo; a < hi; a++ {
			if sc.ctx.Err() != nil {
				return
			}
			own[a] = pattern(sc.ra[a*s:(a+1)*s], sc.rb[a*s:(a+1)*s], sc.tau)
			c := sc.low[a*sc.L : (a+1)*sc.L]
			for t := range fits {
				f, mask, k := &fits[t], 1<<sizes[t]-1, a*ns+t
				bw, bt := math.Inf(-1), int64(0)
				add := func(g int, c int64) {
					if w := f.w[g&mask]; c > 0 && w >= f.tMu {
						switch {
						case w > bw:
							bw, bt = w, c
						case w == bw:
							bt += c
						}
					}
				}
				zero := int64(n) - int64(c[0])
				for l := range s {
					add(1<<l, int64(c[1+l]))
					zero -= int64(c[1+l])
				}
				for p, lm := range sc.pairs {
					add(1<<lm[0]|1<<lm[1], int64(c[1+s+p]))
					zero -= int64(c[1+s+p])
				}
				add(0, zero)
				best[k], ties[k], floor[k] = bw, bt, max(bw, f.w[own[a]&mask])
			}
		}
	})
	// then the pairs with three or more agreements. relevant[g]: pattern g reaches T_μ in some
	// subset; top[tr·ns+t]: the largest weight of a pattern whose three lowest agreements are
	// tr. Record a can skip triple tr when top is below the floor, a weight it realizes: then
	// each weight found there is below T_μ or below a's final best.
	relevant := make([]bool, 1<<s)
	top := make([]float64, len(relevant)*ns)
	for i := range top {
		top[i] = math.Inf(-1)
	}
	var need []bool
	for g := range relevant {
		if bits.OnesCount(uint(g)) < 3 {
			continue
		}
		tr := lowest3(g)
		for t, f := range fits {
			w := f.w[g&(1<<sizes[t]-1)]
			top[tr*ns+t] = max(top[tr*ns+t], w)
			if w >= f.tMu {
				relevant[g] = true
			}
		}
		if relevant[g] {
			if need == nil {
				need = make([]bool, 1<<s)
			}
			need[tr] = true
		}
	}
	if need != nil && sc.ctx.Err() == nil {
		skip := func(tr int, a int32) bool {
			for t := range ns {
				if k := int(a)*ns + t; !(top[tr*ns+t] < max(floor[k], best[k])) {
					return false
				}
			}
			return true
		}
		sc.enumerate(need, skip, func(_ int, a int32, g int, c int32) {
			if !relevant[g] {
				return
			}
			for t := range fits {
				f := &fits[t]
				w, k := f.w[g&(1<<sizes[t]-1)], int(a)*ns+t
				switch {
				case w < f.tMu || w < best[k]:
				case w > best[k]:
					best[k], ties[k] = w, int64(c)
				default:
					ties[k] += int64(c)
				}
			}
		}, nil, 0)
	}
	credit := make([]float64, n*ns)
	for a := range n {
		for t, f := range fits {
			k := a*ns + t
			if ties[k] > 0 && f.w[own[a]&(1<<sizes[t]-1)] == best[k] {
				credit[k] = 1 / float64(ties[k])
			}
		}
	}
	return credit
}

// lowest3 returns the three lowest set bits of g.
func lowest3(g int) int {
	r := g & (g - 1)
	r &= r - 1
	return g &^ (r & (r - 1))
}
