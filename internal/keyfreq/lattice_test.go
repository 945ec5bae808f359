package keyfreq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCountLattice: on random tables with missing values (1–7 keys of 1–12 categories, small
// codes, −0 and +0, infinities, large values, duplicated records, 0–70 % of the cells missing),
// countLattice with each kind of index gives f and F bit for bit equal to the pattern-by-pattern
// joins (countJoin) and to the pairwise reference, unweighted and weighted; and where it
// declines (no complete tuple, no missing value) Count still equals the reference.
func TestCountLattice(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 11))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -3.5, 1e300, 4096, 4095, 2.5}
	valueSets := []func(k, c int) float64{
		func(k, c int) float64 { return float64(c + 1) },
		func(k, c int) float64 { return special[(c+k)%len(special)] },
		func(k, c int) float64 { return 1e6*float64(c) + 0.25 },
	}
	used := 0
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(400)
		m := 1 + r.IntN(7)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(12)
		}
		na := []float64{0, 0.02, 0.05, 0.1, 0.3, 0.7}[r.IntN(6)]
		d := randomTable(r, n, m, levels, valueSets[trial%len(valueSets)], na)
		p := m + 1
		// Duplicate some records, so that tuples repeat with different weights.
		for i := 1; i < n; i++ {
			if r.IntN(4) == 0 {
				copy(d[i*p:i*p+m], d[(i-1)*p:(i-1)*p+m])
			}
		}
		cols := r.Perm(m)[:1+r.IntN(m)]
		w := column(d, n, p, m)
		for _, ww := range [][]float64{nil, w} {
			rf, rF := countPairwise(d, n, p, cols, ww)
			f, F := Count(d, n, p, cols, ww)
			if !slices.Equal(f, rf) || !bitsEqual(F, rF) {
				t.Fatalf("trial %d weighted=%v: Count differs from the pairwise reference", trial, ww != nil)
			}
			codes, lv := codeColumns(d, n, p, cols)
			h := newHasher(lv)
			ts := distinct(codes, n, len(cols), lv, ww, h)
			jf, jF := countJoin(ts, h, ww != nil, autoJoin)
			for _, index := range []int{bitmapIndex, hashIndex} {
				tf, tF, ok := countLattice(ts, h, ww != nil, patterns(ts), index)
				if !ok {
					continue
				}
				used++
				if !slices.Equal(tf, jf) || !bitsEqual(tF, jF) {
					t.Fatalf("trial %d index %d weighted=%v: countLattice differs from countJoin:\nf = %v\nwant %v\nF = %v\nwant %v",
						trial, index, ww != nil, tf, jf, tF, jF)
				}
				for i, tu := range ts.of {
					if tf[tu] != rf[i] || math.Float64bits(tF[tu]) != math.Float64bits(rF[i]) {
						t.Fatalf("trial %d index %d weighted=%v: record %d differs from the pairwise reference", trial, index, ww != nil, i)
					}
				}
			}
		}
	}
	if used < 300 {
		t.Errorf("countLattice ran in only %d cases", used)
	}
}

// TestCountLatticeDeclines: countLattice declines a verified hasher, a table without missing
// values or without complete tuples, and an index that would be much larger than the table
// (three keys of about 1,000 observed categories, tuples missing two of them); Count is then
// still the reference.
func TestCountLatticeDeclines(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 12))
	const n = 2000
	big := randomTable(r, n, 3, []int{3000, 3000, 3000}, func(k, c int) float64 { return float64(c) }, 0.5)
	none := randomTable(r, n, 3, []int{4, 4, 4}, func(k, c int) float64 { return float64(c) }, 0)
	all := randomTable(r, n, 3, []int{4, 4, 4}, func(k, c int) float64 { return float64(c) }, 1)
	for name, c := range map[string]struct {
		d []float64
		m int
	}{"large index": {big, 3}, "no missing value": {none, 3}, "no complete tuple": {all, 3}} {
		p := c.m + 1
		cols := firstCols(c.m)
		codes, lv := codeColumns(c.d, n, p, cols)
		h := newHasher(lv)
		ts := distinct(codes, n, c.m, lv, nil, h)
		if _, _, ok := countLattice(ts, h, false, patterns(ts), autoIndex); ok {
			t.Errorf("%s: countLattice must decline", name)
		}
		f, _ := Count(c.d, n, p, cols, nil)
		rf, _ := countPairwise(c.d, n, p, cols, nil)
		if !slices.Equal(f, rf) {
			t.Errorf("%s: Count differs from the pairwise reference", name)
		}
	}
	if _, _, ok := countLattice(&tuples{}, mixHasher(2), false, nil, autoIndex); ok {
		t.Error("countLattice must decline a verified hasher")
	}
}

// TestCountLatticeSlabs: with a code space larger than a slab (four keys of 30 categories),
// the complete tuples are walked slab by slab from a gathered copy, and in place with one slab
// (the hash index); f and F equal the pattern joins bit for bit either way, weighted and not.
func TestCountLatticeSlabs(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 13))
	const n, m = 3000, 4
	d := randomTable(r, n, m, []int{30, 30, 30, 30}, func(k, c int) float64 { return float64(c + 1) }, 0.05)
	p := m + 1
	w := column(d, n, p, m)
	cols := []int{0, 1, 2, 3}
	for _, ww := range [][]float64{nil, w} {
		codes, lv := codeColumns(d, n, p, cols)
		h := newHasher(lv)
		ts := distinct(codes, n, m, lv, ww, h)
		if h.span <= slabMax {
			t.Fatalf("code space %d: want more than a slab", h.span)
		}
		var complete []int32
		for _, P := range patterns(ts) {
			if !slices.Contains(P.miss, true) {
				complete = P.tuples
			}
		}
		if slabs(ts, h, complete, true, ww != nil) == nil {
			t.Fatal("slabs: want more than one slab")
		}
		jf, jF := countJoin(ts, h, ww != nil, autoJoin)
		for _, index := range []int{bitmapIndex, hashIndex} {
			tf, tF, ok := countLattice(ts, h, ww != nil, patterns(ts), index)
			if !ok {
				t.Fatalf("index %d: countLattice declined", index)
			}
			if !slices.Equal(tf, jf) || !bitsEqual(tF, jF) {
				t.Errorf("index %d weighted=%v: countLattice differs from countJoin", index, ww != nil)
			}
		}
	}
}

// TestFillSets: on random sets of missing patterns, fillSets gives each pattern Q every key set
// filled on a walk to it (the non-empty proper suffixes, in walk order, of Q ∖ P for every
// pattern P ⊊ Q present and for P empty) once, and nothing else.
func TestFillSets(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 14))
	for trial := 0; trial < 200; trial++ {
		m := 1 + r.IntN(6)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(5)
		}
		order := walkOrder(levels)
		var pats []*pattern
		seen := map[uint64]bool{0: true}
		for range 1 + r.IntN(12) {
			q := uint64(r.IntN(1<<m-1) + 1)
			if seen[q] {
				continue
			}
			seen[q] = true
			P := &pattern{miss: make([]bool, m), tuples: make([]int32, 1+r.IntN(3))}
			for k := range m {
				P.miss[k] = q>>k&1 != 0
			}
			pats = append(pats, P)
		}
		sets, _ := fillSets(pats, order, levels)
		for i, Q := range pats {
			want := map[string]bool{}
			for P := range seen {
				q := uint64(0)
				for k, miss := range Q.miss {
					if miss {
						q |= 1 << k
					}
				}
				if P == q || P&^q != 0 {
					continue
				}
				var seq []int
				for _, k := range order {
					if (q&^P)>>k&1 != 0 {
						seq = append(seq, k)
					}
				}
				for j := 1; j < len(seq); j++ {
					s := slices.Clone(seq[j:])
					slices.Sort(s)
					want[fmt.Sprint(s)] = true
				}
			}
			got := map[string]bool{}
			for _, F := range sets[i] {
				s := slices.Clone(F)
				slices.Sort(s)
				if got[fmt.Sprint(s)] {
					t.Fatalf("trial %d pattern %v: fill %v twice", trial, Q.miss, F)
				}
				got[fmt.Sprint(s)] = true
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("trial %d pattern %v: fills %v, want %v", trial, Q.miss, got, want)
			}
		}
	}
}

// TestPartnerListsBucket checks partnerLists against its definition: after bucket, each
// tuple's partners are the entries added for it, in the order they were added (pass after
// pass), whether the blocks are fresh or taken from free ones (shorter last blocks included).
func TestPartnerListsBucket(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 7))
	for trial := range 40 {
		n := 1 + r.IntN(300)
		var free [][]uint64
		for range r.IntN(3) {
			free = append(free, make([]uint64, r.IntN(edgeBlock)+1, edgeBlock))
		}
		pl := &partnerLists{start: make([]int32, n+1), free: free}
		want := make([][]int32, n)
		passes := 1 + r.IntN(7)
		per := 1 + r.IntN(4*edgeBlock/(n*passes)+1)
		for range passes {
			for i := range n {
				if r.IntN(3) == 0 {
					continue
				}
				part := make([]int32, r.IntN(per))
				for k := range part {
					part[k] = r.Int32N(1 << 20)
				}
				pl.add(i, part)
				want[i] = append(want[i], part...)
			}
		}
		pl.bucket()
		if pl.start[0] != 0 || int(pl.start[n]) != len(pl.adj) {
			t.Fatalf("trial %d: start %d..%d, %d entries", trial, pl.start[0], pl.start[n], len(pl.adj))
		}
		for i := range n {
			if got := pl.partners(i); !slices.Equal(got, want[i]) && (len(got) > 0 || len(want[i]) > 0) {
				t.Fatalf("trial %d: tuple %d: partners %v, want %v", trial, i, got, want[i])
			}
		}
	}
}
