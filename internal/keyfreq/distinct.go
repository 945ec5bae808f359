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

// distinctPacked returns the distinct tuples of the n records whose m key codes (0 missing)
// codeRows packed into buf, with the weights w (unweighted: wsum = cnt), as distinctKeys
// would under the exact hasher h of their levels: the same tuples, numbered in order of first
// appearance, with the same codes, numbers, counts and sums. The tuples are found by
// splitTuples on the numbers of h (a missing code is digit 0), without sorting or hashing the
// records, and then renumbered by first appearance; ok is false (nothing computed, buf
// unchanged) when those numbers do not fit splitTuples. Otherwise buf is overwritten and
// ts.of is buf[:n].
func distinctPacked(buf []int32, n, m int, levels []int, w weights, h hasher) (ts *tuples, ok bool) {
	if !h.exact {
		return nil, false
	}
	of, pcnt, pnum, ok := splitTuples(buf, n, m, h.mult, 0, h.span, maxSplitBits, true)
	if !ok {
		return nil, false
	}
	// Renumber by first appearance: rank[t] is the new number + 1 of split tuple t; weighted,
	// each record's weight is added to its tuple's sum in the same pass (in row order).
	c := len(pcnt)
	rank := make([]int32, c)
	next := int32(0)
	var wsum []float64
	if w.d != nil {
		wsum = make([]float64, c)
	}
	for i, t := range of {
		r := rank[t]
		if r == 0 {
			next++
			r, rank[t] = next, next
		}
		of[i] = r - 1
		if wsum != nil {
			wsum[r-1] += w.at(i)
		}
	}
	ts = &tuples{m: m, of: of, levels: levels, codes: make([]uint32, c*m), hash: make([]uint64, c), cnt: make([]float64, c)}
	// The codes are the digits of the numbers, read off by multiplying with ⌊2^64/r⌋ + 1 for
	// radix r rather than dividing (divideBy).
	div := make([]uint64, m)
	for k, L := range levels {
		div[k] = divideBy(uint32(L + 1))
	}
	for t, r := range rank {
		nt := int(r - 1)
		ts.hash[nt], ts.cnt[nt] = uint64(pnum[t]), pcnt[t]
		rest := pnum[t]
		for k, L := range levels {
			q := rest
			if div[k] != 0 {
				hi, _ := bits.Mul64(uint64(rest), div[k])
				q = uint32(hi)
			}
			ts.codes[nt*m+k] = rest - q*uint32(L+1)
			rest = q
		}
	}
	ts.wsum = wsum
	if w.d == nil {
		ts.wsum = ts.cnt
	}
	return ts, true
}

// divideBy returns M = ⌊2^64/r⌋ + 1 for a radix r ≥ 2 (0 for r = 1), so that ⌊x/r⌋ is the high
// word of x·M for every x < 2^32: x·M/2^64 exceeds x/r by less than x/2^64 < 2^−32, and the
// fractional part of x/r is at most 1 − 1/r, with r < 2^32.
func divideBy(r uint32) uint64 {
	if r < 2 {
		return 0
	}
	return ^uint64(0)/uint64(r) + 1
}
