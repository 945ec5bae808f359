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
// candidates of selectNearest, for the point in s.pt: the order statistic at about twice the
// rank of the k-th nearest among the distances of a sample of about selectSample live rows,
// or +Inf (every live row) when at most 4k rows are live or the sample is too small. Any τ
// gives the same group (selectNearest); a good one gives about 2k candidates. The sample's
// distances are computed here, by the scalar column-order loop.
func (s *mdavState) selectTau() {
	k, m, d := s.k, s.m, s.d
	s.tau = math.Inf(1)
	if s.alive <= 4*k {
		return
	}
	smp := s.selBuf[:0]
	step := max(1, m/selectSample)
	for t := 0; t < m; t += step {
		if s.dead[t] {
			continue
		}
		base := mdavindex.LaneOffset(t, 0, d)
		var v float64
		for j, q := range s.pt {
			x := s.rows[base+4*j] - q
			v += x * x
		}
		smp = append(smp, v)
	}
	s.selBuf = smp
	if r := 2*len(smp)*k/s.alive + 8; r < len(smp) {
		s.tau = kthValue(smp, r)
	}
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
	if s.lean {
		return s.selectNearestLean()
	}
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
