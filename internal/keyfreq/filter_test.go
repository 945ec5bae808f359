package keyfreq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStreamFilter checks the filter of streamMany against its definition on random tuples
// and pairs of incomparable patterns: a tuple of A passes iff some tuple of B has its codes on
// the filter's keys (so no compatible tuple is skipped), the keys lie outside A ∪ B, and the
// filter declines when it would have fewer than twice B's tuples combinations.
func TestStreamFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	built, declined := 0, 0
	for trial := range 300 {
		m := 2 + r.IntN(7)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(40)
		}
		d := randomTable(r, 1+r.IntN(800), m, levels, func(_, c int) float64 { return float64(c) }, 0.1+0.3*r.Float64())
		cols := firstCols(m)
		codes, lv := codeColumns(d, len(d)/(m+1), m+1, cols)
		h := newHasher(lv)
		ts := distinct(codes, len(d)/(m+1), m, lv, nil, h)
		pats := patterns(ts)
		order := walkOrder(ts.levels)
		var f streamFilter
		for a := range pats {
			for b := range pats {
				A, B := &pats[a], &pats[b]
				if a == b || within(A.miss, B.miss) || within(B.miss, A.miss) {
					continue
				}
				if !f.build(ts, A, B, order) {
					declined++
					continue
				}
				built++
				var keys []int
				for q := range filterKeys {
					if f.stride[q] == 0 {
						continue
					}
					k := f.key[q]
					if A.miss[k] || B.miss[k] {
						t.Fatalf("trial %d: filter key %d is missing in A or B", trial, k)
					}
					keys = append(keys, k)
				}
				for _, u := range A.tuples {
					want := slices.ContainsFunc(B.tuples, func(v int32) bool {
						for _, k := range keys {
							if ts.tuple(u)[k] != ts.tuple(v)[k] {
								return false
							}
						}
						return true
					})
					if got := f.has(ts.tuple(u)); got != want {
						t.Fatalf("trial %d: tuple %v against pattern %v: filter %v, want %v", trial, ts.tuple(u), B.miss, got, want)
					}
				}
			}
		}
	}
	if built < 100 || declined < 10 {
		t.Errorf("filter built %d times and declined %d: the test does not reach both cases", built, declined)
	}
}

// TestCountZonesByKey: on random tables of 3–8 keys with 2–60 categories and 2–15 % of the
// cells missing (single-key groups large against small patterns of two or three keys, so the
// streamed joins use their filter), countLattice with the hash index split by zero set and
// the complete tuples walked first key by first key gives the pairwise reference's f and F bit
// for bit, unweighted and weighted.
func TestCountZonesByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	used := 0
	for trial := range 60 {
		m := 3 + r.IntN(6)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 2 + r.IntN(59)
		}
		n := 200 + r.IntN(1800)
		d, _ := weightedTable(r, n, m, levels, 0.02+0.13*r.Float64())
		p := m + 2
		cols := firstCols(m)
		w := column(d, n, p, m)
		for _, ww := range [][]float64{nil, w} {
			rf, rF := countPairwise(d, n, p, cols, ww)
			codes, lv := codeColumns(d, n, p, cols)
			h := newHasher(lv)
			ts := distinct(codes, n, m, lv, ww, h)
			tf, tF, ok := countLattice(ts, h, ww != nil, patterns(ts), hashIndex)
			if !ok {
				continue
			}
			used++
			for i, tu := range ts.of {
				if tf[tu] != rf[i] || !sameFloat(tF[tu], rF[i]) {
					t.Fatalf("trial %d weighted=%v: record %d: f %v F %v, want %v %v", trial, ww != nil, i, tf[tu], tF[tu], rf[i], rF[i])
				}
			}
		}
	}
	if used < 60 {
		t.Errorf("countLattice ran in only %d cases", used)
	}
}
