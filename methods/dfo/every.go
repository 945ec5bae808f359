package dfo

import "fmt"

// RepairMode says when Strategy II runs the feasibility routine (docs/dfo.md, "Readings").
type RepairMode int

// Repair modes.
const (
	// RepairEvery repairs after every iteration of the base search and stops when the
	// repaired partition does not improve the feasible one of the previous iteration
	// (Araújo & Aloise: the modified heuristics stop "when, after the feasibility routine,
	// the algorithm cannot improve the feasible solution of the previous iteration"). The
	// default.
	RepairEvery RepairMode = iota
	// RepairEnd runs the base search unconstrained to convergence, then repairs, and repeats
	// while that improves (our first reading, docs/dfo.md).
	RepairEnd
)

func (m RepairMode) String() string { return [...]string{"every", "end"}[m] }

// HMIter is what one iteration of the single best move search (HM) is under RepairEvery.
type HMIter int

// HM iterations.
const (
	// HMMove: one iteration is one best move, as the paper describes h-means ("the best
	// [change] is made, and the centroids involved are updated"). The default.
	HMMove HMIter = iota
	// HMSweep: one iteration visits every record once, in index order, and moves it to its
	// best group when that lowers the SSE (first improvement per record).
	HMSweep
)

func (h HMIter) String() string { return [...]string{"move", "sweep"}[h] }

// OnFail is what Strategy II does under RepairEvery when the repaired iteration does not
// improve.
type OnFail int

// Failure rules.
const (
	// FailRestrict: try one restricted iteration instead (a move whose source keeps ≥ k
	// records, Strategy I), continue if it improves, stop otherwise. The default.
	FailRestrict OnFail = iota
	// FailStop: stop at once (the literal stopping rule).
	FailStop
)

func (f OnFail) String() string { return [...]string{"restrict", "stop"}[f] }

// ParseRepair, ParseHMIter and ParseOnFail read the option names of the method's parameters.
func ParseRepair(s string) (RepairMode, error) {
	return parseName(s, "repair", []string{"every", "end"}, func(i int) RepairMode { return RepairMode(i) })
}

// ParseHMIter reads "move" or "sweep".
func ParseHMIter(s string) (HMIter, error) {
	return parseName(s, "hm_iter", []string{"move", "sweep"}, func(i int) HMIter { return HMIter(i) })
}

// ParseOnFail reads "restrict" or "stop".
func ParseOnFail(s string) (OnFail, error) {
	return parseName(s, "on_fail", []string{"restrict", "stop"}, func(i int) OnFail { return OnFail(i) })
}

func parseName[T any](s, param string, names []string, mk func(int) T) (T, error) {
	for i, n := range names {
		if s == n {
			return mk(i), nil
		}
	}
	var zero T
	return zero, fmt.Errorf("dfo: %s %q: want one of %v", param, s, names)
}

// hmEvery runs Strategy II of the single best move with RepairEvery and HMMove on the feasible
// partition p, in place. One iteration applies the best unconstrained move (i, A→B). If A
// keeps ≥ k records the move is feasible and improves. Otherwise the feasibility routine
// refills A with the record j of a group C ≠ A with more than k records whose move costs
// least; the pair is kept if the total change is below −Tol, else it is undone and the
// failure rule applies: FailRestrict makes the best restricted move instead (source keeps
// ≥ k), FailStop stops. Every kept iteration lowers the SSE by more than Tol. It returns the
// number of kept iterations.
func (l *Local) hmEvery(p *Partition, k int, fail OnFail) int {
	s := l.sbmInit(p, 0)
	iters := 0
	for {
		i, d := s.best(1)
		if i < 0 {
			return iters
		}
		A, B := int(p.Labels[i]), int(s.to[i])
		if p.Size[A] > k {
			s.move(i, B)
			iters++
			continue
		}
		s.move(i, B)
		j, dj := cheapestDonor(p, A, k)
		if j >= 0 && d+dj < -l.Tol {
			s.move(j, A)
			iters++
			continue
		}
		s.move(i, A) // undo
		if fail == FailRestrict {
			if r, _ := s.best(k); r >= 0 {
				s.move(r, int(s.to[r]))
				iters++
				continue
			}
		}
		return iters
	}
}

// cheapestDonor returns the record of a group other than g with more than k records whose
// move into g costs least (ties: lowest index), with that cost; −1 if none. O(N·D).
func cheapestDonor(p *Partition, g, k int) (int, float64) {
	best, bi := 0.0, -1
	for i, a := range p.Labels {
		if int(a) == g || p.Size[a] <= k {
			continue
		}
		if v := p.MoveCost(i, g); bi < 0 || v < best {
			best, bi = v, i
		}
	}
	return bi, best
}

// sweep moves every record, in index order, to its best group if that lowers the SSE by more
// than Tol and its group has more than minSize records (≥ 1); it reports whether a record
// moved. O(N·G·D).
func (l *Local) sweep(p *Partition, minSize int) bool {
	minSize = max(minSize, 1)
	moved := false
	for i := 0; i < p.N; i++ {
		if p.Size[p.Labels[i]] <= minSize {
			continue
		}
		bb, bd := -1, -l.Tol
		for b := 0; b < p.G(); b++ {
			if b == int(p.Labels[i]) {
				continue
			}
			if v := p.MoveCost(i, b); v < bd {
				bb, bd = b, v
			}
		}
		if bb >= 0 {
			p.Move(i, bb)
			moved = true
		}
	}
	return moved
}

// strategyIIEvery is Strategy II with RepairEvery for an iteration that works on a copy:
// iter(q, minSize) runs one iteration on q with sources keeping more than minSize records
// (1 or 0: unconstrained; k: restricted) and reports whether anything moved. Starting from
// the feasible p:
//
//	loop: q ← Repair(iter(copy of p, unconstrained))
//	      if SSE(q) < SSE(p) − Tol: p ← q; continue
//	      FailRestrict: q ← iter(copy of p, k); if SSE(q) < SSE(p) − Tol: p ← q; continue
//	      stop
func (l *Local) strategyIIEvery(p *Partition, k int, fail OnFail, free int, iter func(*Partition, int) bool) (*Partition, error) {
	ps := p.SSE()
	for it := 0; it < 100000; it++ {
		q := p.Clone()
		if !iter(q, free) {
			return p, nil
		}
		if _, err := l.Repair(q, k); err != nil {
			return nil, err
		}
		if s := q.SSE(); s < ps-l.Tol {
			p, ps = q, s
			continue
		}
		if fail == FailRestrict {
			q = p.Clone()
			if iter(q, k) {
				if s := q.SSE(); s < ps-l.Tol {
					p, ps = q, s
					continue
				}
			}
		}
		return p, nil
	}
	return p, nil
}
