package perturb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(RankSwap{}) }

// RankSwap is `rankswap`, rank swapping with sdcMicro's rankSwap semantics
// (docs/perturbative.md). Per column, independently:
//
//  1. Missing values (NaN) stay where they are. The others are sorted in descending order
//     (ties by record index).
//  2. The first ⌊n·top_pct/100⌋ sorted values are replaced by their mean (top coding) and the
//     last ⌊n·bottom_pct/100⌋ likewise (bottom coding); these take no further part.
//  3. The remaining N' values, positions 0..N'−1, are swapped with window fraction P: p_frac,
//     or p_pct/100, or from r0 (P = √(2·Var·(1−R0))/|Bot−Top|) or k0 (P = √(8/3)·K0·|mean|/|Bot−Top|),
//     with Var, mean over the N' values (divisor N'), Top the smallest top-coded value (the
//     maximum without top coding) and Bot the largest bottom-coded value (the minimum).
//  4. For j = 0..N'−1, unless j was already swapped, the partner is drawn uniformly
//     (rng.IntN) among the unswapped positions k with j < k < min(N', ⌊j + N'·P⌋); both are
//     flagged. Every value moves at most once, so without coding each column is a permutation.
//
// sdcMicro documents P as a percentage but uses it as a fraction; p_frac is the fraction and
// p_pct the percentage. The candidates are kept in a Fenwick tree, so a column costs
// O(n log n) whatever the window, where sdcMicro scans the window (O(n·N'·P)).
type RankSwap struct{}

// Info implements methods.Method.
func (RankSwap) Info() methods.Info {
	return methods.Info{
		Name:        "rankswap",
		Description: "rank swapping within a window of p_frac·n ranks (sdcMicro rankSwap semantics)",
		Params: []methods.ParamSpec{
			{Name: "p_frac", Kind: methods.Float, Default: "0.1", Min: 0, Max: 1, MinOpen: true, Doc: "window as a fraction of n"},
			{Name: "p_pct", Kind: methods.Float, Default: "0", Min: 0, Max: 100, Doc: "window in percent of n; replaces p_frac when > 0"},
			{Name: "r0", Kind: methods.Float, Default: "0", Min: 0, Max: 1, Doc: "target correlation R0; replaces p_frac when > 0"},
			{Name: "k0", Kind: methods.Float, Default: "0", Min: 0, Max: math.Inf(1), Doc: "target mean change K0; replaces p_frac when > 0"},
			{Name: "top_pct", Kind: methods.Float, Default: "0", Min: 0, Max: 100, Doc: "percent of largest values top-coded to their mean"},
			{Name: "bottom_pct", Kind: methods.Float, Default: "0", Min: 0, Max: 100, Doc: "percent of smallest values bottom-coded to their mean"},
		},
		Randomized: true,
		Missing:    missingRank,
	}
}

// Validate implements methods.Validator.
func (RankSwap) Validate(d *datasets.Dataset, p methods.Params) error {
	given := 0
	for _, k := range []string{"p_pct", "r0", "k0"} {
		if p.Float(k) > 0 {
			given++
		}
	}
	if given > 1 {
		return fmt.Errorf("rankswap: %w: give at most one of p_pct, r0, k0 (got p_pct=%s r0=%s k0=%s)",
			methods.ErrBadParam, p.Get("p_pct"), p.Get("r0"), p.Get("k0"))
	}
	if t, b := p.Float("top_pct"), p.Float("bottom_pct"); t+b >= 100 {
		return fmt.Errorf("rankswap: %w top_pct+bottom_pct=%g: must be below 100", methods.ErrBadParam, t+b)
	}
	if d.N < 1 {
		return fmt.Errorf("rankswap: dataset %s has no rows", d.Name)
	}
	return nil
}

// Protect implements methods.Method.
func (r RankSwap) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := r.Validate(d, p); err != nil {
		return nil, err
	}
	cfg := swapConfig{pFrac: p.Float("p_frac"), r0: p.Float("r0"), k0: p.Float("k0"),
		top: p.Float("top_pct"), bottom: p.Float("bottom_pct")}
	if v := p.Float("p_pct"); v > 0 {
		cfg.pFrac = v / 100
	}
	out := d.Clone()
	col := make([]float64, d.N)
	var w swapWork
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := range col {
			col[i] = d.Data[i*d.P+j]
		}
		w.swapColumn(col, cfg, rng)
		for i, v := range col {
			out.Data[i*d.P+j] = v
		}
	}
	return &methods.Release{Masked: out}, nil
}

type swapConfig struct {
	pFrac, r0, k0, top, bottom float64
}

// swapWork holds the reusable buffers of one column.
type swapWork struct {
	ord     []keyed
	val     []float64
	fen     []int32
	swapped []bool
}

// swapColumn rank-swaps col in place.
func (w *swapWork) swapColumn(col []float64, cfg swapConfig, rng *rand.Rand) {
	w.ord = order(col, true, w.ord, func(x float64) bool { return !math.IsNaN(x) })
	ord := w.ord
	nnm := len(ord)
	if nnm == 0 { // every value missing
		return
	}
	w.val = slices.Grow(w.val[:0], nnm)[:nnm]
	val := w.val
	for s, k := range ord {
		val[s] = k.V
	}
	nTop := int(float64(nnm) * cfg.top / 100)
	nBot := int(float64(nnm) * cfg.bottom / 100)
	top, bot := val[0], val[nnm-1]
	if nTop > 0 {
		top = val[nTop-1]
		codeMean(val[:nTop])
	}
	if nBot > 0 {
		bot = val[nnm-nBot]
		codeMean(val[nnm-nBot:])
	}
	free := val[nTop : nnm-nBot]
	P := swapFraction(free, cfg, top, bot)
	w.swapPositions(free, P, rng)
	for s, k := range ord {
		col[k.I] = val[s]
	}
}

func codeMean(v []float64) {
	var s float64
	for _, x := range v {
		s += x
	}
	s /= float64(len(v))
	for k := range v {
		v[k] = s
	}
}

// swapFraction returns the window fraction P of step 3.
func swapFraction(free []float64, cfg swapConfig, top, bot float64) float64 {
	if cfg.r0 <= 0 && cfg.k0 <= 0 {
		return cfg.pFrac
	}
	n := float64(len(free))
	var mean, ss float64
	for _, v := range free {
		mean += v
	}
	mean /= n
	for _, v := range free {
		ss += (v - mean) * (v - mean)
	}
	rng := math.Abs(bot - top)
	if cfg.r0 > 0 {
		return math.Sqrt(2*ss/n*(1-cfg.r0)) / rng
	}
	return math.Sqrt(8.0/3) * cfg.k0 * math.Abs(mean) / rng
}

// swapPositions performs step 4 on v (the N' free values in sorted order).
func (w *swapWork) swapPositions(v []float64, P float64, rng *rand.Rand) {
	n := len(v)
	if n < 2 || !(P > 0) {
		return
	}
	// Fenwick tree over "not yet swapped" flags, 1-based, all ones.
	w.fen = slices.Grow(w.fen[:0], n+1)[:n+1]
	fen := w.fen
	for i := 1; i <= n; i++ {
		fen[i] = int32(i & -i)
	}
	w.swapped = slices.Grow(w.swapped[:0], n)[:n]
	swapped := w.swapped
	clear(swapped)
	span := float64(n) * P
	logn := 1
	for logn*2 <= n {
		logn *= 2
	}
	for j := 0; j < n; j++ {
		if swapped[j] {
			continue
		}
		hi := min(n, int(math.Floor(float64(j)+span))) // candidates j < k < hi
		if hi <= j+1 {
			continue
		}
		base := prefix(fen, j+1)      // unswapped among positions 0..j
		cnt := prefix(fen, hi) - base // unswapped among j+1..hi−1
		if cnt <= 0 {
			continue
		}
		target := base + int32(rng.IntN(int(cnt))) + 1
		k := findKth(fen, target, logn) // 0-based position of the target-th unswapped
		v[j], v[k] = v[k], v[j]
		swapped[j], swapped[k] = true, true
		fenAdd(fen, j+1, -1)
		fenAdd(fen, k+1, -1)
	}
}

// prefix returns the sum of the flags of positions 0..i−1 (i 1-based count).
func prefix(fen []int32, i int) int32 {
	var s int32
	for ; i > 0; i -= i & -i {
		s += fen[i]
	}
	return s
}

func fenAdd(fen []int32, i int, d int32) {
	for ; i < len(fen); i += i & -i {
		fen[i] += d
	}
}

// findKth returns the 0-based position of the k-th (1-based) set flag.
func findKth(fen []int32, k int32, logn int) int {
	pos := 0
	for step := logn; step > 0; step >>= 1 {
		if nxt := pos + step; nxt < len(fen) && fen[nxt] < k {
			pos = nxt
			k -= fen[nxt]
		}
	}
	return pos // 1-based pos+1 → 0-based pos
}
