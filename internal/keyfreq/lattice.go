package keyfreq

import (
	"math/bits"
	"slices"
)

// This file joins the key tuples along the lattice of masks (docs/scaling.md, "Frequencies with
// missing key values"). A tuple t (missing keys P) is compatible with a tuple u whose missing
// keys Q contain P iff t with the keys of Q masked (set to code 0) is u: under the exact hasher
// that is t's mixed-radix number minus Σ_{k∈Q∖P} t_k·mult_k. Rather than streaming every
// complete tuple past every missingness pattern (one probe per complete tuple and pattern:
// about 70 patterns at 10^6 records with 2 % of the cells missing), each tuple walks up the
// lattice of masks, key by key, and a branch is followed only while some tuple with a missing
// key lies above it: the index marks every number x that agrees, outside Q, with a tuple u
// whose missing keys Q contain the keys missing in x. A complete tuple thus probes one mask per
// key and a few more (14.5 a complete tuple there, for 2.6 partners).

// upIndex marks the numbers (exact hasher) below the tuples with a missing key and finds those
// tuples by number. A number x with missing keys M is below u (missing keys Q) iff M ⊆ Q,
// M is not empty, and x agrees with u outside Q; u is below itself.
type upIndex struct {
	// Bitmap mode (bits != nil): 2 bits a number, bit 2x set if x is below a tuple with a missing
	// key, bit 2x+1 if x is such a tuple. Otherwise the numbers below are the keys of below.
	bits   []uint64
	before []int32 // bitmap mode: the tuples marked in the words before each word of bits
	slot   []int32 // bitmap mode: the tuples in ascending order of their numbers
	below  table
	miss   table // hash mode: the tuples with a missing key by number
}

// oddBits are the odd bits of a word of an upIndex bitmap (the marks of the tuples themselves).
const oddBits = 0xaaaaaaaaaaaaaaaa

// The kinds of upIndex: chosen by the size of the code space, or always one kind (tests).
const (
	autoIndex = iota
	bitmapIndex
	hashIndex
)

// maxUpBits is the largest code space (product of the code ranges) marked in a bitmap (2 bits a
// number: 32 MB) rather than a hash table, and upBits the most numbers of it per record (the
// bitmap must be cleared: at most 32 bytes a record).
const (
	maxUpBits = 1 << 27
	upBits    = 128
)

// upSize returns the number of marks (with repeats) of the tuples of the missing pattern P:
// for each tuple and each proper subset F of P's missing keys, every combination of codes on F,
// Π_{k∈P}(L_k+1) − Π_{k∈P} L_k a tuple (saturating at 2^62).
func upSize(P *pattern, levels []int) float64 {
	all, full := 1.0, 1.0
	for k, miss := range P.miss {
		if miss {
			all *= float64(levels[k] + 1)
			full *= float64(levels[k])
		}
	}
	return min(float64(len(P.tuples))*(all-full), 1<<62)
}

// newUpIndex returns the index of the tuples of the missing patterns pats (exact hasher h),
// expected to make about marks marks, in a bitmap or a hash table as index says (autoIndex: a
// bitmap if the code space is at most maxUpBits and upBits numbers a record of the n records).
func newUpIndex(ts *tuples, h hasher, pats []*pattern, marks, n, index int) *upIndex {
	ix := &upIndex{}
	nmiss := 0
	for _, P := range pats {
		nmiss += len(P.tuples)
	}
	if index == bitmapIndex || index == autoIndex && h.span <= maxUpBits && h.span <= uint64(upBits*n+1<<16) {
		ix.bits = make([]uint64, (h.span+31)/32)
	} else {
		ix.below.reset(marks)
		ix.miss.reset(nmiss)
	}
	var free []int
	for _, P := range pats {
		free = free[:0]
		for k, miss := range P.miss {
			if miss {
				free = append(free, k)
			}
		}
		q := len(free)
		for _, u := range P.tuples {
			x0 := ts.hash[u]
			if ix.bits == nil {
				_, slot := ix.miss.find(x0, nil)
				ix.miss.put(slot, x0, u)
			}
			ix.mark(x0, true)
			// Every proper non-empty subset F of the missing keys, filled with every code.
			for f := 1; f < 1<<q-1; f++ {
				ix.fill(x0, free, f, h.mult, ts.levels)
			}
		}
	}
	if ix.bits != nil { // a tuple's rank among the marked tuples, then the tuple of each rank
		ix.before = make([]int32, len(ix.bits))
		r := int32(0)
		for w, b := range ix.bits {
			ix.before[w] = r
			r += int32(bits.OnesCount64(b & oddBits))
		}
		ix.slot = make([]int32, nmiss)
		for _, P := range pats {
			for _, u := range P.tuples {
				ix.slot[ix.rank(ts.hash[u])] = u
			}
		}
	}
	return ix
}

// rank returns the number of tuples marked in the bitmap below the number x.
func (ix *upIndex) rank(x uint64) int32 {
	w, p := x>>5, 2*(x&31)+1
	return ix.before[w] + int32(bits.OnesCount64(ix.bits[w]&oddBits&(1<<p-1)))
}

// tuple returns the tuple with a missing key whose number is x, or −1.
func (ix *upIndex) tuple(x uint64) int32 {
	if ix.bits == nil {
		r, _ := ix.miss.find(x, nil)
		return r
	}
	if ix.bits[x>>5]>>(2*(x&31)+1)&1 == 0 {
		return -1
	}
	return ix.slot[ix.rank(x)]
}

// fill marks every number x0 + Σ_{k∈F} c_k·mult_k, c_k in 1..levels[k], F the keys free[i]
// for the bits i of f.
func (ix *upIndex) fill(x0 uint64, free []int, f int, mult []uint64, levels []int) {
	var keys [64]int
	var code [64]int
	n := 0
	x := x0
	for i, k := range free {
		if f>>i&1 != 0 {
			if levels[k] == 0 {
				return
			}
			keys[n], code[n] = k, 1
			x += mult[k]
			n++
		}
	}
	for {
		ix.mark(x, false)
		i := 0
		for ; i < n; i++ {
			k := keys[i]
			if code[i] < levels[k] {
				code[i]++
				x += mult[k]
				break
			}
			x -= uint64(code[i]-1) * mult[k]
			code[i] = 1
		}
		if i == n {
			return
		}
	}
}

// mark records that x is below a tuple with a missing key (and, if tuple, is one).
func (ix *upIndex) mark(x uint64, tuple bool) {
	if ix.bits != nil {
		b := uint64(1)
		if tuple {
			b = 3
		}
		ix.bits[x>>5] |= b << (2 * (x & 31))
		return
	}
	if e, slot := ix.below.find(x, nil); e < 0 {
		ix.below.put(slot, x, 0)
	}
}

// probe reports whether x is below a tuple with a missing key, and if so, the tuple x (−1 if x
// is not one).
func (ix *upIndex) probe(x uint64) (below bool, r int32) {
	if ix.bits != nil {
		b := ix.bits[x>>5] >> (2 * (x & 31))
		if b&1 == 0 {
			return false, -1
		}
		if b&2 == 0 {
			return true, -1
		}
		return true, ix.slot[ix.rank(x)]
	}
	if e, _ := ix.below.find(x, nil); e < 0 {
		return false, -1
	}
	r, _ = ix.miss.find(x, nil)
	return true, r
}

// up appends to out the tuples with a missing key that equal x (a number whose
// codes are codes) with the keys of a non-empty set M masked, M made of keys from from on that
// are not missing in x, visiting the masks in lexicographic order of their keys and skipping
// every mask with nothing above it.
func (ix *upIndex) up(x uint64, codes []uint32, mult []uint64, from int, out []int32) []int32 {
	for k := from; k < len(codes); k++ {
		c := codes[k]
		if c == 0 {
			continue
		}
		y := x - uint64(c)*mult[k]
		below, r := ix.probe(y)
		if !below {
			continue
		}
		if r >= 0 {
			out = append(out, r)
		}
		out = ix.up(y, codes, mult, k+1, out)
	}
	return out
}

// countLattice is count for an exact hasher. The tuples with a missing key are copied into a
// compact table of their own (so that the joins among them read small arrays). Every tuple walks up the lattice of masks through an upIndex and finds its compatible
// tuples whose missing keys strictly contain its own (for a complete tuple, all its partners);
// the other compatible pairs, of two patterns neither of which contains the other, are joined
// pattern by pattern (countJoin's joins). ok is false (and nothing computed) if the index would
// take more than about one mark per record, or the hasher is not exact.
//
// pats are the patterns of ts (their tuple lists are renumbered if ok). index chooses the kind
// of upIndex (autoIndex, or bitmapIndex or hashIndex for tests). Unweighted, tF is tf.
func countLattice(ts *tuples, h hasher, weighted bool, pats []pattern, index int) (tf, tF []float64, ok bool) {
	if !h.exact {
		return nil, nil, false
	}
	var complete *pattern
	var missing []*pattern
	marks, u := 0.0, 0
	for i := range pats {
		P := &pats[i]
		if !slices.Contains(P.miss, true) {
			complete = P
			continue
		}
		missing = append(missing, P)
		marks += upSize(P, ts.levels)
		u += len(P.tuples)
	}
	if complete == nil || len(missing) == 0 || marks > float64(len(ts.of)+1<<16) {
		return nil, nil, false
	}
	ms, id := compactMissing(ts, missing, u) // ms: the tuples with a missing key; id: their numbers in ts
	ix := newUpIndex(ms, h, missing, int(marks), len(ts.of), index)

	// Pairs of patterns neither of which contains the other, joined pattern by pattern; then the
	// pairs of which one's missing keys contain the other's, from the smaller pattern up.
	j := &joiner{ts: ms, h: h, weighted: weighted, tf: slices.Clone(ms.cnt)}
	j.lookup = ix.tuple
	if weighted {
		j.edges.deg = make([]int, u)
	}
	joinIncomparable(j, missing)
	var part []int32
	for s := range int32(u) {
		part = ix.up(ms.hash[s], ms.tuple(s), h.mult, 0, part[:0])
		cs, fs := ms.cnt[s], j.tf[s]
		for _, r := range part {
			fs += ms.cnt[r]
			j.tf[r] += cs
			if weighted {
				j.edges.add(s, r)
			}
		}
		j.tf[s] = fs
	}
	mtf := j.tf

	// The complete tuples with all their partners, slab by slab (slabs).
	sl := slabs(ts, h, complete.tuples, ix.bits != nil, weighted)
	tf = slices.Clone(ts.cnt)
	var pl, pstart, deg []int32 // weighted: the partners of sl.ord[i], pl[pstart[i]:pstart[i+1]]
	if weighted {
		tF = make([]float64, len(ts.cnt))
		pstart = make([]int32, len(sl.ord)+1)
		deg = make([]int32, u) // complete partners of each tuple with a missing key
	}
	m := ts.m
	for i, t := range sl.ord {
		part = ix.up(sl.hash[i], sl.codes[i*m:(i+1)*m], h.mult, 0, part[:0])
		ct, ft := sl.cnt[i], sl.cnt[i]
		for _, r := range part {
			ft += ms.cnt[r]
			mtf[r] += ct
		}
		tf[t] = ft
		if !weighted {
			continue
		}
		insertionSort(part) // ascending tuples
		f := sl.wsum[i]
		for _, r := range part {
			f += ms.wsum[r]
			deg[r]++
		}
		tF[t] = f
		pl = append(pl, part...)
		pstart[i+1] = int32(len(pl))
	}
	for s, t := range id {
		tf[t] = mtf[s]
	}
	if !weighted {
		return tf, tf, true
	}
	// A tuple with a missing key adds its partners in ascending order: the complete ones
	// (bucketed with their sums, then sorted) merged with those with a missing key (nb).
	cstart := make([]int32, u+1)
	for s, d := range deg {
		cstart[s+1] = cstart[s] + d
	}
	ct, cw := make([]int32, len(pl)), make([]float64, len(pl))
	pos := deg[:0:0]
	pos = append(pos, cstart[:u]...)
	for _, t := range complete.tuples { // ascending, so that each bucket ascends
		i := sl.at[t]
		wt := sl.wsum[i]
		for _, r := range pl[pstart[i]:pstart[i+1]] {
			ct[pos[r]], cw[pos[r]] = t, wt
			pos[r]++
		}
	}
	nb, start := missingNeighbours(j.edges, u)
	for s, t := range id {
		var a float64
		c, cend := cstart[s], cstart[s+1]
		for _, v := range nb[start[s]:start[s+1]] {
			iv := id[v]
			for ; c < cend && ct[c] < iv; c++ {
				a += cw[c]
			}
			a += ms.wsum[v]
		}
		for ; c < cend; c++ {
			a += cw[c]
		}
		tF[t] = a
	}
	return tf, tF, true
}

// compactMissing returns the u tuples of the patterns pats of ts as tuples of their own, in
// ascending order, and the number in ts of each; each pattern's tuples are renumbered into it.
func compactMissing(ts *tuples, pats []*pattern, u int) (ms *tuples, id []int32) {
	m := ts.m
	rank := make([]int32, len(ts.cnt))
	for _, P := range pats {
		for _, t := range P.tuples {
			rank[t] = 1
		}
	}
	ms = &tuples{m: m, levels: ts.levels, codes: make([]uint32, 0, u*m), hash: make([]uint64, 0, u),
		cnt: make([]float64, 0, u), wsum: make([]float64, 0, u)}
	id = make([]int32, 0, u)
	for t, in := range rank {
		if in == 0 {
			continue
		}
		rank[t] = int32(len(id))
		id = append(id, int32(t))
		ms.codes = append(ms.codes, ts.tuple(int32(t))...)
		ms.hash = append(ms.hash, ts.hash[t])
		ms.cnt = append(ms.cnt, ts.cnt[t])
		ms.wsum = append(ms.wsum, ts.wsum[t])
	}
	for _, P := range pats {
		for i, t := range P.tuples {
			P.tuples[i] = rank[t]
		}
	}
	return ms, id
}

// missingNeighbours buckets the compatible pairs edges of the tuples 0..u−1: each tuple's
// bucket nb[start[s]:start[s+1]] lists its partners and itself in ascending order.
func missingNeighbours(edges edgeList, u int) (nb, start []int32) {
	start = make([]int32, u+1)
	for s := range u {
		start[s+1] = start[s] + int32(edges.deg[s]) + 1
	}
	adj := make([]int32, start[u])
	pos := slices.Clone(start[:u])
	for s := range int32(u) {
		adj[pos[s]] = s
		pos[s]++
	}
	scatterPairs(&edges, adj, pos)
	// Once more, visiting the tuples in ascending order, so that each bucket ascends.
	nb = make([]int32, len(adj))
	copy(pos, start[:u])
	for s := range int32(u) {
		for _, v := range adj[start[s]:start[s+1]] {
			nb[pos[v]] = s
			pos[v]++
		}
	}
	return nb, start
}

// insertionSort sorts the short slice a in ascending order.
func insertionSort(a []int32) {
	for i := 1; i < len(a); i++ {
		for k := i; k > 0 && a[k] < a[k-1]; k-- {
			a[k], a[k-1] = a[k-1], a[k]
		}
	}
}

// slabMax is the most numbers of a slab (slabs): 128 KB of a 2-bit upIndex bitmap.
const slabMax = 1 << 19

// A slabbed copy of tuples: ord[i] is the i-th tuple, with its number, codes, count and sum;
// at[t] is the position i of tuple t (weighted only).
type slabbed struct {
	ord, at   []int32
	hash      []uint64
	codes     []uint32
	cnt, wsum []float64
}

// slabs returns the tuples tup of ts (ascending) grouped by slab, in ascending order within a
// slab, with their data gathered in that order (wsum only if weighted). A slab is a run of
// numbers on which the codes of the most significant keys are fixed, at most slabMax numbers:
// a tuple's masks then fall in its own slab or in those with some of these codes 0, so that an
// upIndex bitmap is probed within a few small regions (if bitmap; otherwise one slab).
func slabs(ts *tuples, h hasher, tup []int32, bitmap, weighted bool) *slabbed {
	m := ts.m
	s := m // the keys s.. fix the slab: the last whose multiplier (the slab's size) is at most slabMax
	if bitmap && h.span > slabMax {
		for k := range m {
			if h.mult[k] <= slabMax {
				s = k
			}
		}
		if h.span/h.mult[s] > uint64(4*len(tup)+1024) {
			s = m // more slabs than tuples
		}
	}
	// Slab of a tuple: Σ_{k≥s} c_k·mult_k/mult_s.
	q := make([]uint64, m)
	nslab := uint64(1)
	if s < m {
		for k := s; k < m; k++ {
			q[k] = h.mult[k] / h.mult[s]
		}
		nslab = h.span / h.mult[s]
	}
	slabOf := func(t int32) uint64 {
		var x uint64
		for k, c := range ts.tuple(t)[s:] {
			x += uint64(c) * q[s+k]
		}
		return x
	}
	start := make([]int, nslab+1)
	for _, t := range tup {
		start[slabOf(t)+1]++
	}
	for i := range nslab {
		start[i+1] += start[i]
	}
	n := len(tup)
	sl := &slabbed{ord: make([]int32, n), hash: make([]uint64, n), codes: make([]uint32, n*m), cnt: make([]float64, n)}
	if weighted {
		sl.wsum = make([]float64, n)
		sl.at = make([]int32, len(ts.cnt))
	}
	for _, t := range tup {
		b := slabOf(t)
		i := start[b]
		start[b]++
		sl.ord[i], sl.hash[i], sl.cnt[i] = t, ts.hash[t], ts.cnt[t]
		copy(sl.codes[i*m:(i+1)*m], ts.tuple(t))
		if weighted {
			sl.wsum[i], sl.at[t] = ts.wsum[t], int32(i)
		}
	}
	return sl
}
