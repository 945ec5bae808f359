package dfo

import (
	"math"
	"slices"
)

// sbmBlock is the number of records per block of sbmIndex.
const sbmBlock = 32

// sbmIndex lets a move of SBM skip the records it cannot affect, with the same result as
// visiting them all. A move A→B changes only the costs towards A and B, so a record j outside
// A and B whose cached target is neither needs a visit only if joining A or B costs at most its
// cached best add[j]. The records are sorted once by one column m of Z and cut into blocks of
// sbmBlock; each block keeps the range of its values in column m and an upper bound of add
// over its records. Since ‖x_j − c‖² ≥ (x_jm − c_m)² holds in floating point too (the squared
// column is one nonnegative term of the sum), a block with f_c·gap² > bound, gap being the
// distance from c_m to the block's range, holds no record that the move could change. The
// members of A and B and the records targeting them are kept in linked lists and always
// visited.
type sbmIndex struct {
	z      []float64 // the table the static part was built for
	d      int
	col    int
	order  []int32   // records by ascending z[:, col]
	ov     []float64 // z[order[q], col]
	blk    []int32   // block of each record
	lo, hi []float64 // range of z[:, col] per block
	bmax   []float64 // upper bound of add over each block's records

	mhead, mnext, mprev []int32 // members of each group
	thead, tnext, tprev []int32 // records whose cached target is each group
	stamp               []uint32
	tick                uint32
	buf                 []int32

	sv  []float64 // centroids' values in column col, ascending
	sg  []int32   // the group at each place of sv
	pos []int32   // the place of each group in sv
}

// build prepares the static part for the n×d table z. It is reused while z is the same
// slice with the same values in the indexed column (checked in O(n), so a buffer refilled by
// the caller is noticed).
func (x *sbmIndex) build(z []float64, n, d int) {
	if x.same(z, n, d) {
		return
	}
	x.z, x.d = z, d
	x.order = make([]int32, n)
	for i := range x.order {
		x.order[i] = int32(i)
	}
	// the column with the widest 10–90 % interquantile range prunes best
	vals := make([]float64, n)
	x.col = 0
	bestW := -1.0
	for m := 0; m < d; m++ {
		for i := 0; i < n; i++ {
			vals[i] = z[i*d+m]
		}
		slices.Sort(vals)
		if w := vals[n*9/10] - vals[n/10]; w > bestW {
			x.col, bestW = m, w
		}
	}
	col := x.col
	slices.SortStableFunc(x.order, func(a, b int32) int {
		va, vb := z[int(a)*d+col], z[int(b)*d+col]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	x.ov = make([]float64, n)
	for q, j := range x.order {
		x.ov[q] = z[int(j)*d+col]
	}
	nb := (n + sbmBlock - 1) / sbmBlock
	x.blk = make([]int32, n)
	x.lo, x.hi, x.bmax = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for k := 0; k < nb; k++ {
		rs := x.order[k*sbmBlock : min((k+1)*sbmBlock, n)]
		x.lo[k], x.hi[k] = z[int(rs[0])*d+col], z[int(rs[len(rs)-1])*d+col]
		for _, j := range rs {
			x.blk[j] = int32(k)
		}
	}
	x.mnext, x.mprev = make([]int32, n), make([]int32, n)
	x.tnext, x.tprev = make([]int32, n), make([]int32, n)
	x.stamp = make([]uint32, n)
	x.tick = 0
}

// reset fills the lists of p (targets empty) for G groups.
func (x *sbmIndex) reset(p *Partition) {
	G := p.G()
	if cap(x.mhead) < G {
		x.mhead, x.thead = make([]int32, G), make([]int32, G)
	}
	x.mhead, x.thead = x.mhead[:G], x.thead[:G]
	for g := range x.mhead {
		x.mhead[g], x.thead[g] = -1, -1
	}
	for j := p.N - 1; j >= 0; j-- {
		link(x.mhead, x.mnext, x.mprev, p.Labels[j], int32(j))
	}
}

func link(head, next, prev []int32, g, j int32) {
	h := head[g]
	next[j], prev[j] = h, -1
	if h >= 0 {
		prev[h] = j
	}
	head[g] = j
}

func unlink(head, next, prev []int32, g, j int32) {
	if prev[j] >= 0 {
		next[prev[j]] = next[j]
	} else {
		head[g] = next[j]
	}
	if next[j] >= 0 {
		prev[next[j]] = prev[j]
	}
}

// setTarget sets the cached best target of record j to t (−1: none) at cost v.
func (s *sbmState) setTarget(j int, v float64, t int32) {
	x := s.ix
	if old := s.to[j]; old != t {
		if old >= 0 {
			unlink(x.thead, x.tnext, x.tprev, old, int32(j))
		}
		if t >= 0 {
			link(x.thead, x.tnext, x.tprev, t, int32(j))
		}
		s.to[j] = t
	}
	s.add[j] = v
	if b := x.blk[j]; v > x.bmax[b] || math.IsNaN(v) {
		x.bmax[b] = v
	}
}

// nextTick starts a new visit mark.
func (x *sbmIndex) nextTick() uint32 {
	x.tick++
	if x.tick == 0 {
		clear(x.stamp)
		x.tick = 1
	}
	return x.tick
}

// sortCentroids orders the groups of p by their centroid's value in column col (sv, sg, pos),
// the order in which scan looks for a record's best target.
func (x *sbmIndex) sortCentroids(p *Partition) {
	G, d := p.G(), p.D
	if cap(x.sg) < G {
		x.sv, x.sg, x.pos = make([]float64, G), make([]int32, G), make([]int32, G)
	}
	x.sv, x.sg, x.pos = x.sv[:G], x.sg[:G], x.pos[:G]
	for g := range x.sg {
		x.sg[g] = int32(g)
	}
	slices.SortFunc(x.sg, func(a, b int32) int {
		va, vb := p.Cent[int(a)*d+x.col], p.Cent[int(b)*d+x.col]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return int(a - b)
	})
	for q, g := range x.sg {
		x.sv[q], x.pos[g] = p.Cent[int(g)*d+x.col], int32(q)
	}
}

// reposition moves group g to its place in the sorted order after its centroid changed.
func (x *sbmIndex) reposition(p *Partition, g int) {
	v := p.Cent[g*p.D+x.col]
	q := int(x.pos[g])
	x.sv[q] = v
	for q > 0 && x.sv[q-1] > v {
		x.sv[q], x.sg[q] = x.sv[q-1], x.sg[q-1]
		x.pos[x.sg[q]] = int32(q)
		q--
	}
	for q+1 < len(x.sv) && x.sv[q+1] < v {
		x.sv[q], x.sg[q] = x.sv[q+1], x.sg[q+1]
		x.pos[x.sg[q]] = int32(q)
		q++
	}
	x.sv[q], x.sg[q], x.pos[g] = v, int32(g), int32(q)
}

// same reports whether the static part was built for z as it is now.
func (x *sbmIndex) same(z []float64, n, d int) bool {
	if len(x.z) != len(z) || len(z) == 0 || &x.z[0] != &z[0] || len(x.blk) != n || x.d != d {
		return false
	}
	for q, j := range x.order {
		if x.ov[q] != z[int(j)*d+x.col] {
			return false
		}
	}
	return true
}
