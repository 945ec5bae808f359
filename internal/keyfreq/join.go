package keyfreq

import (
	"math/bits"
	"slices"
)

// tuples are the distinct key tuples of a table, numbered in order of first appearance.
type tuples struct {
	m         int
	codes     []uint32  // codes of tuple t: codes[t*m : (t+1)*m] (0 missing)
	hash      []uint64  // full hash of each tuple
	cnt, wsum []float64 // records of each tuple and the sum of their weights (row order)
	of        []int32   // tuple of each record
	index     table     // the tuples by hash, if dense is nil (built on first lookup if indexed is false)
	indexed   bool
	dense     []int32 // tuple + 1 (0: none) of each exact hash, if the code space is small
	levels    []int   // codes of key k range over 1..levels[k] (and 0)
}

func (ts *tuples) tuple(t int32) []uint32 { return ts.codes[int(t)*ts.m : (int(t)+1)*ts.m] }

// lookup returns the tuple with hash key for which same holds (see table.find), or −1.
func (ts *tuples) lookup(key uint64, same func(e int32) bool) int32 {
	if ts.dense != nil {
		return ts.dense[key] - 1
	}
	if !ts.indexed {
		ts.index = indexOf(ts)
		ts.indexed = true
	}
	t, _ := ts.index.find(key, same)
	return t
}

// indexOf returns a table of the tuples of ts by hash.
func indexOf(ts *tuples) table {
	var tb table
	tb.reset(len(ts.hash))
	for t, key := range ts.hash {
		_, slot := tb.find(key, func(int32) bool { return false })
		tb.put(slot, key, int32(t))
	}
	return tb
}

// maxDense is the largest code space (product of the code ranges of an exact hasher) indexed by
// a direct array rather than a hash table, and denseRows the least records per entry of it: the
// array (4 bytes an entry) must be cleared, so it pays only when the records are many.
const (
	maxDense  = 1 << 26
	denseRows = 8
)

// radixBits is the digit width of distinctSorted's radix sort.
const radixBits = 11

// distinctSorted is distinctIndexed for an exact hasher h whose hashes fit in 32 bits, with
// the records grouped by sorting (key, record) pairs on the key (least-significant-digit radix
// sort) instead of probing a hash table at random for each record; the tuples are then
// numbered in order of first appearance by one pass over the records, as distinctIndexed does,
// and indexed by hash only if a lookup needs it.
func distinctSorted(keys []uint64, n, m int, levels []int, w []float64, h hasher) *tuples {
	ts := &tuples{m: m, of: make([]int32, n), levels: levels}
	a, b := make([]uint64, n), make([]uint64, n)
	for i, k := range keys {
		a[i] = k<<32 | uint64(i)
	}
	var cnt [1 << radixBits]int
	for shift := 32; shift < 32+bits.Len64(h.span-1); shift += radixBits {
		clear(cnt[:])
		for _, v := range a {
			cnt[(v>>shift)&(1<<radixBits-1)]++
		}
		s := 0
		for d, c := range cnt {
			cnt[d], s = s, s+c
		}
		for _, v := range a {
			d := (v >> shift) & (1<<radixBits - 1)
			b[cnt[d]] = v
			cnt[d]++
		}
		a, b = b, a
	}
	// Group of each record (groups in key order), the key of each group.
	grp := make([]int32, n)
	gkey := b[:0] // b is free now
	for _, v := range a {
		k := v >> 32
		if len(gkey) == 0 || gkey[len(gkey)-1] != k {
			gkey = append(gkey, k)
		}
		grp[uint32(v)] = int32(len(gkey) - 1)
	}
	c := len(gkey)
	ts.codes = make([]uint32, 0, c*m)
	ts.hash = make([]uint64, 0, c)
	ts.cnt = make([]float64, 0, c)
	ts.wsum = make([]float64, 0, c)
	num := make([]int32, c) // tuple + 1 of each group, 0 until it appears
	for i, g := range grp {
		t := num[g] - 1
		if t < 0 {
			t = ts.addExact(gkey[g])
			num[g] = t + 1
		}
		ts.of[i] = t
		ts.cnt[t]++
		if w != nil {
			ts.wsum[t] += w[i]
		} else {
			ts.wsum[t]++
		}
	}
	return ts
}

// useDense reports whether distinct indexes the tuples of n records by a direct array under h.
func useDense(h hasher, n int) bool {
	return h.exact && h.span <= maxDense && h.span <= uint64(denseRows*n)
}

// distinct returns the distinct tuples of the n×m codes with weights w (nil: wsum = cnt).
func distinct(codes []uint32, n, m int, levels []int, w []float64, h hasher) *tuples {
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = h.hash(codes[i*m : (i+1)*m])
	}
	return distinctIndexed(keys, codes, n, m, levels, w, h, useDense(h, n))
}

// distinctKeys returns the distinct tuples of n records with hashes keys under the exact
// hasher h and weights w, through the direct array if the code space is small (useDense),
// else by sorting if the hashes fit in 32 bits, else through a hash table.
func distinctKeys(keys []uint64, n, m int, levels []int, w []float64, h hasher) *tuples {
	switch {
	case useDense(h, n):
		return distinctIndexed(keys, nil, n, m, levels, w, h, true)
	case h.span <= 1<<32:
		return distinctSorted(keys, n, m, levels, w, h)
	}
	return distinctIndexed(keys, nil, n, m, levels, w, h, false)
}

// distinctIndexed returns the distinct tuples of n records with hashes keys under h and
// weights w (nil: wsum = cnt). codes are the records' n×m codes; they may be nil if h is
// exact (the codes of a tuple are then read off its hash).
//
// If dense (which needs h.exact), the hash of a tuple is its mixed-radix number and indexes an
// array directly (no probing, no growth); otherwise an open-addressing table is grown as tuples
// appear. Both number the tuples identically.
func distinctIndexed(keys []uint64, codes []uint32, n, m int, levels []int, w []float64, h hasher, dense bool) *tuples {
	ts := &tuples{m: m, of: make([]int32, n), levels: levels}
	// At most min(n, span) tuples: reserve that (capped) to avoid regrowing the slices.
	c := n
	if h.exact && h.span < uint64(c) {
		c = int(h.span)
	}
	c = min(c, 1<<20)
	ts.codes = make([]uint32, 0, c*m)
	ts.hash = make([]uint64, 0, c)
	ts.cnt = make([]float64, 0, c)
	ts.wsum = make([]float64, 0, c)
	add := func(i int, key uint64) int32 {
		if codes != nil {
			return ts.add(codes[i*m:(i+1)*m], key)
		}
		return ts.addExact(key)
	}
	if dense {
		ts.dense = make([]int32, h.span)
		for i, key := range keys {
			t := ts.dense[key] - 1
			if t < 0 {
				t = add(i, key)
				ts.dense[key] = t + 1
			}
			ts.of[i] = t
			ts.cnt[t]++
			if w != nil {
				ts.wsum[t] += w[i]
			} else {
				ts.wsum[t]++
			}
		}
		return ts
	}
	var tb table
	tb.reset(min(c, 1<<16)) // grown as tuples appear
	var rec []uint32
	var same func(e int32) bool
	if !h.exact {
		same = func(e int32) bool { return slices.Equal(ts.tuple(e), rec) }
	}
	for i, key := range keys {
		if !h.exact {
			rec = codes[i*m : (i+1)*m]
		}
		t, slot := tb.find(key, same)
		if t < 0 {
			t = add(i, key)
			if 2*len(ts.cnt) > tb.size() {
				tb = grow(ts, tb)
			} else {
				tb.put(slot, key, t)
			}
		}
		ts.of[i] = t
		ts.cnt[t]++
		if w != nil {
			ts.wsum[t] += w[i]
		} else {
			ts.wsum[t]++
		}
	}
	ts.index, ts.indexed = tb, true
	return ts
}

// addExact appends a new tuple with hash key under the exact hasher of ts.levels, its codes
// read off key (the mixed-radix digits), and returns its number.
func (ts *tuples) addExact(key uint64) int32 {
	t := int32(len(ts.cnt))
	if key>>32 == 0 { // 32-bit division is the cheaper
		rest := uint32(key)
		for _, L := range ts.levels {
			r := uint32(L) + 1
			ts.codes = append(ts.codes, rest%r)
			rest /= r
		}
	} else {
		rest := key
		for _, L := range ts.levels {
			r := uint64(L) + 1
			ts.codes = append(ts.codes, uint32(rest%r))
			rest /= r
		}
	}
	ts.hash = append(ts.hash, key)
	ts.cnt = append(ts.cnt, 0)
	ts.wsum = append(ts.wsum, 0)
	return t
}

// add appends a new tuple with codes rec and hash key and returns its number.
func (ts *tuples) add(rec []uint32, key uint64) int32 {
	t := int32(len(ts.cnt))
	ts.codes = append(ts.codes, rec...)
	ts.hash = append(ts.hash, key)
	ts.cnt = append(ts.cnt, 0)
	ts.wsum = append(ts.wsum, 0)
	return t
}

// grow returns a table twice the size of tb holding every tuple of ts.
func grow(ts *tuples, tb table) table {
	var nt table
	nt.reset(tb.size())
	for t, key := range ts.hash {
		_, slot := nt.find(key, func(int32) bool { return false })
		nt.put(slot, key, int32(t))
	}
	return nt
}

// pattern is a missingness pattern: the keys missing in its tuples, and its tuples (ascending).
type pattern struct {
	miss   []bool
	tuples []int32
}

// patterns groups the tuples of ts by missingness pattern.
func patterns(ts *tuples) []pattern {
	var pats []pattern
	patOf := map[string]int{}
	pb, prev := make([]byte, ts.m), make([]byte, ts.m)
	q := -1 // the pattern of prev
	for t := range int32(len(ts.cnt)) {
		for k, v := range ts.tuple(t) {
			pb[k] = 0
			if v == 0 {
				pb[k] = 1
			}
		}
		if q >= 0 && string(pb) == string(prev) { // runs of one pattern (all, without missing values)
			pats[q].tuples = append(pats[q].tuples, t)
			continue
		}
		copy(prev, pb)
		var ok bool
		q, ok = patOf[string(pb)]
		if !ok {
			q = len(pats)
			patOf[string(pb)] = q
			miss := make([]bool, ts.m)
			for k := range pb {
				miss[k] = pb[k] == 1
			}
			pats = append(pats, pattern{miss: miss})
		}
		pats[q].tuples = append(pats[q].tuples, t)
	}
	return pats
}

// enumCost is the cost of one lookup in the index of all tuples (a cache miss on large
// tables) relative to one in a join's small table.
const enumCost = 3

// count returns the counts tf and weighted sums tF per distinct tuple of ts (weighted: in the
// summation order of Count; otherwise tF = tf), with the semantics of Count.
//
// Tuples of one pattern are compatible only with themselves (equal codes outside the
// pattern's missing keys means equal tuples). Tuples of patterns A and B are compatible iff
// they agree outside A ∪ B; each pair of patterns takes the cheaper of two joins: hash the
// smaller group on the keys outside A ∪ B and look up the larger (stream), or, for each tuple
// of A, look up in the index of all tuples every tuple of B it can be compatible with (its
// codes outside A ∪ B, 0 on B, every code on the keys of A not in B: enumerate).
func count(ts *tuples, h hasher, weighted bool) (tf, tF []float64) {
	return countJoin(ts, h, weighted, autoJoin)
}

// The joins of countJoin: the cheaper of each pair of patterns, or always one kind (tests).
const (
	autoJoin = iota
	streamJoin
	enumJoin
)

// countJoin is count with the join of every pair of patterns chosen by how.
func countJoin(ts *tuples, h hasher, weighted bool, how int) (tf, tF []float64) {
	pats := patterns(ts)
	j := &joiner{ts: ts, h: h, weighted: weighted, tf: slices.Clone(ts.cnt)}
	if weighted {
		j.edges.deg = make([]int, len(ts.cnt))
	}
	for a := range pats {
		for b := a + 1; b < len(pats); b++ {
			A, B := &pats[a], &pats[b]
			stream := float64(2*min(len(A.tuples), len(B.tuples)) + max(len(A.tuples), len(B.tuples)))
			ea, eb := j.enumSize(A, B), j.enumSize(B, A)
			switch {
			case how == streamJoin:
				j.stream(A, B)
			case how == enumJoin && ea <= eb:
				j.enumerate(A, B)
			case how == enumJoin:
				j.enumerate(B, A)
			case enumCost*ea < stream && ea <= eb:
				j.enumerate(A, B)
			case enumCost*eb < stream:
				j.enumerate(B, A)
			default:
				j.stream(A, B)
			}
		}
	}
	if !weighted {
		return j.tf, slices.Clone(j.tf)
	}
	return j.tf, weightedSums(ts, j.edges)
}

// joiner holds the counts being summed and the scratch space of the joins.
type joiner struct {
	ts       *tuples
	h        hasher
	weighted bool
	tf       []float64
	edges    edgeList // compatible pairs of tuples of different patterns, weighted only

	tb         table
	ent        []int32
	ecnt, eacc []float64
	head, next []int32
	cand       []uint32
}

// pair records that tuples a and b (of different patterns) are compatible.
func (j *joiner) pair(a, b int32) {
	j.tf[a] += j.ts.cnt[b]
	j.tf[b] += j.ts.cnt[a]
	if j.weighted {
		j.edges.add(a, b)
	}
}

// enumSize returns the number of lookups of enumerate(A, B) (saturating at 2^62).
func (j *joiner) enumSize(A, B *pattern) float64 {
	s := float64(len(A.tuples))
	for k, miss := range A.miss {
		if miss && !B.miss[k] {
			s *= float64(j.ts.levels[k])
		}
	}
	return min(s, 1<<62)
}

// enumerate joins A and B by looking up, for each tuple of A, every tuple of B it can be
// compatible with in the index of all tuples.
func (j *joiner) enumerate(A, B *pattern) {
	ts, h := j.ts, j.h
	var free, zero []int // keys of A not in B (enumerated), keys of B set to 0
	for k := range A.miss {
		switch {
		case A.miss[k] && !B.miss[k]:
			free = append(free, k)
		case B.miss[k] && !A.miss[k]:
			zero = append(zero, k)
		}
	}
	for _, k := range free {
		if ts.levels[k] == 0 {
			return // no tuple has a value there
		}
	}
	var same func(e int32) bool
	if !h.exact {
		same = func(e int32) bool { return slices.Equal(ts.tuple(e), j.cand) }
	}
	for _, t := range A.tuples {
		j.cand = append(j.cand[:0], ts.tuple(t)...)
		key := h.masked(ts.hash[t], j.cand, zero)
		for _, k := range zero {
			j.cand[k] = 0
		}
		for _, k := range free {
			j.cand[k] = 1
			key += h.mult[k]
		}
		for {
			if s := ts.lookup(key, same); s >= 0 {
				j.pair(t, s)
			}
			// next combination of codes on the free keys (odometer)
			i := 0
			for ; i < len(free); i++ {
				k := free[i]
				if int(j.cand[k]) < ts.levels[k] {
					j.cand[k]++
					key += h.mult[k]
					break
				}
				key -= uint64(j.cand[k]-1) * h.mult[k]
				j.cand[k] = 1
			}
			if i == len(free) {
				break
			}
		}
	}
}

// stream joins A and B by hashing the smaller group on the keys outside A ∪ B and looking up
// the tuples of the larger.
func (j *joiner) stream(A, B *pattern) {
	ts, h := j.ts, j.h
	small, large := A.tuples, B.tuples
	if len(small) > len(large) {
		small, large = large, small
	}
	var mask []int
	for k := range A.miss {
		if A.miss[k] || B.miss[k] {
			mask = append(mask, k)
		}
	}
	j.tb.reset(len(small))
	j.ent = slices.Grow(j.ent[:0], len(small))[:len(small)]
	j.ecnt, j.eacc, j.head = j.ecnt[:0], j.eacc[:0], j.head[:0]
	if j.weighted {
		j.next = slices.Grow(j.next[:0], len(small))[:len(small)]
	}
	var query []uint32
	var same func(e int32) bool
	if !h.exact {
		same = func(e int32) bool { return sameOutside(ts.tuple(small[j.head[e]]), query, mask) }
	}
	for s, t := range small {
		query = ts.tuple(t)
		key := h.masked(ts.hash[t], query, mask)
		e, slot := j.tb.find(key, same)
		if e < 0 {
			e = int32(len(j.ecnt))
			j.tb.put(slot, key, e)
			j.ecnt, j.eacc, j.head = append(j.ecnt, 0), append(j.eacc, 0), append(j.head, int32(s))
			if j.weighted {
				j.next[s] = -1
			}
		} else if j.weighted {
			j.next[s], j.head[e] = j.head[e], int32(s)
		}
		j.ent[s] = e
		j.ecnt[e] += ts.cnt[t]
	}
	for _, t := range large {
		query = ts.tuple(t)
		e, _ := j.tb.find(h.masked(ts.hash[t], query, mask), same)
		if e < 0 {
			continue
		}
		j.tf[t] += j.ecnt[e]
		j.eacc[e] += ts.cnt[t]
		if j.weighted {
			for s := j.head[e]; s >= 0; s = j.next[s] {
				j.edges.add(small[s], t)
			}
		}
	}
	for s, t := range small {
		j.tf[t] += j.eacc[j.ent[s]]
	}
}

// edgeList collects pairs of tuples in fixed-size blocks (no copying as it grows) and counts
// each tuple's pairs.
type edgeList struct {
	blocks [][]uint64 // a<<32 | b, each pair once
	deg    []int      // pairs of each tuple
}

const edgeBlock = 1 << 15

func (el *edgeList) add(a, b int32) {
	if len(el.blocks) == 0 || len(el.blocks[len(el.blocks)-1]) == edgeBlock {
		el.blocks = append(el.blocks, make([]uint64, 0, edgeBlock))
	}
	last := &el.blocks[len(el.blocks)-1]
	*last = append(*last, uint64(a)<<32|uint64(uint32(b)))
	el.deg[a]++
	el.deg[b]++
}

// weightedSums returns the weighted sum of each tuple of ts in the order of the pairwise
// definition (Count), given every compatible pair of tuples of different patterns.
func weightedSums(ts *tuples, edges edgeList) []float64 {
	c := len(ts.cnt)
	// Bucket the pairs by tuple (counting sort), then once more visiting the tuples in
	// ascending order, so that each tuple's bucket lists its partners in ascending order.
	start := make([]int, c+1)
	for t, d := range edges.deg {
		start[t+1] = start[t] + d
	}
	adj := make([]int32, start[c])
	pos := slices.Clone(start[:c])
	for _, blk := range edges.blocks {
		for _, e := range blk {
			a, b := int32(e>>32), int32(uint32(e))
			adj[pos[a]], adj[pos[b]] = b, a
			pos[a]++
			pos[b]++
		}
	}
	sorted := make([]int32, len(adj))
	copy(pos, start[:c])
	for u := range int32(c) {
		for _, v := range adj[start[u]:start[u+1]] {
			sorted[pos[v]] = u
			pos[v]++
		}
	}
	tF := make([]float64, c)
	for t := range int32(c) {
		nb := sorted[start[t]:start[t+1]]
		if slices.Contains(ts.tuple(t), 0) {
			var s float64 // itself and every compatible tuple, ascending
			self := false
			for _, u := range nb {
				if !self && u > t {
					s += ts.wsum[t]
					self = true
				}
				s += ts.wsum[u]
			}
			if !self {
				s += ts.wsum[t]
			}
			tF[t] = s
		} else {
			s := ts.wsum[t] // then the compatible tuples with a missing key, ascending
			for _, u := range nb {
				s += ts.wsum[u]
			}
			tF[t] = s
		}
	}
	return tF
}
