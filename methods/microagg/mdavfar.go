package microagg

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// The farthest live row from the centroid in the selecting scan (selectK), with sum blocks
// skipped by a bound from an earlier pass (docs/scaling.md, "MDAV at large k").

// pivotSlack is the relative margin of the block bound of farthestCentroid; it covers the
// rounding of the distances, the square roots and the sums (about 10⁻¹⁵ relative, as the
// pivot list of internal/mdavindex).
const pivotSlack = 1e-9

// farthestCentroid returns the live buffer row farthest from s.cent (lowest position on
// ties), farthestFrom(s.cent)'s answer. With selectK, a pass over all rows (farthestFrom)
// also keeps, per sum block, the square root of its largest live distance to that centroid,
// the pivot c₀ (s.rootC), which compactions carry over to the blocks that receive the rows
// (remapRoots). A later query then computes the distances only of the blocks whose bound
// (√max + ‖c − c₀‖)², by the triangle inequality at least each of their rows' distances to
// c, is not below the best distance found, times
// 1 + pivotSlack (plus 10⁻²⁹⁰ against underflow): the rows of a skipped block are strictly
// nearer than the answer, so the answer and its ties are examined, and ties are taken in
// position order. The block of the largest bound is examined first. A query that examines
// more than half of the blocks makes the next one a full pass again, around the new centroid.
func (s *mdavState) farthestCentroid() int {
	if !s.selectK {
		return s.farthestFrom(s.cent)
	}
	ns := (s.m + sumRows - 1) / sumRows
	if !s.pivotOK {
		if len(s.rootC) < ns {
			s.rootC = make([]float64, ns)
		}
		bi := s.farthestFrom(s.cent)
		for b := range ns {
			mx := -1.0
			for _, v := range s.dist[b*sumRows : min((b+1)*sumRows, s.m)] {
				if v > mx { // false for NaN: dead rows
					mx = v
				}
			}
			s.rootC[b] = -1 // no live row
			if mx >= 0 {
				s.rootC[b] = math.Sqrt(mx)
			}
		}
		s.pivot = append(s.pivot[:0], s.cent...)
		s.pivotOK = true
		return bi
	}
	var dd float64
	for j, c := range s.cent {
		t := c - s.pivot[j]
		dd += t * t
	}
	delta := math.Sqrt(dd)
	mdavindex.BroadcastQuery(s.qb, s.cent)
	first := 0
	for b, r := range s.rootC[:ns] {
		if r > s.rootC[first] {
			first = b
		}
	}
	best, bi := s.scanSum(first)
	scanned := 1
	for b, r := range s.rootC[:ns] {
		if b == first || r < 0 {
			continue
		}
		if bound := (r+delta)*(r+delta)*(1+pivotSlack) + 1e-290; bound < best {
			continue // false when the bound is NaN: then the block is examined
		}
		scanned++
		if v, t := s.scanSum(b); t >= 0 && (v > best || v == best && (t < bi || bi < 0)) {
			best, bi = v, t
		}
	}
	if 2*scanned > ns {
		s.pivotOK = false
	}
	return bi
}

// scanSum computes the distances of the rows of sum block b to the point in s.qb (scanRange)
// and returns the largest live one and its lowest position (−1 and −1 when none is live).
func (s *mdavState) scanSum(b int) (float64, int) {
	lo := b * sumRows
	return s.scanRange(s.scratch(), lo, min(lo+sumRows, s.m), math.Inf(-1), s.cbits[lo/64:lo/64+1])
}

// scratch returns s.scr, the distances of one sum block (scanSum), which no one reads.
func (s *mdavState) scratch() []float64 {
	if s.scr == nil {
		s.scr = make([]float64, sumRows)
	}
	return s.scr
}

// remapRoots carries farthestCentroid's block bounds s.rootC through a compaction (maintain,
// before the rows move). The live rows of sum block b move together, in order, to the
// positions after the live rows of the blocks before it; rows only die, so rootC[b] still
// bounds their distances to the pivot, and each new sum block takes the largest bound among
// the old blocks whose rows it receives: a valid bound, looser than a new full pass's.
func (s *mdavState) remapRoots() {
	ns := (s.m + sumRows - 1) / sumRows
	if cap(s.deadCnt) < ns || cap(s.rootNew) < ns {
		s.deadCnt = make([]int32, ns)
		s.rootNew = make([]float64, ns)
	}
	cnt, roots := s.deadCnt[:ns], s.rootNew[:ns]
	clear(cnt)
	for _, t := range s.deadPos {
		cnt[t/sumRows]++
	}
	for b := range roots {
		roots[b] = -1
	}
	p := 0 // the new position of block b's first live row
	for b := range ns {
		live := min(sumRows, s.m-b*sumRows) - int(cnt[b])
		if live == 0 {
			continue
		}
		for nb := p / sumRows; nb <= (p+live-1)/sumRows; nb++ {
			roots[nb] = max(roots[nb], s.rootC[b])
		}
		p += live
	}
	s.rootC, s.rootNew = roots, s.rootC
}
