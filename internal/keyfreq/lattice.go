package keyfreq

import "slices"

// This file joins the key tuples along the lattice of masks (docs/scaling.md, "Frequencies with
// missing key values"). A tuple t (missing keys P) is compatible with a tuple u whose missing
// keys Q contain P iff t with the keys of Q masked (set to code 0) is u: under the exact hasher
// that is t's mixed-radix number minus Σ_{k∈Q∖P} t_k·mult_k. Rather than streaming every
// complete tuple past every missingness pattern (one probe per complete tuple and pattern:
// about 70 patterns at 10^6 records with 2 % of the cells missing), each tuple walks up the
// lattice of masks, key by key in the walk order (keys with many levels first), and a branch is
// followed only while some tuple with a missing key lies above it: the index marks each tuple u
// with a missing key (missing keys Q) and the numbers a walk passes on its way to u, u with a
// non-empty proper suffix (in walk order) of the keys Q ∖ P filled with codes, for each pattern
// P ⊊ Q present (fillSets). Masking the keys with many levels first leaves the keys with few
// levels to fill: on census keys at 10^6 records 163,000 marks instead of 1.0·10^6 for every
// subset of Q.

// countLattice is count for an exact hasher. The tuples with a missing key are copied into a
// compact table of their own (so that the joins among them read small arrays). Every tuple
// walks up the lattice of masks through an upIndex and finds its compatible tuples whose
// missing keys strictly contain its own (for a complete tuple, all its partners);
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
	u := 0
	for i := range pats {
		P := &pats[i]
		if !slices.Contains(P.miss, true) {
			complete = P
			continue
		}
		missing = append(missing, P)
		u += len(P.tuples)
	}
	if complete == nil || len(missing) == 0 {
		return nil, nil, false
	}
	order := walkOrder(ts.levels)
	sets, marks := fillSets(missing, order, ts.levels)
	if marks > float64(len(ts.of)+1<<16) {
		return nil, nil, false
	}
	ms, id := compactMissing(ts, missing, u) // ms: the tuples with a missing key; id: their numbers in ts
	ix := newUpIndex(ms, h, missing, order, sets, int(marks), len(ts.of), index)

	// Pairs of patterns neither of which contains the other, joined pattern by pattern; then the
	// pairs of which one's missing keys contain the other's, from the smaller pattern up.
	j := &joiner{ts: ms, h: h, weighted: weighted, tf: slices.Clone(ms.cnt)}
	j.lookup = ix.tuple
	if weighted {
		j.edges.deg = make([]int32, u)
	}
	joinIncomparable(j, missing)
	var part []int32
	for s := range int32(u) {
		part = ix.up(ms.hash[s], ms.tuple(s), h.mult, order, 0, part[:0])
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
	// With one slab (sl nil), in ascending order, read in place.
	sl := slabs(ts, h, complete.tuples, ix.bits != nil, weighted)
	ord := complete.tuples
	if sl != nil {
		ord = sl.ord
	}
	tf = slices.Clone(ts.cnt)
	// Weighted, a complete tuple's sum is its own and then its partners' in ascending order (all
	// of them with a missing key). A tuple with a missing key adds its partners, itself
	// included, in ascending order: rather than sorting each one's partners, every tuple, in
	// ascending order, adds its sum to those of its partners with a missing key (mF): the
	// complete ones from their walks, those with a missing key (and itself) from the compatible
	// pairs bucketed by tuple (adj). With one slab the complete tuples are walked in ascending
	// order, so they add theirs as they are walked, after the tuples with a missing key before
	// them (pushMissing); slab by slab their partners are kept (pl) and added afterwards.
	var adj, start []int32
	var mF []float64
	var pl, pstart []int32 // slab by slab: the partners of ord[i], pl[pstart[i]:pstart[i+1]]
	si := 0                // the next tuple with a missing key to add its sum
	// pushMissing adds the sums of the tuples with a missing key before tuple below.
	pushMissing := func(below int32) {
		for ; si < u && id[si] < below; si++ {
			ws := ms.wsum[si]
			mF[si] += ws
			for _, r := range adj[start[si]:start[si+1]] {
				mF[r] += ws
			}
		}
	}
	if weighted {
		tF = make([]float64, len(ts.cnt))
		adj, start = missingAdjacency(j.edges, u)
		mF = make([]float64, u)
		if sl != nil {
			pstart = make([]int32, len(ord)+1)
		}
	}
	// With a hash index split by zero set the complete tuples walk first key by first key
	// (walkByKey), and their partners are then read from buckets (weighted) or already added.
	byKey := ix.bits == nil && ix.zmask != 0 && sl == nil
	var runs *partnerLists
	if byKey {
		var free [][]uint64 // the blocks of the pairs, bucketed above
		if weighted {
			free = j.edges.all()
			j.edges = edgeList{}
		}
		runs = walkByKey(ts, ms, ix, h, order, ord, tf, mtf, weighted, free)
	}
	m := ts.m
	for i, t := range ord {
		if byKey && !weighted {
			break
		}
		x, codes, ct := ts.hash[t], ts.tuple(t), ts.cnt[t]
		if sl != nil {
			x, codes, ct = sl.hash[i], sl.codes[i*m:(i+1)*m], sl.cnt[i]
		}
		if byKey {
			part = runs.partners(i)
		} else {
			part = ix.up(x, codes, h.mult, order, 0, part[:0])
		}
		ft := ct
		for _, r := range part {
			ft += ms.cnt[r]
			mtf[r] += ct
		}
		tf[t] = ft
		if !weighted {
			continue
		}
		insertionSort(part) // ascending tuples
		f := ts.wsum[t]
		if sl != nil {
			f = sl.wsum[i]
		}
		for _, r := range part {
			f += ms.wsum[r]
		}
		tF[t] = f
		if sl != nil {
			pl = append(pl, part...)
			pstart[i+1] = int32(len(pl))
			continue
		}
		pushMissing(t)
		wt := ts.wsum[t]
		for _, r := range part {
			mF[r] += wt
		}
	}
	for s, t := range id {
		tf[t] = mtf[s]
	}
	if !weighted {
		return tf, tf, true
	}
	if sl != nil {
		ci := 0
		pushComplete := func(below int32) { // the complete tuples before tuple below
			for ; ci < len(complete.tuples) && complete.tuples[ci] < below; ci++ {
				c := complete.tuples[ci]
				i, wc := sl.at[c], ts.wsum[c]
				for _, r := range pl[pstart[i]:pstart[i+1]] {
					mF[r] += wc
				}
			}
		}
		for _, t := range id {
			pushComplete(t)
			pushMissing(t + 1)
		}
		pushComplete(int32(len(ts.cnt)))
	}
	pushMissing(int32(len(ts.cnt)))
	for s, t := range id {
		tF[t] = mF[s]
	}
	return tf, tF, true
}

// walkByKey walks the complete tuples ord of ts up the lattice of masks through the hash-mode
// index ix, with zones: first every tuple's masks whose first key is order[0], then order[1],
// and so on, so that each pass reads the zones whose zero set has that key first, a part of
// the index that stays in cache, rather than all of it for every tuple. Unweighted, it adds
// the partners' counts (ms) to tf and each tuple's count to its partners' in mtf (sums of
// whole numbers: exact in any order) and returns nil. Weighted, it returns the partners
// instead (the same set the walk of the whole tuple finds, each once), bucketed by tuple, for
// countLattice to add in its order, in blocks taken from free first.
func walkByKey(ts, ms *tuples, ix *upIndex, h hasher, order []int, ord []int32, tf, mtf []float64, weighted bool, free [][]uint64) *partnerLists {
	var part []int32
	var pl *partnerLists
	if weighted {
		pl = &partnerLists{start: make([]int32, len(ord)+1), free: free}
	}
	for j := range order {
		for i, t := range ord {
			part = ix.upFrom(ts.hash[t], 0, ts.tuple(t), h.mult, order, j, part[:0])
			if len(part) == 0 {
				continue
			}
			if weighted {
				pl.add(i, part)
				continue
			}
			ct, ft := ts.cnt[t], tf[t]
			for _, r := range part {
				ft += ms.cnt[r]
				mtf[r] += ct
			}
			tf[t] = ft
		}
	}
	if weighted {
		pl.bucket()
	}
	return pl
}

// partnerLists holds the partners found by walkByKey, weighted. While the passes run, entries
// i<<32 | partner of ord[i] are appended in blocks (no copying as they grow; taken from free
// first) and start[i+1] counts ord[i]'s; bucket then lays them out by tuple (a counting sort,
// each tuple's partners in the order they were found), so that reading them back is a slice,
// not a merge of the passes' runs.
type partnerLists struct {
	blocks [][]uint64
	free   [][]uint64 // blocks no longer used elsewhere, of length edgeBlock or more
	n      int
	start  []int32 // after bucket: ord[i]'s partners are adj[start[i]:start[i+1]]
	adj    []int32
}

// add records the partners part of ord[i].
func (p *partnerLists) add(i int, part []int32) {
	p.start[i+1] += int32(len(part))
	hi := uint64(i) << 32
	for _, r := range part {
		if p.n%edgeBlock == 0 {
			var blk []uint64
			if k := len(p.free); k > 0 {
				blk, p.free = p.free[k-1][:edgeBlock], p.free[:k-1]
			} else {
				blk = make([]uint64, edgeBlock)
			}
			p.blocks = append(p.blocks, blk)
		}
		p.blocks[p.n/edgeBlock][p.n%edgeBlock] = hi | uint64(uint32(r))
		p.n++
	}
}

// bucket lays the entries out by tuple and drops the blocks. start[i+1] first becomes the
// beginning of ord[i]'s bucket and is advanced as it is filled, ending at its end.
func (p *partnerLists) bucket() {
	var sum int32
	for i := 1; i < len(p.start); i++ {
		c := p.start[i]
		p.start[i] = sum
		sum += c
	}
	p.adj = make([]int32, p.n)
	for b, blk := range p.blocks {
		if rest := p.n - b*edgeBlock; rest < len(blk) {
			blk = blk[:rest]
		}
		for _, e := range blk {
			i := e>>32 + 1
			p.adj[p.start[i]] = int32(uint32(e))
			p.start[i]++
		}
	}
	p.blocks, p.free = nil, nil
}

// partners returns the partners of ord[i] (a part of p's storage, which the caller may reorder).
func (p *partnerLists) partners(i int) []int32 {
	return p.adj[p.start[i]:p.start[i+1]]
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

// missingAdjacency buckets the compatible pairs edges of the tuples 0..u−1: each tuple's
// bucket adj[start[s]:start[s+1]] lists its partners, in no particular order.
func missingAdjacency(edges edgeList, u int) (adj, start []int32) {
	start = make([]int32, u+1)
	for s := range u {
		start[s+1] = start[s] + edges.deg[s]
	}
	adj = make([]int32, start[u])
	pos := slices.Clone(start[:u])
	scatterPairs(&edges, adj, pos)
	return adj, start
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
// slab, with their data gathered in that order (wsum only if weighted); nil if there would be
// one slab. A slab is a run of numbers on which the codes of the most significant keys are
// fixed, at most slabMax numbers: a tuple's masks then fall in its own slab or in those with
// some of these codes 0, so that an upIndex bitmap is probed within a few small regions (if
// bitmap; otherwise one slab).
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
	if s == m {
		return nil
	}
	// Slab of a tuple: Σ_{k≥s} c_k·mult_k/mult_s.
	q := make([]uint64, m)
	for k := s; k < m; k++ {
		q[k] = h.mult[k] / h.mult[s]
	}
	nslab := h.span / h.mult[s]
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
