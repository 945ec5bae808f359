// Package radix sorts float64 values with their record indexes by a stable LSD radix sort on
// 16-bit digits: O(n) passes instead of O(n log n) comparisons, with equal values kept in the
// order they came in (so, from record order, ties go to the lowest record). It serves the
// rank-based perturbative methods and the pivot lists of MDAV at scale (docs/scaling.md).
package radix

import "math"

// Keyed is a value with its record index.
type Keyed struct {
	V float64
	I int32
}

// Key maps v to a uint64 whose unsigned order is v's numeric order (−0 as +0), reversed when
// desc. NaN is not ordered meaningfully.
func Key(v float64, desc bool) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	if desc {
		b = ^b
	}
	return b
}

// Sort sorts buf by value, ascending or descending, with a stable LSD radix sort on 16-bit
// digits, so equal values keep their order in buf. scratch, keys and keys2 must have at least
// len(buf) elements; they are overwritten.
func Sort(buf []Keyed, desc bool, scratch []Keyed, keys, keys2 []uint64) {
	n := len(buf)
	if n == 0 {
		return
	}
	for k, e := range buf {
		keys[k] = Key(e.V, desc)
	}
	var count [1 << 16]int
	src, dst := buf, scratch[:n]
	ksrc, kdst := keys[:n], keys2[:n]
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, k := range ksrc {
			count[(k>>shift)&0xffff]++
		}
		if count[(ksrc[0]>>shift)&0xffff] == n {
			continue // every key has this digit: the pass would not move anything
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for k, key := range ksrc {
			d := (key >> shift) & 0xffff
			dst[count[d]] = src[k]
			kdst[count[d]] = key
			count[d]++
		}
		src, dst = dst, src
		ksrc, kdst = kdst, ksrc
	}
	if &src[0] != &buf[0] {
		copy(buf, src)
	}
}
