package metrics

import (
	"math"
	"slices"
	"strconv"

	"github.com/sdcbench/sdcbench/internal/parallel"
)

// Interval-type disclosure risk of metrics.md §3.3 and §3.4.
func init() {
	Register(Func(Info{ID: "sdid", Unit: "%", Better: Lower,
		Description: "% of records with max_l |x−x'|/sd' ≤ 0.05, R NA semantics (MAGGA study code SDID; metrics.md §3.3)"},
		SDID))
	Register(Func(Info{ID: "id_rank", Unit: "%", Better: Lower,
		Description: "rank-interval disclosure: % of (p, attribute, record) with x inside a ±p%·n rank window of x', p = 1..10 (FCRM study ID; metrics.md §3.4)"},
		IDRank))
}

// SDID returns sdid, MAGGA study's code variant of interval disclosure (metrics.md §3.3), in %:
// record j is disclosed iff max_l |x_jl − x'_jl|/sd'_l ≤ sdist, with sd'_l the sample SD of
// the released column, and sdid = 100·#disclosed/n. It keeps R's NA semantics: a ratio 0/0
// (a constant released column) is NA, a record with no failing attribute and an NA ratio is
// NA, and then the total is NaN; x/0 = +Inf fails. sdist is Opt.SDIDDist[0] (0.05); with
// several thresholds Aux holds each value under its formatted threshold ("0.1" → sdid_0.1).
// A cell missing in either table is skipped, as sdcMicro's dRisk does (§3.2): sd'_l is the SD
// of the released column's observed cells, and a record with no cell observed in both
// tables has no failing attribute, so it counts as disclosed. NaN if n < 2.
func SDID(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	ro, rm := in.Rescaled() // ratios to the SD: exact on rescaled columns, no overflow
	x, xm := ro.Data, rm.Data
	if n < 2 {
		return nan()
	}
	sd := sampleSDs(xm, n, p)
	dists := in.Opt.sdidDist()
	vals := make([]float64, len(dists))
	for t, sdist := range dists {
		cnt := 0
		na := false
		for i := 0; i < n && !na; i++ {
			fail, miss := false, false
			for l := 0; l < p; l++ {
				if !both(x[i*p+l], xm[i*p+l]) {
					continue
				}
				r := math.Abs(x[i*p+l]-xm[i*p+l]) / sd[l]
				switch {
				case math.IsNaN(r):
					miss = true
				case r > sdist:
					fail = true
				}
			}
			switch {
			case fail:
			case miss:
				na = true
			default:
				cnt++
			}
		}
		vals[t] = 100 * float64(cnt) / float64(n)
		if na {
			vals[t] = math.NaN()
		}
	}
	res := Result{Value: vals[0]}
	if len(dists) > 1 {
		res.Aux = map[string]float64{}
		for t, d := range dists {
			res.Aux[strconv.FormatFloat(d, 'g', -1, 64)] = vals[t]
		}
	}
	return res
}

// IDRank returns id_rank, the rank-based interval disclosure of metrics.md §3.4 (FCRM study
// "ID"), in %. For each attribute l the released column is sorted ascending (y_(1) ≤ … ≤
// y_(n), ties by record index) and ρ_j is the rank of x'_jl. For each p in Opt.IDRankP
// (1, …, 10 %), w = max(0, ⌈p·n/100⌉ − 1), and (p, l, j) is a hit iff
//
//	y_(max(1, ρ_j−w)) ≤ x_jl ≤ y_(min(n, ρ_j+w)).
//
// id_rank = 100·hits/#(p, l, j). NaN if n = 0; with a missing cell it is computed on the
// complete cases (metrics.md §0.4). Invariant to a per-column
// increasing affine map. Cost O(pn log n + |P|·pn).
func IDRank(in *Input) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return IDRank(in) })
	}
	n, p := in.Orig.N, in.Orig.P
	x, xm := in.Orig.Data, in.Masked.Data
	if n == 0 || p == 0 || hasNaN(x, xm) {
		return nan()
	}
	ps := in.Opt.idRankP()
	ws := make([]int, len(ps))
	for t, pc := range ps {
		ws[t] = max(0, int(math.Ceil(pc*float64(n)/100))-1)
	}
	// one column per task: sort (value, index) pairs, so ties keep record order as a stable
	// sort would; hit counts are integers, so the total does not depend on the schedule
	colHits := make([]int64, p)
	parallel.Blocks(p, 1, 0, func(lo, hi int) {
		type vi struct {
			v float64
			i int32
		}
		pairs := make([]vi, n)
		rank := make([]int32, n)
		y := make([]float64, n)
		for l := lo; l < hi; l++ {
			if in.Err() != nil {
				return
			}
			for i := range pairs {
				pairs[i] = vi{xm[i*p+l], int32(i)}
			}
			slices.SortFunc(pairs, func(a, b vi) int {
				switch {
				case a.v < b.v:
					return -1
				case a.v > b.v:
					return 1
				}
				return int(a.i - b.i)
			})
			for r, e := range pairs {
				rank[e.i] = int32(r)
				y[r] = e.v
			}
			var h int64
			for j := 0; j < n; j++ {
				v := x[j*p+l]
				rj := int(rank[j])
				for _, w := range ws {
					if y[max(0, rj-w)] <= v && v <= y[min(n-1, rj+w)] {
						h++
					}
				}
			}
			colHits[l] = h
		}
	})
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	var hits int64
	for _, h := range colHits {
		hits += h
	}
	return Result{Value: 100 * float64(hits) / float64(len(ps)*p*n)}
}
