package dfo

import (
	"errors"
	"math"
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
}

// sbmInit builds the cache of p in l's scratch buffers. O(N·G·D).
func (l *Local) sbmInit(p *Partition, maxSize int) *sbmState {
	p.Recompute()
	n := p.N
	l.add, l.rem = growF(l.add, n), growF(l.rem, n)
	if cap(l.to) < n {
		l.to = make([]int32, n)
	}
	s := &sbmState{p: p, tol: l.Tol, maxSize: maxSize, add: l.add, rem: l.rem, to: l.to[:n]}
	for i := 0; i < n; i++ {
		s.rem[i] = p.RemoveSaving(i)
		s.scan(i)
	}
	return s
}

func (s *sbmState) open(b int) bool { return s.maxSize <= 0 || s.p.Size[b] < s.maxSize }

// scan recomputes the best target of record i over all groups. O(G·D).
func (s *sbmState) scan(i int) {
	p, d := s.p, s.p.D
	a := int(p.Labels[i])
	best, bb := math.Inf(1), int32(-1)
	x := p.Z[i*d : (i+1)*d]
	for b := 0; b < p.G(); b++ {
		if b == a || !s.open(b) {
			continue
		}
		nb := p.Size[b]
		if nb == 0 {
			if 0 < best {
				best, bb = 0, int32(b)
			}
			continue
		}
		f := float64(nb) / float64(nb+1)
		v := dist2Bound(x, p.Cent[b*d:(b+1)*d], best/f*(1+1e-12))
		if v := f * v; v < best {
			best, bb = v, int32(b)
		}
	}
	s.add[i], s.to[i] = best, bb
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
// groups for every record in O(D), and a full rescan only for the moved record and for the
// records whose cached target got costlier.
func (s *sbmState) move(bi, B int) {
	p := s.p
	A := int(p.Labels[bi])
	p.Move(bi, B)
	pair := [2]int{min(A, B), max(A, B)}
	for j := 0; j < p.N; j++ {
		if j == bi {
			s.rem[j] = p.RemoveSaving(j)
			s.scan(j)
			continue
		}
		g := int(p.Labels[j])
		if g == A || g == B {
			s.rem[j] = p.RemoveSaving(j)
		}
		rescan := false
		for _, c := range pair {
			if c == g {
				continue
			}
			v := math.Inf(1)
			if s.open(c) {
				v = p.AddCost(j, c)
			}
			if int(s.to[j]) == c {
				// the cached best changed: still the best unless it got worse
				if v > s.add[j] {
					rescan = true
					break
				}
				s.add[j] = v
			} else if v < s.add[j] || (v == s.add[j] && int32(c) < s.to[j]) {
				s.add[j], s.to[j] = v, int32(c)
			}
		}
		if rescan {
			s.scan(j)
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
	passes := 0
	for it := 0; it < maxIter; it++ {
		copy(l.fc, p.Cent)
		for g := range live {
			live[g] = p.Size[g] > 0
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
			for b := 0; b < G; b++ {
				if !live[b] || b == a {
					continue
				}
				if v := dist2Bound(x, l.fc[b*d:(b+1)*d], best); v < best {
					best, bb = v, b
				}
			}
			// bb is the lowest-id nearest centroid if it is strictly nearer than own − Tol:
			// a lower-id centroid at the same distance would have been kept instead.
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
