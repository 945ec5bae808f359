package keyfreq

import (
	"math/bits"
	"slices"
)

// upIndex marks the numbers (exact hasher) below the tuples with a missing key and finds those
// tuples by number. A tuple walks up to a tuple u (missing keys Q) by masking the keys of Q it
// has, in the walk order of the keys; the numbers on the way are u with a non-empty proper
// suffix (in walk order) of those keys filled with codes. Those are the numbers marked below
// u (fills), for every pattern present whose missing keys Q contains, and u itself (marked as a
// tuple, not as a fill unless it is also on the way to another tuple: a walk goes on from a
// number only if it is a fill).
type upIndex struct {
	// Bitmap mode (bits != nil): 2 bits a number, bit 2x set if x is a fill (on the way to a
	// tuple with a missing key), bit 2x+1 if x is such a tuple. Otherwise the marked numbers are
	// the keys of below, with entry (u+1)·2 + 1 if the number is tuple u and a fill, (u+1)·2 if
	// tuple u and not a fill, and 1 for a fill that is no tuple; filter has the bit of each
	// (filterBit): a probe of a number not marked reads a small bit array, mostly, not the table.
	bits   []uint64
	before []int32 // bitmap mode: the tuples marked in the words before each word of bits
	slot   []int32 // bitmap mode: the tuples in ascending order of their numbers
	below  table
	filter []uint64
	fshift uint
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

// filterBits is the size of the filter of a hash-mode upIndex, in bits a mark (at least 2^16
// bits): about one probe of a number not below in 16 passes the filter.
const filterBits = 16

// walkOrder returns the keys in the order a walk masks them: by descending number of levels
// (ties by key), so that the fills, the keys filled on the way to a tuple, are the keys with
// few levels.
func walkOrder(levels []int) []int {
	order := make([]int, len(levels))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return levels[b] - levels[a] })
	return order
}

// fillSets returns, for each missing pattern Q of pats (at most 64 keys), the key sets filled
// on the way to its tuples (fills): for every pattern P ⊊ Q present, or none (a complete
// tuple), every non-empty proper suffix, in the walk order, of the keys of Q not in P; and
// the marks they make, Σ_Q |Q| · (1 + Σ_F Π_{k∈F} L_k) (saturating at 2^62).
func fillSets(pats []*pattern, order, levels []int) (sets [][][]int, marks float64) {
	qm := make([]uint64, len(pats))
	present := make(map[uint64]bool, len(pats)+1)
	present[0] = true
	for i, P := range pats {
		for k, miss := range P.miss {
			if miss {
				qm[i] |= 1 << uint(k)
			}
		}
		present[qm[i]] = true
	}
	sets = make([][][]int, len(pats))
	seen := map[uint64]bool{}
	var seq []int
	for i, Q := range qm {
		clear(seen)
		per := 1.0
		add := func(P uint64) {
			seq = seq[:0]
			for _, k := range order {
				if (Q&^P)>>uint(k)&1 != 0 {
					seq = append(seq, k)
				}
			}
			for j := 1; j < len(seq); j++ {
				var F uint64
				for _, k := range seq[j:] {
					F |= 1 << uint(k)
				}
				if seen[F] {
					continue
				}
				seen[F] = true
				sets[i] = append(sets[i], slices.Clone(seq[j:]))
				c := 1.0
				for _, k := range seq[j:] {
					c *= float64(levels[k])
				}
				per += c
			}
		}
		if q := bits.OnesCount64(Q); q < 20 && 1<<q <= len(pats) { // the subsets P of Q
			for P := uint64(0); ; P = (P - Q) & Q {
				if P != Q && present[P] {
					add(P)
				}
				if P == Q {
					break
				}
			}
		} else {
			add(0)
			for _, P := range qm {
				if P != Q && P&^Q == 0 {
					add(P)
				}
			}
		}
		marks = min(marks+per*float64(len(pats[i].tuples)), 1<<62)
	}
	return sets, marks
}

// newUpIndex returns the index of the tuples of the missing patterns pats (exact hasher h), with
// the fills sets of fillSets, expected to make about marks marks, in a bitmap or a hash table
// as index says (autoIndex: a bitmap if the code space is at most maxUpBits and upBits numbers
// a record of the n records).
func newUpIndex(ts *tuples, h hasher, pats []*pattern, sets [][][]int, marks, n, index int) *upIndex {
	ix := &upIndex{}
	nmiss := 0
	for _, P := range pats {
		nmiss += len(P.tuples)
	}
	if index == bitmapIndex || index == autoIndex && h.span <= maxUpBits && h.span <= uint64(upBits*n+1<<16) {
		ix.bits = make([]uint64, (h.span+31)/32)
	} else {
		ix.below.reset(marks)
		fb := max(bits.Len(uint(filterBits*marks)), 16) // bits of the filter's index
		ix.filter = make([]uint64, 1<<(fb-6))
		ix.fshift = uint(64 - fb)
	}
	for i, P := range pats {
		for _, u := range P.tuples {
			x0 := ts.hash[u]
			ix.mark(x0, u)
			for _, F := range sets[i] {
				ix.fill(x0, F, h.mult, ts.levels)
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
	_, r := ix.probe(x)
	return r
}

// fill marks every number x0 + Σ_{k∈F} c_k·mult_k, c_k in 1..levels[k].
func (ix *upIndex) fill(x0 uint64, F []int, mult []uint64, levels []int) {
	var code [64]int
	n := len(F)
	x := x0
	for i, k := range F {
		if levels[k] == 0 {
			return
		}
		code[i] = 1
		x += mult[k]
	}
	for {
		ix.mark(x, -1)
		i := 0
		for ; i < n; i++ {
			k := F[i]
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

// mark records that x is tuple (if tuple ≥ 0) or a fill (if tuple < 0).
func (ix *upIndex) mark(x uint64, tuple int32) {
	if ix.bits != nil {
		b := uint64(1)
		if tuple >= 0 {
			b = 2
		}
		ix.bits[x>>5] |= b << (2 * (x & 31))
		return
	}
	i := ix.filterBit(x)
	ix.filter[i>>6] |= 1 << (i & 63)
	e, slot := ix.below.find(x, nil)
	if e < 0 {
		e = 0
	}
	if tuple >= 0 {
		e |= (tuple + 1) << 1
	} else {
		e |= 1
	}
	ix.below.put(slot, x, e)
}

// filterBit returns the bit of the number x in the filter of a hash-mode upIndex.
func (ix *upIndex) filterBit(x uint64) uint64 {
	return (x * 0xbf58476d1ce4e5b9) >> ix.fshift
}

// probe reports whether x is a fill (on the way to a tuple with a missing key), and the tuple
// with a missing key x is (−1 if none).
func (ix *upIndex) probe(x uint64) (fill bool, r int32) {
	if ix.bits != nil {
		b := ix.bits[x>>5] >> (2 * (x & 31))
		if b&2 == 0 {
			return b&1 != 0, -1
		}
		return b&1 != 0, ix.slot[ix.rank(x)]
	}
	if i := ix.filterBit(x); ix.filter[i>>6]>>(i&63)&1 == 0 {
		return false, -1
	}
	e, _ := ix.below.find(x, nil)
	if e < 0 {
		return false, -1
	}
	return e&1 != 0, e>>1 - 1
}

// up appends to out the tuples with a missing key that equal x (a number whose codes are
// codes) with the keys of a non-empty set M masked, M made of the keys order[from:] that are
// not missing in x, visiting the masks in lexicographic order of their keys in walk order and
// skipping every mask with nothing above it (no fill).
func (ix *upIndex) up(x uint64, codes []uint32, mult []uint64, order []int, from int, out []int32) []int32 {
	for j := from; j < len(order); j++ {
		k := order[j]
		c := codes[k]
		if c == 0 {
			continue
		}
		y := x - uint64(c)*mult[k]
		fill, r := ix.probe(y)
		if r >= 0 {
			out = append(out, r)
		}
		if fill {
			out = ix.up(y, codes, mult, order, j+1, out)
		}
	}
	return out
}
