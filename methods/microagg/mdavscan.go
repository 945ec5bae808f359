package microagg

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// The fused passes of the scan MDAV (mdavstate.go): one pass over a block of the lane buffer
// computes the distances to the current point, masks the dead rows, finds the block's
// farthest live row and marks the live rows within selectNearest's τ (docs/scaling.md, "MDAV
// at large k").

// bmWords is the number of bitmap words of a pass block: one bit per row.
const bmWords = blockRows / 64

// scanBlock is the pass over buffer rows [lo, hi) of pass block b (lo a multiple of 4) for
// the point in s.qb: s.dist[lo:hi] gets the squared distances (the kernel's rounding) and
// NaN for the dead rows, as distBlock and maskDead write them; s.blockArg[b] the farthest
// live row (strictly larger, so the lowest position on ties; NaN distances never taken; −1
// when none); and bit t−lo of the block's bitmap (s.cbits, words b·bmWords…) is set for the
// live rows within tau (never for a NaN distance). The lanes past hi in the last lane group
// are scratch.
func (s *mdavState) scanBlock(b, lo, hi int, tau float64) {
	_, s.blockArg[b] = s.scanRange(s.dist[lo:], lo, hi, tau, s.cbits[b*bmWords:(b+1)*bmWords])
}

// scanRange is scanBlock's pass over buffer rows [lo, hi) (lo a multiple of 4) with the
// bitmap bm (a bit per row from lo), the distances written to dist[0:hi−lo] (s.dist[lo:]
// or a scratch): it returns the largest live distance and its lowest position (−1 and −1
// when no row is live).
func (s *mdavState) scanRange(dist []float64, lo, hi int, tau float64, bm []uint64) (float64, int) {
	d := s.d
	groups := (hi - lo + 3) / 4
	var best [4]float64
	var arg [4]int
	_ = bm[(4*groups+63)/64-1]
	dist = dist[:4*groups]
	if useAVX2 {
		_ = s.rows[(lo+4*groups)*d-1]
		_ = s.dead[:lo+4*groups] // within the capacity (newMdavState)
		_ = s.qb[4*d-1]
		scanLanesAVX2(&dist[0], &s.rows[lo*d], &s.qb[0], &s.dead[:lo+4*groups][lo], &bm[0], &best[0], &arg[0], d, groups, lo, hi, tau)
	} else {
		scanLanesGo(dist, s.rows[lo*d:(lo+4*groups)*d], s.qb, s.dead[lo:hi], bm, &best, &arg, d, lo, tau)
	}
	bv, bi := -1.0, -1
	for l := range 4 {
		if arg[l] >= 0 && (best[l] > bv || best[l] == bv && arg[l] < bi) {
			bv, bi = best[l], arg[l]
		}
	}
	return bv, bi
}

// scanLanesGo is the portable pass of scanBlock over the lane groups of rows (dist: 4 per
// group; dead: the flags of the rows first…, those past it not live), lane by lane as the
// AVX2 kernel computes it: best[l] and arg[l] the largest distance of the rows t ≡ l (mod 4)
// and the first such row, from −1 and −1.
func scanLanesGo(dist, rows, qb []float64, dead []bool, bm []uint64, best *[4]float64, arg *[4]int, d, first int, tau float64) {
	groups := len(dist) / 4
	mdavindex.DistLanes(dist, rows, qb, d, groups)
	*best = [4]float64{-1, -1, -1, -1}
	*arg = [4]int{-1, -1, -1, -1}
	nan := math.NaN()
	clear(bm[:(4*groups+63)/64])
	for i, v := range dist {
		if i >= len(dead) || dead[i] {
			v = nan
			dist[i] = v
		}
		if l := i & 3; v > best[l] {
			best[l], arg[l] = v, first+i
		}
		if v <= tau {
			bm[i/64] |= 1 << (i % 64)
		}
	}
}

// compactGo is the compaction of maintain from buffer row w, the first dead row (the
// assembly compactLanesAVX2 where there is one): stable, in place (w ≤ t), without a branch on
// the dead flags: every row is copied to w and w advances past the live ones only, so a dead
// row's copy is overwritten by the next live row (or left past the new end, which nothing
// reads). It returns the number of live rows.
func (s *mdavState) compactGo(w int) int {
	d := s.d
	for t := w; t < s.m; t++ {
		if s.rows != nil {
			src := s.rows[mdavindex.LaneOffset(t, 0, d):]
			dst := s.rows[mdavindex.LaneOffset(w, 0, d):]
			for j := 0; j < 4*d; j += 4 { // column j/4 of the row: lane stride 4
				dst[j] = src[j]
			}
		}
		s.act[w] = s.act[t]
		live := 1
		if s.dead[t] {
			live = 0
		}
		w += live
	}
	return w
}
