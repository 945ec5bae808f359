package dfo

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// Neighbours returns the L nearest other records of every record of the n×d table z, in
// (squared distance, index) order, as a row-major n×L table (L is clipped to n−1). Cost
// O(n²·d) with the partial-distance early exit.
func Neighbours(z []float64, n, d, L int) []int32 {
	L = min(L, n-1)
	out := make([]int32, n*L)
	dist := make([]float64, 0, L+1)
	idx := make([]int32, 0, L+1)
	for i := 0; i < n; i++ {
		dist, idx = dist[:0], idx[:0]
		xi := z[i*d : (i+1)*d]
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			bound := math.Inf(1)
			if len(dist) == L {
				bound = dist[L-1]
			}
			s := distance.SqBound(xi, z[j*d:(j+1)*d], bound)
			if s >= bound {
				continue
			}
			pos := len(dist)
			if pos < L {
				dist, idx = append(dist, s), append(idx, int32(j))
			} else {
				pos = L - 1
			}
			for pos > 0 && dist[pos-1] > s {
				dist[pos], idx[pos] = dist[pos-1], idx[pos-1]
				pos--
			}
			dist[pos], idx[pos] = s, int32(j)
		}
		copy(out[i*L:(i+1)*L], idx)
	}
	return out
}

// Polish is a harness extension (not in the paper): a size-preserving local search over
// relocations and pairwise exchanges between neighbouring records, which can improve the
// fixed-size groups of MDAV that no restricted move can touch. nn is the n×L table of
// Neighbours. Records are swept in index order; for record i in group A and each neighbour j
// in a group B ≠ A (B visited once per neighbour) it evaluates
//
//	relocation i: A→B, allowed when n_A > k and n_B < 2k−1, with the §4.2 cost;
//	exchange i ↔ j:  Δ = ‖x_j − c_A‖² − ‖x_i − c_A‖² − ‖x_i − x_j‖²/n_A
//	               + ‖x_i − c_B‖² − ‖x_j − c_B‖² − ‖x_i − x_j‖²/n_B,
//
// and applies the most negative one if it is below −Tol (ties: first found). Sweeps repeat
// until one applies nothing, or maxSweeps (≤ 0: 1000). Sizes stay within [k, 2k−1] when they
// start there; SSE decreases strictly. It returns the number of moves. O(n·L·d) per sweep.
func (l *Local) Polish(p *Partition, k int, nn []int32, maxSweeps int) int {
	if maxSweeps <= 0 {
		maxSweeps = 1000
	}
	p.Recompute()
	n := p.N
	L := len(nn) / n
	moves := 0
	for sweep := 0; sweep < maxSweeps; sweep++ {
		before := moves
		for i := 0; i < n; i++ {
			a := int(p.Labels[i])
			xi := p.Row(i)
			na := p.Size[a]
			ca := p.Centroid(a)
			dia := distance.Sq(xi, ca)
			rem := math.Inf(1)
			if na > 1 {
				rem = float64(na) / float64(na-1) * dia
			}
			best, bj, swap := -l.Tol, -1, false
			for _, jj := range nn[i*L : (i+1)*L] {
				j := int(jj)
				b := int(p.Labels[j])
				if b == a {
					continue
				}
				xj := p.Row(j)
				cb := p.Centroid(b)
				nb := p.Size[b]
				dib := distance.Sq(xi, cb)
				if na > k && nb < 2*k-1 {
					if v := float64(nb)/float64(nb+1)*dib - rem; v < best {
						best, bj, swap = v, j, false
					}
				}
				dij := distance.Sq(xi, xj)
				v := distance.Sq(xj, ca) - dia - dij/float64(na) + dib - distance.Sq(xj, cb) - dij/float64(nb)
				if v < best {
					best, bj, swap = v, j, true
				}
			}
			if bj < 0 {
				continue
			}
			b := int(p.Labels[bj])
			p.Move(i, b)
			if swap {
				p.Move(bj, a)
			}
			moves++
		}
		if moves == before {
			break
		}
	}
	return moves
}
