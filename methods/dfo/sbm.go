package dfo

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// The single best move search of Local (docs/dfo.md) and its per-record cache.

// SBM runs the single best move search (the paper's "h-means", Section 2; Hansen & Mladenović's
// K-means) on p and returns the number of moves made. Each step applies the move (i, A→B)
// with the most negative cost
//
//	Δ(i, A→B) = n_B/(n_B+1)·‖x_i − c_B‖² − n_A/(n_A−1)·‖x_i − c_A‖²
//
// if Δ < −Tol (ties: lowest i, then lowest B), among the moves whose source keeps at least
// minSize records (n_A > minSize) and, when maxSize > 0, whose target holds fewer than
// maxSize. minSize = 1 is the unconstrained search (G never changes); minSize = k is
// Strategy I (§5.1); maxSize = 2k−1 keeps sizes within [k, 2k−1]. An empty B costs 0 to join.
// SSE decreases strictly with every move.
//
// Every record caches its best target and that cost. After a move A→B the costs towards A
// and B are refreshed for every record in O(D), and the full O(G·D) rescan is done only for
// the moved record and for records whose cached target was A or B and got costlier (a target
// that got cheaper stays the best, since no other group changed). The moves equal those of
// the naive full scan (tested). Cost O(N·G·D) to start, then O(N·D + r·G·D) per move with r the
// number of rescans.
func (l *Local) SBM(p *Partition, minSize, maxSize int) int {
	s := l.sbmInit(p, maxSize)
	moves := 0
	for {
		bi, _ := s.best(minSize)
		if bi < 0 {
			return moves
		}
		s.move(bi, int(s.to[bi]))
		moves++
	}
}

// sbmState is the cache of SBM: for every record its best target group (to, −1 if none),
// the cost of joining it (add) and the saving of leaving its own group (rem).
type sbmState struct {
	p       *Partition
	tol     float64
	maxSize int
	add     []float64
	rem     []float64
	to      []int32
	// f[b] = n_b/(n_b+1) and lim[b] = (1+1e-12)/f[b] (0 for an empty b), kept up to date by
	// move: the bound of the partial-distance exit is best·lim[b], without a division.
	f     []float64
	lim   []float64
	ix    *sbmIndex
	plain bool
	// nEmpty counts the empty groups (f = 0); scan prunes by column only when it is 0
	nEmpty int
}

// setGroup refreshes f and lim of group b from its size.
func (s *sbmState) setGroup(b int) {
	nb := s.p.Size[b]
	if s.f[b] == 0 {
		s.nEmpty--
	}
	if nb == 0 {
		s.f[b], s.lim[b] = 0, 0
		s.nEmpty++
		return
	}
	f := float64(nb) / float64(nb+1)
	s.f[b], s.lim[b] = f, (1+1e-12)/f
}

// sbmInit builds the cache of p in l's scratch buffers. O(N·G·D).
func (l *Local) sbmInit(p *Partition, maxSize int) *sbmState {
	p.Recompute()
	n := p.N
	l.add, l.rem = growF(l.add, n), growF(l.rem, n)
	if cap(l.to) < n {
		l.to = make([]int32, n)
	}
	G := p.G()
	l.sf, l.slim = growF(l.sf, G), growF(l.slim, G)
	if l.six == nil {
		l.six = &sbmIndex{}
	}
	ix := l.six
	ix.build(p.Z, n, p.D)
	ix.reset(p)
	s := &sbmState{p: p, tol: l.Tol, maxSize: maxSize, add: l.add, rem: l.rem, to: l.to[:n], f: l.sf, lim: l.slim, ix: ix, plain: l.plain}
	for b := 0; b < G; b++ {
		s.setGroup(b)
	}
	s.nEmpty = 0
	for b := 0; b < G; b++ {
		if p.Size[b] == 0 {
			s.nEmpty++
		}
	}
	ix.sortCentroids(p)
	for i := 0; i < n; i++ {
		s.rem[i] = p.RemoveSaving(i)
		s.to[i] = -1
		s.scan(i)
	}
	for k := range ix.bmax {
		ix.bmax[k] = math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		if b := ix.blk[i]; !(s.add[i] <= ix.bmax[b]) {
			ix.bmax[b] = s.add[i]
		}
	}
	return s
}

func (s *sbmState) open(b int) bool { return s.maxSize <= 0 || s.p.Size[b] < s.maxSize }

// scan recomputes the best target of record i over all groups: the lowest-numbered group of
// least cost. The cached target, when still a candidate, is evaluated first so that its cost
// bounds the partial distances of the others from the start; ties are then broken by group
// number explicitly, so the result is that of the plain ascending scan. O(G·D).
func (s *sbmState) scan(i int) {
	p, d := s.p, s.p.D
	a := int(p.Labels[i])
	best, bb := math.Inf(1), int32(-1)
	x := p.Z[i*d : (i+1)*d]
	G := p.G()
	if t := int(s.to[i]); t >= 0 && t < G && t != a && s.open(t) {
		bb = int32(t)
		best = 0
		if f := s.f[t]; f != 0 {
			best = f * distance.Sq(x, p.Cent[t*d:(t+1)*d])
		}
	}
	if s.nEmpty == 0 && !s.plain {
		s.scanSorted(i, a, best, bb)
		return
	}
	for b := 0; b < G; b++ {
		if b == a || int32(b) == bb || !s.open(b) {
			continue
		}
		f := s.f[b]
		if f == 0 { // an empty group costs 0 to join
			if best > 0 || (best == 0 && int32(b) < bb) {
				best, bb = 0, int32(b)
			}
			continue
		}
		// a value below the bound is exact; one at or above it has f·v > best, unless
		// best = 0, where the exit can stop at a partial sum of 0: a tie is recomputed
		v := f * distance.SqBound(x, p.Cent[b*d:(b+1)*d], best*s.lim[b])
		if v == best && int32(b) < bb {
			v = f * distance.Sq(x, p.Cent[b*d:(b+1)*d])
		}
		if v < best || (v == best && int32(b) < bb) {
			best, bb = v, int32(b)
		}
	}
	s.setTarget(i, best, bb)
}

// scanSorted finishes scan when no group is empty: it visits the groups in the order of their
// centroids' column col outwards from the record's value and stops on each side once
// ½·gap² > best, which bounds f·‖x − c‖² for every group beyond (f ≥ ½ for a non-empty
// group, and the squared column is one term of the distance). Ties are broken by group
// number, so the result is that of the plain ascending scan.
func (s *sbmState) scanSorted(i, a int, best float64, bb int32) {
	p, d, ix := s.p, s.p.D, s.ix
	x := p.Z[i*d : (i+1)*d]
	xm := x[ix.col]
	r, _ := slices.BinarySearch(ix.sv, xm)
	try := func(b int) {
		if b == a || int32(b) == bb || !s.open(b) {
			return
		}
		v := s.f[b] * distance.SqBound(x, p.Cent[b*d:(b+1)*d], best*s.lim[b])
		if v == best && int32(b) < bb { // best = 0: the exit can stop at a partial sum of 0
			v = s.f[b] * distance.Sq(x, p.Cent[b*d:(b+1)*d])
		}
		if v < best || (v == best && int32(b) < bb) {
			best, bb = v, int32(b)
		}
	}
	for q := r; q < len(ix.sv); q++ {
		gap := ix.sv[q] - xm
		if 0.5*float64(gap*gap) > best {
			break
		}
		try(int(ix.sg[q]))
	}
	for q := r - 1; q >= 0; q-- {
		gap := xm - ix.sv[q]
		if 0.5*float64(gap*gap) > best {
			break
		}
		try(int(ix.sg[q]))
	}
	s.setTarget(i, best, bb)
}

// addCost returns the cost n_c/(n_c+1)·‖x_j − c_c‖² of adding record j to the open group c
// when it is at most add[j], and otherwise some value above add[j] (the partial-distance exit:
// only the comparisons with add[j] of move need it). O(D).
func (s *sbmState) addCost(j, c int) float64 {
	f := s.f[c]
	if f == 0 {
		return 0
	}
	d := s.p.D
	x, cc := s.p.Z[j*d:(j+1)*d], s.p.Cent[c*d:(c+1)*d]
	if cur := s.add[j]; cur > 0 {
		return f * distance.SqBound(x, cc, cur*s.lim[c])
	}
	return f * distance.Sq(x, cc)
}

// best returns the record of the most negative cached move below −tol among the records whose
// group has more than minSize records (ties: lowest i), with its cost; −1 if none. O(N).
func (s *sbmState) best(minSize int) (int, float64) {
	minSize = max(minSize, 1)
	bi, bd := -1, -s.tol
	for i, a := range s.p.Labels {
		if s.to[i] < 0 || s.p.Size[a] <= minSize {
			continue
		}
		if delta := s.add[i] - s.rem[i]; delta < bd {
			bi, bd = i, delta
		}
	}
	return bi, bd
}

// move moves record bi to group B and refreshes the cache: the costs towards the two changed
// groups in O(D) for every record the move can affect (sbmIndex: the members of A and B, the
// records targeting them and the blocks not excluded by their bound; all records when A or B
// is an empty open group), and a full rescan only for the moved record and for the records
// whose cached target got costlier. The result is that of visiting every record.
func (s *sbmState) move(bi, B int) {
	p, x := s.p, s.ix
	A := int(p.Labels[bi])
	p.Move(bi, B)
	unlink(x.mhead, x.mnext, x.mprev, int32(A), int32(bi))
	link(x.mhead, x.mnext, x.mprev, int32(B), int32(bi))
	s.setGroup(A)
	s.setGroup(B)
	x.reposition(p, A)
	x.reposition(p, B)
	pair := [2]int{min(A, B), max(A, B)}
	for _, c := range pair {
		if s.plain || s.open(c) && s.f[c] == 0 {
			for j := 0; j < p.N; j++ {
				s.update(j, bi, A, B, pair)
			}
			return
		}
	}
	tick := x.nextTick()
	buf := append(x.buf[:0], int32(bi))
	for _, g := range pair {
		for j := x.mhead[g]; j >= 0; j = x.mnext[j] {
			buf = append(buf, j)
		}
		for j := x.thead[g]; j >= 0; j = x.tnext[j] {
			buf = append(buf, j)
		}
	}
	x.buf = buf
	for _, j := range buf {
		if x.stamp[j] != tick {
			x.stamp[j] = tick
			s.update(int(j), bi, A, B, pair)
		}
	}
	d, col := p.D, x.col
	var cm, cf [2]float64
	var live [2]bool
	for t, c := range pair {
		live[t] = s.open(c)
		cm[t], cf[t] = p.Cent[c*d+col], s.f[c]
	}
	n := p.N
	for k := range x.lo {
		lo, hi, bound := x.lo[k], x.hi[k], x.bmax[k]
		skip := true
		for t := range pair {
			if !live[t] {
				continue
			}
			var gap float64
			switch {
			case cm[t] < lo:
				gap = lo - cm[t]
			case cm[t] > hi:
				gap = cm[t] - hi
			}
			if !(cf[t]*float64(gap*gap) > bound) {
				skip = false
				break
			}
		}
		if skip {
			continue
		}
		mx := math.Inf(-1)
		for q := k * sbmBlock; q < min((k+1)*sbmBlock, n); q++ {
			j := x.order[q]
			if x.stamp[j] != tick {
				// the same bound per record: skip it if no live group can cost ≤ add[j]
				need := false
				for t := range pair {
					if live[t] {
						if g := x.ov[q] - cm[t]; !(cf[t]*float64(g*g) > s.add[j]) {
							need = true
							break
						}
					}
				}
				if need {
					x.stamp[j] = tick
					s.update(int(j), bi, A, B, pair)
				}
			}
			if a := s.add[j]; !(a <= mx) {
				mx = a
			}
		}
		x.bmax[k] = mx
	}
}

// update refreshes the cache of record j after the move of bi from A to B (pair = A, B in
// ascending order).
func (s *sbmState) update(j, bi, A, B int, pair [2]int) {
	p := s.p
	if j == bi {
		s.rem[j] = p.RemoveSaving(j)
		s.scan(j)
		return
	}
	g := int(p.Labels[j])
	if g == A || g == B {
		s.rem[j] = p.RemoveSaving(j)
	}
	for _, c := range pair {
		if c == g {
			continue
		}
		v := math.Inf(1)
		if s.open(c) {
			v = s.addCost(j, c)
		}
		if int(s.to[j]) == c {
			// the cached best changed: still the best unless it got worse
			if v > s.add[j] {
				s.scan(j)
				return
			}
			s.setTarget(j, v, s.to[j])
		} else if v < s.add[j] || (v == s.add[j] && int32(c) < s.to[j]) {
			s.setTarget(j, v, int32(c))
		}
	}
}
