package keyfreq

import "math/bits"

// smallCodes is the range [0, smallCodes) of whole values coded through a table rather than a
// map (categorical codes are small whole numbers).
const smallCodes = 4096

// codeColumns returns the codes of the key columns cols of the n×p table d, row-major n×m
// (m = len(cols)): per column, each distinct value (Bits equality: −0 = +0) gets a number from
// 1 in order of first appearance; a missing value gets 0. levels[k] is the number of distinct
// non-missing values of column k.
func codeColumns(d []float64, n, p int, cols []int) (codes []uint32, levels []int) {
	m := len(cols)
	codes = make([]uint32, n*m)
	levels = make([]int, m)
	var cc columnCoder
	col := make([]uint32, n)
	for k, l := range cols {
		levels[k] = cc.code(col, d, p, l)
		for i, c := range col {
			codes[i*m+k] = c
		}
	}
	return codes, levels
}

// codeKeys returns, for each record of the n×p table d, the mixed-radix number of its codes on
// the key columns cols (codeColumns): Σ_k c_k·Π_{j<k}(levels[j]+1), the hash of the exact
// hasher of levels, computed column by column without the row-major codes. ok is false (and
// keys nil) when that number could exceed 64 bits.
func codeKeys(d []float64, n, p int, cols []int) (keys []uint64, levels []int, ok bool) {
	keys = make([]uint64, n)
	levels = make([]int, len(cols))
	var cc columnCoder
	col := make([]uint32, n)
	r := uint64(1)
	for k, l := range cols {
		levels[k] = cc.code(col, d, p, l)
		for i, c := range col {
			keys[i] += uint64(c) * r
		}
		hi, lo := bits.Mul64(r, uint64(levels[k])+1)
		if hi != 0 {
			return nil, nil, false
		}
		r = lo
	}
	return keys, levels, true
}

// A columnCoder numbers the values of one column (codeColumns), reusing its scratch space.
type columnCoder struct {
	small []uint32
	other map[uint64]uint32
}

// code writes the code of column l of each of the len(out) rows of the p-column table d to out
// and returns the number of distinct non-missing values.
func (cc *columnCoder) code(out []uint32, d []float64, p, l int) int {
	if cc.small == nil {
		cc.small = make([]uint32, smallCodes)
	} else {
		clear(cc.small)
	}
	clear(cc.other)
	small := cc.small
	next := uint32(1)
	for i := range out {
		v := d[i*p+l]
		var c uint32
		switch {
		case v != v:
			// missing: code 0
		case v >= 0 && v < smallCodes && v == float64(int(v)):
			if c = small[int(v)]; c == 0 {
				c, small[int(v)] = next, next
				next++
			}
		default:
			if cc.other == nil {
				cc.other = map[uint64]uint32{}
			}
			b := Bits(v)
			if c = cc.other[b]; c == 0 {
				c, cc.other[b] = next, next
				next++
			}
		}
		out[i] = c
	}
	return int(next - 1)
}

// A hasher maps a row of codes, with some keys treated as missing (code 0), to a 64-bit
// value linear in the codes: Σ_k c_k·mult_k (mod 2^64), so masking key k subtracts c_k·mult_k.
// If exact, mult is the mixed radix of the code ranges and equal values mean equal codes;
// otherwise mult holds odd pseudo-random constants and equal values must be confirmed by
// comparing the codes.
type hasher struct {
	mult  []uint64
	exact bool
	span  uint64 // if exact, the product of the code ranges: every hash is below it
}

// newHasher returns the exact hasher for code ranges 0..levels[k] if the product of the ranges
// fits in 64 bits, and a verified one otherwise.
func newHasher(levels []int) hasher {
	mult := make([]uint64, len(levels))
	r := uint64(1)
	for k, L := range levels {
		mult[k] = r
		hi, lo := bits.Mul64(r, uint64(L)+1)
		if hi != 0 {
			return mixHasher(len(levels))
		}
		r = lo
	}
	return hasher{mult: mult, exact: true, span: r}
}

// mixHasher returns a verified hasher for m keys (fixed odd constants from splitmix64).
func mixHasher(m int) hasher {
	mult := make([]uint64, m)
	x := uint64(0x9e3779b97f4a7c15)
	for k := range mult {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		mult[k] = (z ^ z>>31) | 1
	}
	return hasher{mult: mult}
}

// hash returns the hash of the codes c.
func (h hasher) hash(c []uint32) uint64 {
	var s uint64
	for k, v := range c {
		s += uint64(v) * h.mult[k]
	}
	return s
}

// masked returns the hash of codes c, whose full hash is full, with the keys in mask as 0.
func (h hasher) masked(full uint64, c []uint32, mask []int) uint64 {
	for _, k := range mask {
		full -= uint64(c[k]) * h.mult[k]
	}
	return full
}

// sameOutside reports whether codes a and b agree on every key not in the sorted list mask.
func sameOutside(a, b []uint32, mask []int) bool {
	j := 0
	for k := range a {
		if j < len(mask) && mask[j] == k {
			j++
			continue
		}
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// table is an open-addressing hash table from 64-bit hashes to entry numbers (linear probing;
// several slots may hold one hash when the hasher is not exact). A slot holds its hash and its
// entry side by side, so a probe touches one cache line.
type table struct {
	slots []slot
	shift uint
}

// A slot of a table: a hash and its entry + 1 (0 marks an empty slot).
type slot struct {
	key uint64
	val int32
}

// size returns the number of slots of t.
func (t *table) size() int { return len(t.slots) }

// tableSize returns the number of slots of a table for up to n entries (a power of 2, load ≤ 1/2).
func tableSize(n int) int {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return size
}

// reset empties t and sizes it for up to n entries (load ≤ 1/2).
func (t *table) reset(n int) {
	size := tableSize(n)
	if cap(t.slots) >= size {
		t.slots = t.slots[:size]
		clear(t.slots)
	} else {
		t.slots = make([]slot, size)
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// find returns the entry with hash key for which same(entry) holds (same nil: any), or −1 and
// the empty slot where it would go.
func (t *table) find(key uint64, same func(e int32) bool) (e int32, slot int) {
	mask := len(t.slots) - 1
	i := int((key * 0x9e3779b97f4a7c15) >> t.shift)
	for {
		s := &t.slots[i]
		if s.val == 0 {
			return -1, i
		}
		if s.key == key && (same == nil || same(s.val-1)) {
			return s.val - 1, i
		}
		i = (i + 1) & mask
	}
}

// lookup returns the entry with hash key (any, if several), or −1: find with same nil.
func (t *table) lookup(key uint64) int32 {
	mask := len(t.slots) - 1
	i := int((key * 0x9e3779b97f4a7c15) >> t.shift)
	for {
		s := &t.slots[i]
		if s.val == 0 || s.key == key {
			return s.val - 1
		}
		i = (i + 1) & mask
	}
}

// put stores entry e with hash key in the empty slot returned by find.
func (t *table) put(i int, key uint64, e int32) {
	t.slots[i] = slot{key, e + 1}
}
