package dfo

import (
	"errors"
	"math"
	"slices"
)

// Local runs the base local searches of docs/dfo.md on partitions of one table.
// Tol is the strict-improvement margin (tol = 1e-12·SST): a move must lower the
// cost by more than Tol. Local owns scratch buffers that it reuses across calls, so it is
// not safe for concurrent use; the zero value with Tol = 0 works.
type Local struct {
	Tol float64

	add  []float64 // SBM: best addition cost per record
	rem  []float64 // SBM: removal saving per record
	to   []int32   // SBM: the group that add refers to, −1 if none
	fc   []float64 // BR: frozen centroids
	live []bool    // BR: groups with a centroid in this pass
	rrem []float64 // Repair: removal saving per record
	sf   []float64 // SBM: n_b/(n_b+1) per group
	slim []float64 // SBM: (1+1e-12)/sf per group
	six  *sbmIndex // SBM: the move index
	bg   []int32   // BR: live groups by frozen centroid column
	bv   []float64 // BR: their values

	// plain turns the column index off (plain ascending scans and full visits), to test
	// that the index changes no result
	plain bool
}

// ErrNoDonor is returned by Repair when a group is short of k records and no other group has
// more than k to give, which cannot happen when G ≤ ⌊n/k⌋.
var ErrNoDonor = errors.New("repair: no group has more than k records to give (G > ⌊n/k⌋?)")

// growF returns s resized to n, reusing its capacity.
func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

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
			best = f * dist2(x, p.Cent[t*d:(t+1)*d])
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
		v := f * dist2Bound(x, p.Cent[b*d:(b+1)*d], best*s.lim[b])
		if v == best && int32(b) < bb {
			v = f * dist2(x, p.Cent[b*d:(b+1)*d])
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
		v := s.f[b] * dist2Bound(x, p.Cent[b*d:(b+1)*d], best*s.lim[b])
		if v == best && int32(b) < bb { // best = 0: the exit can stop at a partial sum of 0
			v = s.f[b] * dist2(x, p.Cent[b*d:(b+1)*d])
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
		return f * dist2Bound(x, cc, cur*s.lim[c])
	}
	return f * dist2(x, cc)
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

// BR runs batch reassignment (Lloyd iterations; the paper's "k-means", Section 2; Hansen &
// Mladenović's H-means) on p for at most maxIter passes and returns the number of passes that
// moved a record. A pass freezes the centroids of the non-empty groups, visits the records in
// index order and moves record i to its nearest frozen centroid b (ties: lowest id) if
// ‖x_i − c_b‖² < ‖x_i − c_{P(i)}‖² − Tol and its group has more than minSize records at that
// moment; the centroids are recomputed after the pass. minSize = 0 is the unconstrained
// search of §4.1, where a group may empty (it then has no centroid until Repair refills it);
// minSize = k is br-I of §5.1. SSE never increases. maxIter ≤ 0 means 1000.
//
// The nearest-centroid search uses the partial-distance early exit. Cost O(N·G·D) per pass.
func (l *Local) BR(p *Partition, minSize, maxIter int) int {
	if maxIter <= 0 {
		maxIter = 1000
	}
	p.Recompute()
	n, d, G := p.N, p.D, p.G()
	l.fc = growF(l.fc, G*d)
	if cap(l.live) < G {
		l.live = make([]bool, G)
	}
	live := l.live[:G]
	if l.six == nil {
		l.six = &sbmIndex{}
	}
	l.six.build(p.Z, n, d)
	col := l.six.col
	if cap(l.bg) < G {
		l.bg = make([]int32, G)
	}
	l.bv = growF(l.bv, G)
	passes := 0
	for it := 0; it < maxIter; it++ {
		copy(l.fc, p.Cent)
		for g := range live {
			live[g] = p.Size[g] > 0
		}
		// the live frozen centroids by their value in column col
		bg := l.bg[:0]
		for g := range live {
			if live[g] {
				bg = append(bg, int32(g))
			}
		}
		slices.SortFunc(bg, func(a, b int32) int {
			va, vb := l.fc[int(a)*d+col], l.fc[int(b)*d+col]
			switch {
			case va < vb:
				return -1
			case va > vb:
				return 1
			}
			return int(a - b)
		})
		bv := l.bv[:len(bg)]
		for q, g := range bg {
			bv[q] = l.fc[int(g)*d+col]
		}
		moved := false
		for i := 0; i < n; i++ {
			a := int(p.Labels[i])
			if p.Size[a] <= minSize {
				continue // may not leave its group: skip the scan
			}
			x := p.Row(i)
			own := dist2(x, l.fc[a*d:(a+1)*d])
			best, bb := own-l.Tol, -1
			// the centroids outwards from x's value in column col; on each side the search
			// stops once gap² > best, a lower bound of the distance to every centroid beyond
			xm := x[col]
			r, _ := slices.BinarySearch(bv, xm)
			try := func(b int) {
				if b == a {
					return
				}
				c := l.fc[b*d : (b+1)*d]
				v := dist2Bound(x, c, best)
				if v == best && b < bb {
					v = dist2(x, c) // an early exit can stop exactly at best
				}
				if v < best || (v == best && b < bb) {
					best, bb = v, b
				}
			}
			if l.plain {
				for b := 0; b < G; b++ {
					if live[b] {
						try(b)
					}
				}
			}
			for q := r; q < len(bv) && !l.plain; q++ {
				if gap := bv[q] - xm; float64(gap*gap) > best {
					break
				}
				try(int(bg[q]))
			}
			for q := r - 1; q >= 0 && !l.plain; q-- {
				if gap := xm - bv[q]; float64(gap*gap) > best {
					break
				}
				try(int(bg[q]))
			}
			// bb is the lowest-id nearest centroid if it is strictly nearer than own − Tol
			// (a candidate at exactly own − Tol is refused: bb < −1 never holds).
			if bb >= 0 {
				p.Move(i, bb)
				moved = true
			}
		}
		if !moved {
			break
		}
		passes++
		p.Recompute()
	}
	return passes
}

// Repair makes p feasible for minimum size k (docs/dfo.md, the paper):
//
//	for j = 0..G−1: while |j| < k: move into j the record i of a group A ≠ j with |A| > k
//	that minimizes Δ(i, A→j) (ties: lowest i)
//
// Donors hold more than k records, so no other group drops below k. An empty j receives the
// record whose removal saves the most. It returns the number of moves, or ErrNoDonor (p is
// then partly repaired). Cost O(deficit·N·D).
func (l *Local) Repair(p *Partition, k int) (int, error) {
	p.Recompute()
	n, d := p.N, p.D
	l.rrem = growF(l.rrem, n)
	rem := l.rrem
	for i := range rem {
		rem[i] = p.RemoveSaving(i)
	}
	moves := 0
	for j := 0; j < p.G(); j++ {
		for p.Size[j] < k {
			best, bi := math.Inf(1), -1
			nj := p.Size[j]
			f := float64(nj) / float64(nj+1)
			cj := p.Cent[j*d : (j+1)*d]
			for i := 0; i < n; i++ {
				a := int(p.Labels[i])
				if a == j || p.Size[a] <= k {
					continue
				}
				// Δ_i = f·‖x_i − c_j‖² − rem_i, with the partial-distance exit at the bound
				// that Δ_i < best needs (a value below it is exact, so the choice is the
				// one of the full formula)
				var v float64
				if nj == 0 {
					v = -rem[i]
				} else {
					dist := dist2Bound(p.Row(i), cj, (best+rem[i])/f*(1+1e-12))
					v = f*dist - rem[i]
				}
				if v < best {
					best, bi = v, i
				}
			}
			if bi < 0 {
				return moves, ErrNoDonor
			}
			a := int(p.Labels[bi])
			p.Move(bi, j)
			moves++
			for i, lab := range p.Labels {
				if int(lab) == a || int(lab) == j {
					rem[i] = p.RemoveSaving(i)
				}
			}
		}
	}
	return moves, nil
}

// StrategyII returns the best feasible partition of the Strategy-II loop of
// docs/dfo.md (the paper) with the unconstrained search h:
//
//	best ← p (repaired if infeasible)
//	repeat at most 100 times: Q ← Repair(h(copy of best), k)
//	    if SSE(Q) < SSE(best) − Tol: best ← Q, else stop
//
// p itself is not modified (unless it had to be repaired). The result is feasible and its
// SSE is at most that of the (repaired) input.
func (l *Local) StrategyII(p *Partition, k int, h func(*Partition)) (*Partition, error) {
	if !p.Feasible(k) {
		if _, err := l.Repair(p, k); err != nil {
			return nil, err
		}
	}
	best, bestSSE := p, p.SSE()
	for it := 0; it < 100; it++ {
		q := best.Clone()
		h(q)
		if _, err := l.Repair(q, k); err != nil {
			return nil, err
		}
		s := q.SSE()
		if !(s < bestSSE-l.Tol) {
			break
		}
		best, bestSSE = q, s
	}
	return best, nil
}
