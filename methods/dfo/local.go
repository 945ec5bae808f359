package dfo

import (
	"errors"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
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
			own := distance.Sq(x, l.fc[a*d:(a+1)*d])
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
				v := distance.SqBound(x, c, best)
				if v == best && b < bb {
					v = distance.Sq(x, c) // an early exit can stop exactly at best
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
					dist := distance.SqBound(p.Row(i), cj, (best+rem[i])/f*(1+1e-12))
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
