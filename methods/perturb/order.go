package perturb

import (
	"cmp"
	"math"
	"slices"
)

// keyed is a value with its record index, sorted contiguously (faster than sorting indices
// through the value slice).
type keyed struct {
	v float64
	i int32
}

// order fills buf with (v[i], i) for the indices selected by keep (all when keep is nil) and
// sorts it by value, ascending or descending, ties by record index ascending.
func order(v []float64, desc bool, buf []keyed, keep func(float64) bool) []keyed {
	buf = buf[:0]
	for i, x := range v {
		if keep == nil || keep(x) {
			buf = append(buf, keyed{x, int32(i)})
		}
	}
	if len(buf) >= radixMin {
		n := len(buf)
		radixOrder(buf, desc, make([]keyed, n), make([]uint64, n), make([]uint64, n))
		return buf
	}
	if desc {
		slices.SortFunc(buf, func(a, b keyed) int {
			if a.v != b.v {
				return cmp.Compare(b.v, a.v)
			}
			return cmp.Compare(a.i, b.i)
		})
	} else {
		slices.SortFunc(buf, func(a, b keyed) int {
			if a.v != b.v {
				return cmp.Compare(a.v, b.v)
			}
			return cmp.Compare(a.i, b.i)
		})
	}
	return buf
}

// radixMin is the size from which order uses a radix sort instead of a comparison sort.
const radixMin = 1 << 15

// sortKey maps v to a uint64 whose unsigned order is v's numeric order (−0 as +0).
func sortKey(v float64, desc bool) uint64 {
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

// radixOrder sorts buf (already in record order) by value with a stable LSD radix sort on
// 16-bit digits, so equal values keep record order; scratch is reused.
func radixOrder(buf []keyed, desc bool, scratch []keyed, keys, keys2 []uint64) {
	n := len(buf)
	for k, e := range buf {
		keys[k] = sortKey(e.v, desc)
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
