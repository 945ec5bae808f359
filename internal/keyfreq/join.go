package keyfreq

import "slices"

// pattern is a missingness pattern: the keys missing in its tuples, and its tuples (ascending).
type pattern struct {
	miss   []bool
	tuples []int32
}

// patterns groups the tuples of ts by missingness pattern, patterns in order of first
// appearance, each pattern's tuples in ascending order. The tuples are first labelled with
// their pattern and counted, so that each pattern's list is allocated once at its size.
func patterns(ts *tuples) []pattern {
	var pats []pattern
	var size []int
	patOf := map[string]int{}
	label := make([]int32, len(ts.cnt))
	pb, prev := make([]byte, ts.m), make([]byte, ts.m)
	q := -1 // the pattern of prev
	for t := range int32(len(ts.cnt)) {
		for k, v := range ts.tuple(t) {
			pb[k] = 0
			if v == 0 {
				pb[k] = 1
			}
		}
		if q < 0 || string(pb) != string(prev) { // runs of one pattern (all, without missing values)
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
				size = append(size, 0)
			}
		}
		label[t] = int32(q)
		size[q]++
	}
	for q := range pats {
		pats[q].tuples = make([]int32, 0, size[q])
	}
	for t, q := range label {
		pats[q].tuples = append(pats[q].tuples, int32(t))
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
//
// With an exact hasher the complete tuples are joined with the others through an upIndex
// instead (countLattice), when that index is small.
//
// Unweighted, tF is tf.
func count(ts *tuples, h hasher, weighted bool) (tf, tF []float64) {
	pats := patterns(ts)
	if tf, tF, ok := countLattice(ts, h, weighted, pats, autoIndex); ok {
		return tf, tF
	}
	return joinAll(ts, h, weighted, pats, autoJoin)
}

// The joins of countJoin: the cheaper of each pair of patterns, or always one kind (tests).
const (
	autoJoin = iota
	streamJoin
	enumJoin
)

// countJoin is count with the join of every pair of patterns chosen by how.
func countJoin(ts *tuples, h hasher, weighted bool, how int) (tf, tF []float64) {
	return joinAll(ts, h, weighted, patterns(ts), how)
}

// joinAll is countJoin on the patterns pats of ts; unweighted, tF is tf.
func joinAll(ts *tuples, h hasher, weighted bool, pats []pattern, how int) (tf, tF []float64) {
	j := &joiner{ts: ts, h: h, weighted: weighted, tf: slices.Clone(ts.cnt)}
	if weighted {
		j.edges.deg = make([]int32, len(ts.cnt))
	}
	pp := make([]*pattern, len(pats))
	for i := range pats {
		pp[i] = &pats[i]
	}
	joinPatterns(j, pp, how)
	if !weighted {
		return j.tf, j.tf
	}
	return j.tf, weightedSums(ts, j.edges)
}

// joinPatterns adds to j every compatible pair of tuples of two different patterns of pats,
// each pair of patterns joined as chosen by how.
func joinPatterns(j *joiner, pats []*pattern, how int) {
	for a := range pats {
		for b := a + 1; b < len(pats); b++ {
			joinPair(j, pats[a], pats[b], how)
		}
	}
}

// joinPair adds to j the compatible pairs of tuples of patterns A and B, joined as chosen by
// how.
func joinPair(j *joiner, A, B *pattern, how int) {
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

// joiner holds the counts being summed and the scratch space of the joins.
type joiner struct {
	ts       *tuples
	h        hasher
	weighted bool
	tf       []float64
	edges    edgeList // compatible pairs of tuples of different patterns, weighted only
	// lookup, if not nil, finds the tuples of enumerate by number (exact hasher) in place of
	// the index of all tuples.
	// lookup's arguments are the number and its zero set (the keys whose code is 0).
	lookup func(key, zero uint64) int32

	tb         table
	gx         []uint64 // gather's numbers
	gc         []uint32 // gather's codes
	ent        []int32
	ecnt, eacc []float64
	head, next []int32
	cand       []uint32
	filter     streamFilter
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
	zb := keySet(B.miss)
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
			var s int32
			if j.lookup != nil {
				s = j.lookup(key, zb)
			} else {
				s = ts.lookup(key, same)
			}
			if s >= 0 {
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
	blocks [][]uint64 // a<<32 | b, each pair once: the full blocks, then last
	last   []uint64
	deg    []int32 // pairs of each tuple
}

const edgeBlock = 1 << 15

// scatterPairs writes each pair (a, b) of el into the buckets of both tuples: b at
// adj[pos[a]] and a at adj[pos[b]], advancing pos; pairs in the order they were added.
func scatterPairs[I int | int32](el *edgeList, adj []int32, pos []I) {
	for _, blk := range el.all() {
		for _, e := range blk {
			a, b := int32(e>>32), int32(uint32(e))
			adj[pos[a]], adj[pos[b]] = b, a
			pos[a]++
			pos[b]++
		}
	}
}

func (el *edgeList) add(a, b int32) {
	if el.last == nil || len(el.last) == edgeBlock {
		if el.last != nil {
			el.blocks = append(el.blocks, el.last)
		}
		el.last = make([]uint64, 0, edgeBlock)
	}
	el.last = append(el.last, uint64(a)<<32|uint64(uint32(b)))
	el.deg[a]++
	el.deg[b]++
}

// all returns the blocks of el, the last one included.
func (el *edgeList) all() [][]uint64 {
	if el.last == nil {
		return el.blocks
	}
	return append(el.blocks, el.last)
}

// weightedSums returns the weighted sum of each tuple of ts in the order of the pairwise
// definition (Count), given every compatible pair of tuples of different patterns.
func weightedSums(ts *tuples, edges edgeList) []float64 {
	c := len(ts.cnt)
	// Bucket the pairs by tuple (counting sort), then once more visiting the tuples in
	// ascending order, so that each tuple's bucket lists its partners in ascending order.
	start := make([]int, c+1)
	for t, d := range edges.deg {
		start[t+1] = start[t] + int(d)
	}
	adj := make([]int32, start[c])
	pos := slices.Clone(start[:c])
	scatterPairs(&edges, adj, pos)
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
