package robust

import (
	"math"
	"slices"
)

// selectBins is the number of buckets of the first radix pass of hSmallest: the top 16 bits
// of the order-preserving key of a float64.
const selectBins = 1 << 16

// floatKey maps v (not NaN) to a uint64 whose unsigned order is the numeric order of the
// values, with −0 and +0 mapped to the same key, so that keys are equal exactly when the
// values compare equal.
func floatKey(v float64) uint64 {
	if v == 0 {
		v = 0 // −0 → +0
	}
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// hSelect is the reusable workspace of hSmallest.
type hSelect struct {
	hist []int32
	cand []uint64
}

// hSmallest appends to dst[:0] the indices of the h smallest (md[i], i) pairs in ascending
// index order and returns it: the same set as sorting all pairs and taking the first h, in
// O(len(md)) instead of O(len(md)·log len(md)). md must hold no NaN; 0 ≤ h ≤ len(md).
//
// It finds the h-th smallest value T by one radix pass over the top 16 key bits and a sort
// of the keys in T's bucket, then takes every record below T and the lowest-index records
// equal to T.
func (s *hSelect) hSmallest(dst []int, md []float64, h int) []int {
	s.histogram(md)
	return s.hSmallestHist(dst, md, h)
}

// histogram fills s.hist with the counts of the top 16 key bits of md.
func (s *hSelect) histogram(md []float64) {
	if s.hist == nil {
		s.hist = make([]int32, selectBins)
	} else {
		clear(s.hist)
	}
	hist := s.hist
	for _, v := range md {
		hist[floatKey(v)>>48]++
	}
}

// count adds v to the histogram of the next hSmallestHist; s.hist must have been cleared by
// reset.
func (s *hSelect) count(v float64) { s.hist[floatKey(v)>>48]++ }

// reset allocates or clears the histogram.
func (s *hSelect) reset() {
	if s.hist == nil {
		s.hist = make([]int32, selectBins)
	} else {
		clear(s.hist)
	}
}

// bucketOf returns the bucket of hist holding the r-th smallest (1-based) entry and the
// number of entries in lower buckets.
func bucketOf(hist []int32, r int) (b, below int) {
	for ; ; b++ {
		if below+int(hist[b]) >= r {
			return b, below
		}
		below += int(hist[b])
	}
}

// hSmallestHist is hSmallest with s.hist already holding the histogram of md.
func (s *hSelect) hSmallestHist(dst []int, md []float64, h int) []int {
	dst = dst[:0]
	if h <= 0 {
		return dst
	}
	if h >= len(md) {
		for i := range md {
			dst = append(dst, i)
		}
		return dst
	}
	b, below := bucketOf(s.hist, h)
	cand := s.cand[:0]
	for _, v := range md {
		if key := floatKey(v); key>>48 == uint64(b) {
			cand = append(cand, key)
		}
	}
	if len(cand) > 4096 { // second radix pass on the next 16 bits
		clear(s.hist)
		for _, key := range cand {
			s.hist[key>>32&0xffff]++
		}
		b2, below2 := bucketOf(s.hist, h-below)
		below += below2
		w := 0
		for _, key := range cand {
			if key>>32&0xffff == uint64(b2) {
				cand[w] = key
				w++
			}
		}
		cand = cand[:w]
	}
	slices.Sort(cand)
	s.cand = cand
	t := cand[h-below-1] // the h-th smallest key
	less := below
	for _, key := range cand {
		if key >= t {
			break
		}
		less++
	}
	ties := h - less // records equal to T that are taken, lowest index first
	for i, v := range md {
		key := floatKey(v)
		if key < t {
			dst = append(dst, i)
		} else if key == t && ties > 0 {
			dst = append(dst, i)
			ties--
		}
	}
	return dst
}
