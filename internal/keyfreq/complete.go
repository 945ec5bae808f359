package keyfreq

import (
	"math/bits"
	"slices"
)

// This file is the path of Count and Frequencies for tables whose key columns have no missing
// value, the common case at census scale (docs/scaling.md, "Distinct key tuples at census
// scale"): one row-wise pass codes the keys, and the tuples are found by one partition of the
// records on the high bits of their mixed-radix number and a small direct array on the low
// bits, without the per-tuple codes and hashes the joins of missing values need.

// weights is a weight column read in place: w(i) = d[i·p+c]; d nil means unweighted.
type weights struct {
	d    []float64
	p, c int
}

// at returns the weight of record i.
func (w weights) at(i int) float64 { return w.d[i*w.p+w.c] }

// slice returns the n weights as a slice (nil if unweighted), the column itself when it is
// contiguous, else a copy.
func (w weights) slice(n int) []float64 {
	switch {
	case w.d == nil:
		return nil
	case w.p == 1 && w.c == 0:
		return w.d[:n]
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = w.at(i)
	}
	return out
}

// maxRowKeys and maxRowCode bound codeRows: at most 8 key columns of at most 255 codes each,
// so that a record's codes pack into two 32-bit words, a byte a key.
const (
	maxRowKeys = 8
	maxRowCode = 255
)

// codeRows codes the key columns cols of the n×p table d as codeColumns does (per column, each
// distinct value numbered from 1 in order of first appearance, a missing value 0), in one pass
// over the rows instead of one per column, and packs the codes of record i a byte a key into
// buf[2i] (keys 0–3) and buf[2i+1] (keys 4–7). missing reports whether any key value is
// missing. ok is false (and buf nil) when there are more than maxRowKeys keys, none, or a
// column with more than maxRowCode distinct values, and, if completeOnly, at the first missing
// value (the path with missing values codes the columns itself: codeKeys).
func codeRows(d []float64, n, p int, cols []int, completeOnly bool) (buf []int32, levels []int, missing, ok bool) {
	m := len(cols)
	if m == 0 || m > maxRowKeys {
		return nil, nil, false, false
	}
	small := make([]uint8, m*smallCodes)
	var other []map[uint64]uint8
	next := make([]int, m)
	buf = make([]int32, 2*n)
	for i := range n {
		var packed uint64
		row := d[i*p:]
		for k, l := range cols {
			v := row[l]
			var c uint8
			// A whole v in [0, smallCodes) (−0 as 0) is the common case, tested first: int(v)
			// is implementation-defined for NaN and out-of-range v but never panics, and
			// converts back to v only for a whole v.
			iv := int(v)
			switch {
			case float64(iv) == v && uint(iv) < smallCodes:
				s := &small[k*smallCodes+iv]
				if c = *s; c == 0 {
					if next[k] == maxRowCode {
						return nil, nil, false, false
					}
					next[k]++
					c, *s = uint8(next[k]), uint8(next[k])
				}
			case v != v:
				if completeOnly {
					return nil, nil, true, false
				}
				missing = true
			default:
				if other == nil {
					other = make([]map[uint64]uint8, m)
				}
				if other[k] == nil {
					other[k] = map[uint64]uint8{}
				}
				b := Bits(v)
				if c = other[k][b]; c == 0 {
					if next[k] == maxRowCode {
						return nil, nil, false, false
					}
					next[k]++
					c = uint8(next[k])
					other[k][b] = c
				}
			}
			packed |= uint64(c) << (8 * k)
		}
		buf[2*i], buf[2*i+1] = int32(uint32(packed)), int32(uint32(packed>>32))
	}
	return buf, next, missing, true
}

// rowCode returns the code of key k of record i packed by codeRows.
func rowCode(buf []int32, i, k int) uint64 {
	return uint64(uint32(buf[2*i+k/4])) >> (8 * (k % 4)) & 0xff
}

// rowKeys returns codeKeys' mixed-radix numbers Σ_k c_k·Π_{j<k}(levels[j]+1) of the n records
// packed by codeRows (m keys); ok is false when they could exceed 64 bits.
func rowKeys(buf []int32, n, m int, levels []int) (keys []uint64, ok bool) {
	mult := make([]uint64, m)
	r := uint64(1)
	for k, L := range levels {
		mult[k] = r
		hi, lo := bits.Mul64(r, uint64(L)+1)
		if hi != 0 {
			return nil, false
		}
		r = lo
	}
	keys = make([]uint64, n)
	for i := range keys {
		packed := uint64(uint32(buf[2*i])) | uint64(uint32(buf[2*i+1]))<<32
		var key uint64
		for k := range m {
			key += (packed >> (8 * k) & 0xff) * mult[k]
		}
		keys[i] = key
	}
	return keys, true
}

// maxSplitBits bounds completeTuples' split of a record's number: at most 2^16 partitions and a
// direct array of at most 2^16 entries.
const maxSplitBits = 16

// completeTuples returns the distinct key tuples of the n records whose m key codes codeRows
// packed into buf, when no key is missing: the tuple of each record (of), and per tuple its
// records (cnt) and the sum of their weights in record order (wsum; cnt itself if unweighted).
// Tuples are numbered in the order of their mixed-radix number's high bits, then of first
// appearance. ok is false (and nothing computed) when the numbers do not fit the split of
// splitTuples; buf is then unchanged. Otherwise buf is overwritten and of is buf[:n].
//
// The codes 1..L_k of key k are the digits c_k − 1 of radix L_k (no digit for a missing
// value), so the number of a record is below Π L_k (at most 2^32).
func completeTuples(buf []int32, n, m int, levels []int, w weights, maxLow int) (of []int32, cnt, wsum []float64, ok bool) {
	mult := make([]uint64, m)
	span := uint64(1)
	for k, L := range levels {
		mult[k] = span
		hi, lo := bits.Mul64(span, uint64(L))
		if hi != 0 || lo > 1<<32 {
			return nil, nil, nil, false
		}
		span = lo
	}
	of, cnt, _, ok = splitTuples(buf, n, m, mult, 1, span, maxLow, false)
	if !ok {
		return nil, nil, nil, false
	}
	if w.d == nil {
		return of, cnt, cnt, true
	}
	// The weight sums, in record order.
	wsum = make([]float64, len(cnt))
	for i, t := range of {
		wsum[t] += w.at(i)
	}
	return of, cnt, wsum, true
}

// splitTuples finds the distinct key tuples of the n records whose m key codes codeRows packed
// into buf: the number of record i is Σ_k (c_k − off)·mult[k] for its codes c_k, below span
// (at most 2^32). It returns the tuple of each record (of, written over buf[:n]), the records
// of each tuple (cnt) and, if keep, each tuple's number (num). Tuples are numbered in the
// order of their number's high bits, then of first appearance. ok is false (and nothing
// computed, buf unchanged) when the numbers do not fit the split below.
//
// The number is split into high bits, by which the records are partitioned (a counting sort,
// stable, so each part lists its records in record order), and lowBits low bits (at most maxLow
// and 32 less the bits of a record index, so a low part and a record index pack into 32 bits),
// which index a direct array that is never cleared: an entry is current when it names a tuple
// of the part at hand. Each record's tuple is written over its number. Numbers, partition and
// tuples live in buf's 2n words; the per-tuple counts (and numbers) are the only other memory
// of size above 2^maxSplitBits.
func splitTuples(buf []int32, n, m int, mult []uint64, off, span uint64, maxLow int, keep bool) (of []int32, cnt []float64, num []uint32, ok bool) {
	keyBits := bits.Len64(span - 1)
	idxBits := bits.Len(uint(n - 1))
	lowBits := min(keyBits, 32-idxBits, maxLow)
	hiBits := keyBits - lowBits
	if span > 1<<32 || hiBits > maxSplitBits || lowBits < 0 {
		return nil, nil, nil, false
	}
	// The numbers, written over the packed codes (record i's number to word i after reading
	// words 2i and 2i+1), and the size of each part.
	parts := 1 << hiBits
	start := make([]int32, parts+1)
	for i := range n {
		packed := uint64(uint32(buf[2*i])) | uint64(uint32(buf[2*i+1]))<<32
		var key uint64
		for k := range m {
			key += (packed>>(8*k)&0xff - off) * mult[k]
		}
		buf[i] = int32(uint32(key))
		start[key>>lowBits+1]++
	}
	for b := range parts {
		start[b+1] += start[b]
	}
	keys, part := buf[:n], buf[n:2*n]
	cur := slices.Clone(start[:parts])
	lowMask := uint32(1)<<lowBits - 1
	for i, k := range keys {
		key := uint32(k)
		b := key >> lowBits
		part[cur[b]] = int32((key&lowMask)<<idxBits | uint32(i))
		cur[b]++
	}
	// Each part's tuples: direct[low] is tuple + 1 of the last tuple with that low part; it
	// belongs to the part at hand iff it exceeds the tuples numbered before the part. The
	// numbers are no longer needed: each record's tuple is written over its number.
	direct := make([]int32, 1<<lowBits)
	idxMask := uint32(1)<<idxBits - 1
	cnt = make([]float64, 0, min(uint64(n), span)/2+1)
	if keep {
		num = make([]uint32, 0, cap(cnt))
	}
	for b := range parts {
		base := int32(len(cnt))
		for _, e := range part[start[b]:start[b+1]] {
			low := uint32(e) >> idxBits
			t := direct[low]
			if t <= base {
				cnt = append(cnt, 0)
				if keep {
					num = append(num, uint32(b)<<lowBits|low)
				}
				t = int32(len(cnt))
				direct[low] = t
			}
			cnt[t-1]++
			keys[uint32(e)&idxMask] = t - 1
		}
	}
	return keys, cnt, num, true
}
