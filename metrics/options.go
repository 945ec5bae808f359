package metrics

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"weak"
)

// Resolved option values: each method returns the documented default for a zero field.

func (o Options) eigenMinRel() float64 {
	if o.EigenMinRel == 0 {
		return 1e-10
	}
	return o.EigenMinRel
}

func (o Options) sdidDist() []float64 {
	if len(o.SDIDDist) == 0 {
		return []float64{0.05}
	}
	return o.SDIDDist
}

func (o Options) idRankP() []float64 {
	if len(o.IDRankP) == 0 {
		return []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	}
	return o.IDRankP
}

func (o Options) prlTol() float64 {
	if o.PRLTol == 0 {
		return 0.1
	}
	return o.PRLTol
}

func (o Options) prlMu() float64 {
	if o.PRLMu == 0 {
		return 0.05
	}
	return o.PRLMu
}

func (o Options) prlLambda() float64 {
	if o.PRLLambda == 0 {
		return 0.05
	}
	return o.PRLLambda
}

// subsets resolves a list of leading-attribute counts against p attributes: each s is clipped
// to [1, p] (s ≤ 0 means p), duplicates are removed and the result is ascending. A nil list
// gives def, or {p} when def is nil.
func subsets(list, def []int, p int) []int {
	if len(list) == 0 {
		list = def
	}
	if len(list) == 0 {
		return []int{p}
	}
	out := make([]int, 0, len(list))
	for _, s := range list {
		if s <= 0 || s > p {
			s = p
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// hasNaN reports whether any value of the slices is NaN.
func hasNaN(xs ...[]float64) bool {
	for _, x := range xs {
		for _, v := range x {
			if v != v {
				return true
			}
		}
	}
	return false
}

func nan() Result { return Result{Value: math.NaN()} }

func nanNote(note string) Result { return Result{Value: math.NaN(), Notes: []string{note}} }

// rowBlock is the size of the fixed row blocks over which the measures run in parallel
// (parallel.Blocks): fn writes only per-row slots, so results are identical for any worker
// count (metrics.md §0.5).
const rowBlock = 64

// memo caches results per Input so that the combined measures (dr, score, fobj*) and the
// metrics that share one computation (global_risk_er and _pct, …) do not repeat O(n²) work.
// Entries are keyed by a weak pointer to the Input and dropped when it is collected.
var memo sync.Map // memoKey → *memoEntry

type memoKey struct {
	in weak.Pointer[Input]
	id string
}

type memoEntry struct {
	once sync.Once
	v    any
}

// cached returns f(in), computed once per (in, id).
func cached[T any](in *Input, id string, f func(*Input) T) T {
	k := memoKey{weak.Make(in), id}
	e, loaded := memo.LoadOrStore(k, &memoEntry{})
	if !loaded {
		runtime.AddCleanup(in, func(k memoKey) { memo.Delete(k) }, k)
	}
	ent := e.(*memoEntry)
	ent.once.Do(func() { ent.v = f(in) })
	return ent.v.(T)
}

// evalCached returns the Result of a metric function, computed once per Input. The Result
// is shared: callers must not modify its Aux map.
func evalCached(in *Input, id string, f func(*Input) Result) Result {
	return cached(in, id, f)
}

// colIndex returns the index of the named column, or −1.
func colIndex(names []string, name string) int {
	return slices.Index(names, name)
}
