package microagg

import (
	"math"
	"math/bits"
)

// The selecting scan on one goroutine (lean: selectK without a worker pool) keeps the
// distances of a pass only block by block, in an L1-sized scratch, instead of writing all of
// them to s.dist: a pass then reads the lane buffer and the dead flags and writes nothing but
// the candidates within τ, which saves about a fifth of the memory traffic of the passes that
// bound MDAV at large k (docs/scaling.md, "MDAV at large k", session 14). The answers are the
// passes' own: the same kernel, the same distances, merged in the same order.

// scratch returns s.scr, blockRows distances of one pass block (scanRange's dist).
func (s *mdavState) scratch() []float64 {
	if s.scr == nil {
		s.scr = make([]float64, blockRows)
	}
	return s.scr
}

// leanPass runs the fused pass (scanRange) for the point in s.qb over every pass block of the
// buffer in order, on one goroutine, with the distances in the scratch. It returns the
// farthest live row (the blocks' argmax merged in block order with strict >, as mergeArg:
// the lowest position on ties; −1 when none is live); the live rows within tau go to
// s.candBuf in ascending position with their distances in s.candVal (none for tau = −Inf);
// with roots, s.rootC[b] is set for every sum block b as farthestCentroid's full pass sets it
// (the square root of its largest live distance, −1 when it has no live row).
func (s *mdavState) leanPass(tau float64, roots bool) int {
	scr := s.scratch()
	gather := tau >= 0 // v ≤ τ < 0 holds for no distance
	cand, vals := s.candBuf[:0], s.candVal[:0]
	best, bi := -1.0, -1
	for lo := 0; lo < s.m; lo += blockRows {
		hi := min(lo+blockRows, s.m)
		bm := s.cbits[lo/64 : lo/64+bmWords]
		if v, t := s.scanRange(scr, lo, hi, tau, bm); t >= 0 && v > best {
			best, bi = v, t
		}
		if gather {
			for w, x := range bm[:(hi-lo+63)/64] {
				for ; x != 0; x &= x - 1 {
					i := 64*w + bits.TrailingZeros64(x)
					cand = append(cand, lo+i)
					vals = append(vals, scr[i])
				}
			}
		}
		if roots {
			for b := lo; b < hi; b += sumRows {
				mx := -1.0
				for _, v := range scr[b-lo : min(b+sumRows, hi)-lo] {
					if v > mx { // false for NaN: dead rows
						mx = v
					}
				}
				s.rootC[b/sumRows] = -1 // no live row
				if mx >= 0 {
					s.rootC[b/sumRows] = math.Sqrt(mx)
				}
			}
		}
	}
	s.candBuf, s.candVal = cand, vals
	return bi
}

// fillDist writes the distances of every buffer row to the point in s.qb into s.dist (NaN
// for the dead rows), as the passes that keep them do: for farthestExcluding's rescan.
func (s *mdavState) fillDist() {
	for lo := 0; lo < s.m; lo += blockRows {
		s.scanBlock(lo/blockRows, lo, min(lo+blockRows, s.m), math.Inf(-1))
	}
}

// selectNearestLean is selectNearest after a lean pass: the candidates and their distances
// are s.candBuf and s.candVal; when fewer than k, a pass with τ = +Inf takes every live row.
func (s *mdavState) selectNearestLean() []int {
	k := s.k
	if len(s.candBuf) < k && !math.IsInf(s.tau, 1) {
		s.tau = math.Inf(1)
		s.leanArg = s.leanPass(s.tau, false) // the same argmax: the same point
	}
	return s.takeNearest()
}
