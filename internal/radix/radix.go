// Package radix orders float64 values with their record indexes: Sort is a stable LSD radix
// sort on 16-bit digits (O(n) passes instead of O(n log n) comparisons, equal values kept in
// the order they came in, so from record order ties go to the lowest record), Select a
// quickselect. They serve the rank-based perturbative methods, the pivot lists of MDAV at
// scale and the median splits of the k-d trees (docs/scaling.md).
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

// Select reorders a so that a[k] has the k-th smallest value, with smaller-or-equal
// values before it and larger-or-equal after (Hoare quickselect, median of three; the result
// depends only on the input order). It is the median split of the k-d trees; working on
// contiguous (value, index) pairs, it avoids a key lookup through the table per comparison.
func Select(a []Keyed, k int) {
	lo, hi := 0, len(a)-1
	for hi > lo {
		if hi-lo < 16 {
			for i := lo + 1; i <= hi; i++ { // insertion sort
				for j := i; j > lo && a[j].V < a[j-1].V; j-- {
					a[j], a[j-1] = a[j-1], a[j]
				}
			}
			return
		}
		mid := lo + (hi-lo)/2
		if a[mid].V < a[lo].V {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi].V < a[lo].V {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi].V < a[mid].V {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pv := a[mid].V
		i, j := lo, hi
		for i <= j {
			for a[i].V < pv {
				i++
			}
			for a[j].V > pv {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
