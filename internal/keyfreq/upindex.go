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
	// in the table below, each with its tuple and, if a fill, the positions in the walk order of
	// the keys masked next on the ways through it (nextKeys); filter has the bit of each
	// (filterBit): a probe of a number not marked reads a small bit array, mostly, not the table.
	bits   []uint64
	before []int32 // bitmap mode: the tuples marked in the words before each word of bits
	slot   []int32 // bitmap mode: the tuples in ascending order of their numbers
	// Hash mode: the marks split by the set of keys whose code in the number is 0 (its zero
	// set, zones[z & zmask]: a pattern's missing keys and the keys masked on the way), so that
	// a walk that masks one first key after another reads a table a fraction of the whole
	// (zmask 0: one zone, if there are more than zoneKeys keys).
	zones []zone
	zmask uint64
}

// A zone of a hash-mode upIndex: its marks, and a filter with the bit of each (filterBit): a
// probe of a number not marked reads a small bit array, mostly, not the table.
type zone struct {
	below  markTable
	filter []uint64
	fshift uint
}

// zoneKeys is the most keys for which the marks of a hash-mode upIndex are split by zero set.
const zoneKeys = 10

// allNext is the nextKeys of a fill whose next keys are not recorded (bitmap mode, or a next
// key at a position of at least 31 in the walk order): a walk goes on with every later key.
const allNext = ^uint32(0)

// nextKeys returns the set of walk positions {pos} as nextKeys records it: bit pos, or allNext.
func nextKeys(pos int) uint32 {
	if pos >= 31 {
		return allNext
	}
	return 1 << pos
}

// A markTable is an open-addressing hash table (linear probing) of the numbers marked by a
// hash-mode upIndex: per number its tuple + 1 (0: none) and, for a fill, the nextKeys of the
// walks through it (0: not a fill). When the numbers fit in 32 bits, the tuples in 24 and the
// walk positions in 8 (at most 8 keys), a slot is 8 bytes (narrow: the number, and the tuple + 1
// shifted left by 8 or'ed with the nextKeys); otherwise 16 (wide). Half the bytes, half the
// cache misses of the walks. A slot is empty when it holds neither a tuple nor a fill.
type markTable struct {
	wide   []markSlot
	narrow []narrowSlot
	shift  uint
}

type markSlot struct {
	key   uint64
	tuple int32
	next  uint32
}

type narrowSlot struct {
	key, val uint32
}

// reset sizes t for up to n numbers (load ≤ 1/2), narrow if narrow.
func (t *markTable) reset(n int, narrow bool) {
	size := tableSize(n)
	if narrow {
		t.narrow = make([]narrowSlot, size)
	} else {
		t.wide = make([]markSlot, size)
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// get returns the nextKeys and the tuple of x (0 and −1 if x is not marked).
func (t *markTable) get(x uint64) (next uint32, tuple int32) {
	i := int((x * 0x9e3779b97f4a7c15) >> t.shift)
	if t.narrow != nil {
		mask := len(t.narrow) - 1
		for {
			s := t.narrow[i]
			if s.val == 0 {
				return 0, -1
			}
			if s.key == uint32(x) {
				return s.val & 0xff, int32(s.val>>8) - 1
			}
			i = (i + 1) & mask
		}
	}
	mask := len(t.wide) - 1
	for {
		s := &t.wide[i]
		if s.tuple == 0 && s.next == 0 {
			return 0, -1
		}
		if s.key == x {
			return s.next, s.tuple - 1
		}
		i = (i + 1) & mask
	}
}

// add marks x as tuple (if tuple ≥ 0) or as a fill whose walks go on with the keys next.
func (t *markTable) add(x uint64, tuple int32, next uint32) {
	i := int((x * 0x9e3779b97f4a7c15) >> t.shift)
	if t.narrow != nil {
		mask := len(t.narrow) - 1
		for {
			s := &t.narrow[i]
			if s.val == 0 || s.key == uint32(x) {
				s.key = uint32(x)
				if tuple >= 0 {
					s.val |= uint32(tuple+1) << 8
				} else {
					s.val |= next
				}
				return
			}
			i = (i + 1) & mask
		}
	}
	mask := len(t.wide) - 1
	for {
		s := &t.wide[i]
		if s.tuple == 0 && s.next == 0 || s.key == x {
			s.key = x
			if tuple >= 0 {
				s.tuple = tuple + 1
			} else {
				s.next |= next
			}
			return
		}
		i = (i + 1) & mask
	}
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
func newUpIndex(ts *tuples, h hasher, pats []*pattern, order []int, sets [][][]int, marks, n, index int) *upIndex {
	ix := &upIndex{}
	pos := make([]int, len(order)) // the position of each key in the walk order
	for j, k := range order {
		pos[k] = j
	}
	nmiss := 0
	for _, P := range pats {
		nmiss += len(P.tuples)
	}
	zq := make([]uint64, len(pats)) // the missing keys of each pattern, as a set
	for i, P := range pats {
		zq[i] = keySet(P.miss)
	}
	if index == bitmapIndex || index == autoIndex && h.span <= maxUpBits && h.span <= uint64(upBits*n+1<<16) {
		ix.bits = make([]uint64, (h.span+31)/32)
	} else {
		narrow := h.span <= 1<<32 && nmiss < 1<<24-1 && len(order) <= 8
		if len(order) > zoneKeys {
			ix.zones = make([]zone, 1)
			ix.zones[0].reset(marks, narrow, 16)
		} else {
			// The marks of each zone: a pattern's tuples, and those of each of its fill sets.
			ix.zmask = 1<<len(order) - 1
			ix.zones = make([]zone, ix.zmask+1)
			zm := make([]float64, ix.zmask+1)
			for i, P := range pats {
				u := float64(len(P.tuples))
				zm[zq[i]] += u
				for _, F := range sets[i] {
					c := u
					for _, k := range F {
						c *= float64(ts.levels[k])
					}
					zm[zq[i]&^keyList(F)] += c
				}
			}
			for z, c := range zm {
				if c > 0 {
					ix.zones[z].reset(int(min(c, float64(marks))), narrow, 10)
				}
			}
		}
	}
	for i, P := range pats {
		for _, u := range P.tuples {
			x0 := ts.hash[u]
			ix.mark(x0, zq[i], u, 0)
			for _, F := range sets[i] {
				ix.fill(x0, zq[i]&^keyList(F), F, h.mult, ts.levels, nextKeys(pos[F[0]]))
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

// reset sizes z for up to n marks (narrow slots if narrow), its filter at least 2^minBits bits.
func (z *zone) reset(n int, narrow bool, minBits int) {
	z.below.reset(n, narrow)
	fb := max(bits.Len(uint(filterBits*n)), minBits) // bits of the filter's index
	z.filter = make([]uint64, 1<<(fb-6))
	z.fshift = uint(64 - fb)
}

// keySet returns the keys k with miss[k] as a set (bit k); at most 64 keys.
func keySet(miss []bool) uint64 {
	var z uint64
	for k, m := range miss {
		if m {
			z |= 1 << uint(k)
		}
	}
	return z
}

// keyList returns the keys F as a set (bit k).
func keyList(F []int) uint64 {
	var z uint64
	for _, k := range F {
		z |= 1 << uint(k)
	}
	return z
}

// zeroSet returns the keys whose code in codes is 0, as a set (bit k; at most 64 keys).
func zeroSet(codes []uint32) uint64 {
	var z uint64
	for k, c := range codes {
		if c == 0 {
			z |= 1 << uint(k)
		}
	}
	return z
}

// rank returns the number of tuples marked in the bitmap below the number x.
func (ix *upIndex) rank(x uint64) int32 {
	w, p := x>>5, 2*(x&31)+1
	return ix.before[w] + int32(bits.OnesCount64(ix.bits[w]&oddBits&(1<<p-1)))
}

// tuple returns the tuple with a missing key whose number is x, with zero set z, or −1.
func (ix *upIndex) tuple(x, z uint64) int32 {
	_, r := ix.probe(x, z)
	return r
}

// fill marks every number x0 + Σ_{k∈F} c_k·mult_k, c_k in 1..levels[k], as a fill whose
// walks go on with the keys next (nextKeys); z is their zero set.
func (ix *upIndex) fill(x0, z uint64, F []int, mult []uint64, levels []int, next uint32) {
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
		ix.mark(x, z, -1, next)
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

// mark records that x (zero set z) is tuple (if tuple ≥ 0) or a fill (if tuple < 0) whose
// walks go on with the keys next.
func (ix *upIndex) mark(x, z uint64, tuple int32, next uint32) {
	if ix.bits != nil {
		b := uint64(1)
		if tuple >= 0 {
			b = 2
		}
		ix.bits[x>>5] |= b << (2 * (x & 31))
		return
	}
	zn := &ix.zones[z&ix.zmask]
	i := zn.filterBit(x)
	zn.filter[i>>6] |= 1 << (i & 63)
	zn.below.add(x, tuple, next)
}

// filterBit returns the bit of the number x in the filter of a zone.
func (zn *zone) filterBit(x uint64) uint64 {
	return (x * 0xbf58476d1ce4e5b9) >> zn.fshift
}

// probe returns the nextKeys of x (zero set z) if x is a fill (on the way to a tuple with a
// missing key; 0 if not), and the tuple with a missing key x is (−1 if none).
func (ix *upIndex) probe(x, z uint64) (next uint32, r int32) {
	if ix.bits != nil {
		b := ix.bits[x>>5] >> (2 * (x & 31))
		if b&1 != 0 {
			next = allNext
		}
		if b&2 == 0 {
			return next, -1
		}
		return next, ix.slot[ix.rank(x)]
	}
	zn := &ix.zones[z&ix.zmask]
	if zn.filter == nil {
		return 0, -1
	}
	if i := zn.filterBit(x); zn.filter[i>>6]>>(i&63)&1 == 0 {
		return 0, -1
	}
	return zn.below.get(x)
}

// up appends to out the tuples with a missing key that equal x (a number whose codes are
// codes) with the keys of a non-empty set M masked, M made of the keys order[from:] that are
// not missing in x, visiting the masks in lexicographic order of their keys in walk order and
// skipping every mask with nothing above it (no fill); after the first key, only the keys the
// fills name as next (nextKeys) are masked.
func (ix *upIndex) up(x uint64, codes []uint32, mult []uint64, order []int, from int, out []int32) []int32 {
	return ix.upZ(x, zeroSet(codes), codes, mult, order, from, out)
}

// upZ is up for a number x whose zero set is z.
func (ix *upIndex) upZ(x, z uint64, codes []uint32, mult []uint64, order []int, from int, out []int32) []int32 {
	for j := from; j < len(order); j++ {
		out = ix.upFrom(x, z, codes, mult, order, j, out)
	}
	return out
}

// upFrom is up for the masks whose first key is order[j], from a number x with zero set z.
func (ix *upIndex) upFrom(x, z uint64, codes []uint32, mult []uint64, order []int, j int, out []int32) []int32 {
	k := order[j]
	c := codes[k]
	if c == 0 {
		return out
	}
	y, zy := x-uint64(c)*mult[k], z|1<<uint(k)
	next, r := ix.probe(y, zy)
	if r >= 0 {
		out = append(out, r)
	}
	if next == allNext {
		return ix.upZ(y, zy, codes, mult, order, j+1, out)
	}
	for next &^= 1<<(j+1) - 1; next != 0; next &= next - 1 {
		out = ix.upFrom(y, zy, codes, mult, order, bits.TrailingZeros32(next), out)
	}
	return out
}
