package metrics

import (
	"math"
	"sort"

	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/kdtree"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// Distance-based record linkage of metrics.md §3.5.
func init() {
	Register(Func(Info{ID: "dbrl", Unit: "%", Better: Lower,
		Description: "distance-based record linkage: % of originals whose nearest release (z-space, first 3/5/8 attributes) is their own, tie-fractional (FCRM study DBRL; metrics.md §3.5)"},
		DBRL))
	Register(Func(Info{ID: "dbrl2", Unit: "%", Better: Lower,
		Description: "dbrl with the first or second nearest released record (FCRM study; metrics.md §3.5)"},
		DBRL2))
	Register(Func(Info{ID: "dbrl_attr", Unit: "%", Better: Lower,
		Description: "per-attribute linkage: % of (record, attribute) whose released value's nearest original is its own (Morais (2022); metrics.md §3.5)"},
		DBRLAttr))
	Register(Func(Info{ID: "dbrl_attr2", Unit: "%", Better: Lower,
		Description: "dbrl_attr with the first or second nearest original value (Morais (2022) Record Linkage; metrics.md §3.5)"},
		DBRLAttr2))
}

// DBRL returns dbrl, distance-based record linkage with the nearest released record
// (metrics.md §3.5, FCRM study "DBRL"), in %. In z-space with X's statistics (or X' with its
// own, Opt.DBRLStd "own"), over the first s non-constant attributes, each original record a
// with true partner a' has d* = d(a, a'), L = #{b : d(a,b) < d*} and E = #{b : d(a,b) = d*}
// (d squared Euclidean), and
//
//	Credit(a) = 0 if L ≥ K, else min(1, (K − L)/E),  K = 1,
//
// the success probability of an intruder choosing uniformly among tied candidates (with
// Opt.DBRLTies "first": 1 iff fewer than K records come before a' in (distance, index)
// order). For each s in Opt.DBRLSubsets ({3, 5, 8}, clipped to p) the value is
// 100·mean_a Credit(a), stored in Aux "s<s>"; dbrl is the mean over the subsets. NaN if
// n = 0 or no column is left. With a missing cell it is computed on the complete cases
// (metrics.md §0.4).
//
// The candidates are found by an exact k-d tree per subset (internal/kdtree; docs/scaling.md):
// a radius-d* query, nearest subtrees first, that stops once L = 2. Cost O(n log n) per subset
// to build plus one query per record (O(n²·s) in the worst case), taken in the tree order of
// the partners so that consecutive queries share cached nodes; dbrl2 shares the counts.
// Parallel over fixed blocks with per-record slots, so the result is the same for any number
// of workers.
func DBRL(in *Input) Result { return dbrlResult(in, 1) }

// DBRL2 returns dbrl2, DBRL with K = 2: the true partner is the first or second nearest.
func DBRL2(in *Input) Result { return dbrlResult(in, 2) }

// dbrlCounts holds, per original record and subset, L (capped at 2), E and E_before
// (the tied records with a smaller index than the partner).
type dbrlCounts struct {
	sizes     []int
	l, e, eb  []int32 // [a*len(sizes)+t]
	undefined bool
}

func dbrlResult(in *Input, k int) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return dbrlResult(in, k) })
	}
	c := cached(in, "dbrl:counts", computeDBRLCounts)
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	if c.undefined {
		return nan()
	}
	first := in.Opt.DBRLTies == "first"
	n, ns := in.Orig.N, len(c.sizes)
	res := Result{Aux: map[string]float64{}}
	var total float64
	for t, s := range c.sizes {
		var sum float64
		for a := 0; a < n; a++ {
			i := a*ns + t
			sum += linkCredit(int(c.l[i]), int(c.e[i]), int(c.eb[i]), k, first)
		}
		v := 100 * sum / float64(n)
		res.Aux["s"+itoa(s)] = v
		total += v
	}
	res.Value = total / float64(ns)
	return res
}

// linkCredit returns the linkage credit of a record with L closer candidates, E tied
// candidates (its partner included) of which eb come before the partner by index.
func linkCredit(l, e, eb, k int, first bool) float64 {
	if first {
		if l+eb < k {
			return 1
		}
		return 0
	}
	if l >= k {
		return 0
	}
	return min(1, float64(k-l)/float64(e))
}

// linkSpace returns the original and released tables restricted to the non-constant
// columns, row-major n×q, z-scored with X's statistics, or X' with its own when own is true
// (metrics.md §3.5).
func linkSpace(in *Input, own bool) (a, b []float64, q int) {
	cols := in.KeptColumns()
	n, p := in.Orig.N, in.Orig.P
	q = len(cols)
	s := in.Scaling()
	var ms, ss []float64 // statistics for X'
	if own {
		sc := sampleSDs(in.Masked.Data, n, p)
		ms, ss = covariance.Means(in.Masked.Data, n, p), sc
	} else {
		ms, ss = s.Mean, s.SD
	}
	a, b = make([]float64, n*q), make([]float64, n*q)
	for i := 0; i < n; i++ {
		for c, l := range cols {
			a[i*q+c] = s.Z(l, in.Orig.Data[i*p+l])
			switch {
			case ss[l] == 0:
				b[i*q+c] = 0
			case !own:
				b[i*q+c] = s.Z(l, in.Masked.Data[i*p+l])
			default:
				b[i*q+c] = (in.Masked.Data[i*p+l] - ms[l]) / ss[l]
			}
		}
	}
	return a, b, q
}

func computeDBRLCounts(in *Input) *dbrlCounts {
	n := in.Orig.N
	if n == 0 || len(in.KeptColumns()) == 0 || hasNaN(in.Orig.Data, in.Masked.Data) {
		return &dbrlCounts{undefined: true}
	}
	za, zb, q := linkSpace(in, in.Opt.DBRLStd == "own")
	sizes := subsets(in.Opt.DBRLSubsets, []int{3, 5, 8}, q)
	ns := len(sizes)
	c := &dbrlCounts{sizes: sizes,
		l: make([]int32, n*ns), e: make([]int32, n*ns), eb: make([]int32, n*ns)}
	const kmax = 2 // the largest K computed (dbrl2)
	// one exact k-d tree of the released rows per subset, on its first s attributes
	trees := make([]*kdtree.Tree, ns)
	for t, sz := range sizes {
		if in.Err() != nil {
			return c // cancelled: dbrlResult reports it
		}
		trees[t] = kdtree.New(leadingCols(zb, n, q, sz), n, sz)
	}
	for t, sz := range sizes {
		if in.Err() != nil {
			return c
		}
		// records in the tree order of their partners, so that consecutive queries share
		// cached nodes
		order := trees[t].Order()
		parallel.Blocks(n, rowBlock, 0, func(lo, hi int) {
			srch := trees[t].NewSearcher()
			var (
				L, E, EB int32
				a        int
				dstar    float64
			)
			visit := func(b int32, s float64) bool {
				if s < dstar {
					L++
					return L == kmax
				}
				E++ // s == dstar: a tie (the partner included)
				if int(b) < a {
					EB++
				}
				return false
			}
			for _, ai := range order[lo:hi] {
				if in.Err() != nil {
					return // cancelled: dbrlResult reports it
				}
				a = int(ai)
				ra := za[a*q : a*q+sz]
				dstar = distance.Sq(zb[a*q:a*q+sz], ra)
				L, E, EB = 0, 0, 0
				srch.Within(ra, dstar, visit)
				i := a*ns + t
				c.l[i] = L
				if L < kmax { // otherwise the credit is 0 whatever the ties
					c.e[i], c.eb[i] = E, EB
				}
			}
		})
	}
	return c
}

// leadingCols returns the first s columns of the n×q row-major table z as an n×s table.
func leadingCols(z []float64, n, q, s int) []float64 {
	out := make([]float64, n*s)
	for i := 0; i < n; i++ {
		copy(out[i*s:(i+1)*s], z[i*q:i*q+s])
	}
	return out
}

// DBRLAttr returns dbrl_attr, the per-attribute record linkage of metrics.md §3.5 (Morais (2022),
// L651-653), in %: for each non-constant attribute l and released value z'_jl, with
// d* = |z'_jl − z_jl|, L = #{i : |z'_jl − z_il| < d*} and E = #{i : |z'_jl − z_il| = d*},
// the credit is that of DBRL with K = 1; dbrl_attr = 100·mean over (j, l). NaN if n = 0,
// no column is left; with a missing cell it is computed on the complete cases (metrics.md
// §0.4). Cost O(pn log n).
func DBRLAttr(in *Input) Result { return dbrlAttr(in, 1) }

// DBRLAttr2 returns dbrl_attr2, DBRLAttr with K = 2 (first or second nearest).
func DBRLAttr2(in *Input) Result { return dbrlAttr(in, 2) }

func dbrlAttr(in *Input, k int) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return dbrlAttr(in, k) })
	}
	n := in.Orig.N
	if n == 0 || len(in.KeptColumns()) == 0 || hasNaN(in.Orig.Data, in.Masked.Data) {
		return nan()
	}
	za, zb, q := linkSpace(in, in.Opt.DBRLStd == "own")
	first := in.Opt.DBRLTies == "first"
	col := make([]float64, n)
	idx := make([]int, n)
	var sum float64
	for l := 0; l < q; l++ {
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(x, y int) bool { return za[idx[x]*q+l] < za[idx[y]*q+l] })
		for r, i := range idx {
			col[r] = za[i*q+l]
		}
		for j := 0; j < n; j++ {
			v := zb[j*q+l]
			ds := math.Abs(v - za[j*q+l])
			lo1, hi1 := rangeWithin(col, v, func(d float64) bool { return d < ds })
			lo2, hi2 := rangeWithin(col, v, func(d float64) bool { return d <= ds })
			less, le := hi1-lo1, hi2-lo2
			eb := 0
			if first { // tied positions are [lo2, lo1) and [hi1, hi2)
				for _, r := range [2][2]int{{lo2, lo1}, {hi1, hi2}} {
					for _, i := range idx[r[0]:r[1]] {
						if i < j {
							eb++
						}
					}
				}
			}
			sum += linkCredit(less, le-less, eb, k, first)
		}
	}
	return Result{Value: 100 * sum / float64(n*q)}
}

// rangeWithin returns the range [lo, hi) of positions i with ok(|v − s_i|), for ascending s
// and a predicate that holds on an initial range of distances: |v − s_i| is monotone on each
// side of v, so the positions form one interval found by two binary searches.
func rangeWithin(s []float64, v float64, ok func(float64) bool) (lo, hi int) {
	m := sort.SearchFloat64s(s, v) // s[:m] < v ≤ s[m:]
	lo = sort.Search(m, func(i int) bool { return ok(math.Abs(v - s[i])) })
	hi = m + sort.Search(len(s)-m, func(i int) bool { return !ok(math.Abs(v - s[m+i])) })
	return lo, hi
}
