package microagg

import (
	"math"
	"math/bits"
	"slices"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// The scan MDAV's selection of the k nearest rows for large k (selectK, k ≥ selectMinK;
// docs/scaling.md, "MDAV at large k").

// selectSample is about the number of live rows whose distances estimate selectNearest's τ.
const selectSample = 1024

// selectParallelRows is the number of buffer rows from which the passes of the selecting scan
// (selectK) are split over the workers. Below it a pass (a few hundred microseconds) is short
// against the serial work of each step (the selection, the centroid's block sums), during
// which the idle workers spin and then park: on 10^5 × 5 rows at k = 1,000 two workers took
// 0.10–0.11 CPU-s against 0.064–0.067 for one, and no less wall time on a loaded machine. It
// is a variable only so that tests reach the parallel passes with small tables.
var selectParallelRows = 1 << 18

// selectTau sets s.tau, the distance within which the next pass (selectBlock) collects the
// candidates of selectNearest, for the point in s.pt (broadcast in s.qb): the order statistic
// at about twice the rank of the k-th nearest among the distances of the live rows of a
// sample of between selectSample and 2·selectSample buffer rows (resample), or +Inf (every
// live row) when at most 4k rows are live or the sample is too small. Any τ gives the same
// group (selectNearest); a good one gives about 2k candidates. The sample is a compact lane
// buffer of its own, so its distances come from the SIMD kernel reading a few kilobytes
// instead of a scalar loop reading a cache line per row all over the lane buffer.
func (s *mdavState) selectTau() {
	k, d := s.k, s.d
	s.tau = math.Inf(1)
	if s.alive <= 4*k {
		return
	}
	if !s.smpOK {
		s.resample()
	}
	dist := s.smpDist[:len(s.smpDead)]
	mdavindex.DistLanes(dist, s.smp, s.qb, d, len(dist)/4)
	smp := s.selBuf[:0]
	for i, dead := range s.smpDead {
		if !dead {
			smp = append(smp, dist[i])
		}
	}
	s.selBuf = smp
	if r := 2*len(smp)*k/s.alive + 8; r < len(smp) {
		s.tau = kthValue(smp, r)
	}
}

// resample copies the rows at the buffer positions that are multiples of 2^s.smpShift (the
// largest power of two not above m/selectSample, or 1) into s.smp, a lane buffer of whole
// lane groups, with their dead flags in s.smpDead (the lanes past the last sample dead),
// which kill keeps up to date until the next compaction (maintain), after which selectTau
// resamples.
func (s *mdavState) resample() {
	d := s.d
	s.smpShift = 0
	for 2<<s.smpShift*selectSample <= s.m {
		s.smpShift++
	}
	step := 1 << s.smpShift
	ns := (s.m + step - 1) / step
	n4 := (ns + 3) &^ 3
	s.smp = slices.Grow(s.smp[:0], n4*d)[:n4*d]
	s.smpDead = slices.Grow(s.smpDead[:0], n4)[:n4]
	s.smpDist = slices.Grow(s.smpDist[:0], n4)[:n4]
	for i := range n4 {
		t := i * step
		if i >= ns {
			s.smpDead[i] = true
			for j := range d {
				s.smp[mdavindex.LaneOffset(i, j, d)] = 0
			}
			continue
		}
		base := mdavindex.LaneOffset(t, 0, d)
		for j := range d {
			s.smp[mdavindex.LaneOffset(i, j, d)] = s.rows[base+4*j]
		}
		s.smpDead[i] = s.dead[t]
	}
	s.smpOK = true
}

// selectBlock is the distTo work of pass block b over buffer rows [lo, hi) with selectK: the
// distances, the block's farthest live row (lowest position on ties) and the bitmap of its
// live rows within s.tau (scanBlock).
func (s *mdavState) selectBlock(b, lo, hi int) {
	s.scanBlock(b, lo, hi, s.tau)
}

// selectNearest is nearest from every live row's distance instead of per-block heaps, for
// large k (selectK). The candidates are the live rows within τ (selectTau), which the pass
// collected block by block (selectBlock), or all live rows if fewer than k fall within it;
// T, the k-th smallest candidate distance, is then the k-th smallest of all, and the result
// is the rows below T and, in ascending position, the first rows at T. These are the k rows
// the heaps give when no distance is NaN: (distance, position) is a total order and both take
// its k smallest. The result is in ascending position, not sorted by distance: MDAV only
// emits the group and tests membership in it (farthestExcluding), so the order does not
// matter. Cost O(k) expected after the pass, against the heaps' O(m log k) pushes when k is
// large.
func (s *mdavState) selectNearest() []int {
	k := s.k
	dist := s.dist
	cand := s.candBuf[:0]
	vals := s.candVal[:0]
	// the pass blocks' bitmaps, one word per 64 positions: bit i of word w is position 64w+i
	for w, x := range s.cbits[:(s.m+63)/64] {
		for ; x != 0; x &= x - 1 {
			t := 64*w + bits.TrailingZeros64(x)
			cand = append(cand, t)
			vals = append(vals, dist[t])
		}
	}
	if len(cand) < k {
		cand, vals = cand[:0], vals[:0]
		for t, x := range s.dead[:s.m] {
			if !x {
				cand = append(cand, t)
				vals = append(vals, dist[t])
			}
		}
	}
	s.candBuf, s.candVal = cand, vals
	return s.takeNearest()
}

// takeNearest is the end of selectNearest, from the candidates s.candBuf (ascending
// positions) and their distances s.candVal: when there are more than k, T is the k-th
// smallest distance, and the result is the rows below T and, in ascending position, the
// first rows at T.
func (s *mdavState) takeNearest() []int {
	k := s.k
	cand, cv := s.candBuf, s.candVal[:len(s.candBuf)]
	if len(cand) <= k {
		s.groupBuf = append(s.groupBuf[:0], cand...)
		return s.groupBuf
	}
	vals := append(s.selBuf[:0], cv...) // kthValue reorders them
	s.selBuf = vals
	T := kthValue(vals, k-1)
	// Both loops below are branch-free on v < T, which is true for about half of the
	// candidates in no predictable order; v == T is rare.
	below := 0
	for _, v := range cv {
		inc := 0
		if v < T {
			inc = 1
		}
		below += inc
	}
	atT := k - below // rows at T to take, lowest positions first
	if cap(s.groupBuf) < len(cand) {
		s.groupBuf = make([]int, len(cand))
	}
	g := s.groupBuf[:len(cand)]
	n := 0
	for i, t := range cand {
		v := cv[i]
		g[n] = t // kept only if taken
		inc := 0
		if v < T {
			inc = 1
		}
		if v == T && atT > 0 {
			inc = 1
			atT--
		}
		n += inc
	}
	s.groupBuf = g[:n]
	return s.groupBuf
}

// kthValue returns the value of rank k (0-based) among x, which it reorders; x must hold no
// NaN. It is selectKth's answer (the k-th order statistic is one value, whatever the method),
// by quickselect with a median-of-three pivot whose partitions are branch-free (Lomuto's
// scheme with the swap done unconditionally): for the random distances of MDAV's selection a
// partition branch is mispredicted about every other element. Elements equal to the pivot are
// gathered by a second pass over the upper part, so ties (integer grids) cannot make it
// quadratic.
func kthValue(x []float64, k int) float64 {
	lo, hi := 0, len(x)
	for hi-lo > 16 {
		a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi-1]
		p := max(min(a, b), min(max(a, b), c))
		j := lo // x[lo:j] < p ≤ x[j:i]
		for i := lo; i < hi; i++ {
			v := x[i]
			x[i] = x[j]
			x[j] = v
			inc := 0
			if v < p {
				inc = 1
			}
			j += inc
		}
		if k < j {
			hi = j
			continue
		}
		e := j // x[j:e] == p < x[e:i]
		for i := j; i < hi; i++ {
			v := x[i]
			x[i] = x[e]
			x[e] = v
			inc := 0
			if v == p {
				inc = 1
			}
			e += inc
		}
		if k < e {
			return p
		}
		lo = e
	}
	slices.Sort(x[lo:hi])
	return x[k]
}
