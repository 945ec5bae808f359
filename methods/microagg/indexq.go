package microagg

import "math"

// Queries on the indexes of mdavindex.go used by VMDAV, CBFS and GSMS at scale
// (docs/scaling.md, "vmdav, cbfs and gsms at scale"). Like the MDAV indexes they return the
// scans' answers bit for bit: distances are the column-order sums of separately rounded
// squares, and every tie goes to the lowest record index.

// useIndex reports whether the methods built on MDAV's queries answer them from indexes for
// an n×d table (the threshold of MDAV itself).
func useIndex(n, d int) bool { return n >= indexMinRows && d <= indexMaxDims }

// prepare sets up qs for a query at q on t (the set-up of laneTree.nearest).
func (t *laneTree) prepare(qs *laneQuery, q []float64) {
	qs.q = q[:t.d]
	if len(qs.qb) != 4*t.d {
		qs.qb = make([]float64, 4*t.d)
	}
	if len(qs.dist) < t.maxLeaf {
		qs.dist = make([]float64, t.maxLeaf)
	}
	broadcastQ(qs.qb, q)
}

// lowestWithin returns the lowest-index live record whose squared distance to q is at most
// r2, or −1 if there is none. A subtree is skipped when its box bound, which never exceeds the
// rounded distance of a point inside the box, is strictly above r2; so the answer is that of
// a scan over the live records.
func (t *laneTree) lowestWithin(qs *laneQuery, q []float64, r2 float64) int {
	t.prepare(qs, q)
	best := -1
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.within(qs, 0, r2, &best)
	}
	return best
}

func (t *laneTree) within(qs *laneQuery, v int32, r2 float64, best *int) {
	if t.bound(v, qs.q, r2) > r2 {
		return
	}
	nd := &t.nodes[v]
	if nd.left < 0 {
		dist, dead, lo := t.leafDists(qs, nd)
		for u, s := range dist {
			if s <= r2 && !dead[u] {
				if r := int(t.rec[lo+u]); *best < 0 || r < *best {
					*best = r
				}
			}
		}
		return
	}
	for _, c := range [2]int32{nd.left, nd.right} {
		if t.cnt[c] > 0 {
			t.within(qs, c, r2, best)
		}
	}
}

// sqrtTies returns the largest float64 s' ≥ s with √s' = √s (both rounded): the squared
// distances whose rounded square roots tie with √s.
func sqrtTies(s float64) float64 {
	r := math.Sqrt(s)
	for {
		nx := math.Nextafter(s, math.Inf(1))
		if math.IsInf(nx, 1) || math.Sqrt(nx) != r {
			return s
		}
		s = nx
	}
}

// liveRows holds the rows of the live records in ascending record order in a row-major
// buffer, for the remaining centroid. A deleted record's row is overwritten with −0, the exact
// identity of floating-point addition (s + (−0) = s for every s, ±0 included), so the column
// sums over the buffer, in buffer order, are bit for bit the sums over the live records in
// ascending order that activeSet.mean computes. The buffer is compacted (stably) once an
// eighth of its rows are deleted.
type liveRows struct {
	d     int
	rows  []float64
	rec   []int32 // buffer row → record
	pos   []int32 // record → buffer row
	dead  []bool  // by record
	alive int
}

func newLiveRows(z []float64, n, d int) *liveRows {
	l := &liveRows{d: d, rows: append([]float64(nil), z[:n*d]...), rec: make([]int32, n),
		pos: make([]int32, n), dead: make([]bool, n), alive: n}
	for i := range l.rec {
		l.rec[i], l.pos[i] = int32(i), int32(i)
	}
	return l
}

// kill deletes record i (live).
func (l *liveRows) kill(i int) {
	d := l.d
	l.dead[i] = true
	l.alive--
	p := int(l.pos[i])
	for j := range l.rows[p*d : (p+1)*d] {
		l.rows[p*d+j] = math.Copysign(0, -1)
	}
	if 8*l.alive < 7*len(l.rec) {
		w := 0
		for _, r := range l.rec {
			if l.dead[r] {
				continue
			}
			copy(l.rows[w*d:(w+1)*d], l.rows[int(l.pos[r])*d:(int(l.pos[r])+1)*d])
			l.rec[w], l.pos[r] = r, int32(w)
			w++
		}
		l.rec, l.rows = l.rec[:w], l.rows[:w*d]
	}
}

// mean sets c to the mean of the live rows: activeSet.mean's value bit for bit.
func (l *liveRows) mean(c []float64) {
	colSums(c, l.rows, l.d)
	for j := range c {
		c[j] /= float64(l.alive)
	}
}

// records returns the live records in ascending order.
func (l *liveRows) records() []int {
	var out []int
	for _, r := range l.rec {
		if !l.dead[r] {
			out = append(out, int(r))
		}
	}
	return out
}

// nextSeed returns the record the next group of indexed cbfs or vmdav grows from: with the
// global centroid, the first live record of seeds (records by decreasing distance to it,
// consumed as they die); otherwise the live record farthest from the live records' mean, c
// (which it overwrites) computed as the scan computes it.
func nextSeed(global bool, seeds *[]int, live *liveRows, ix *mdavIndex, c []float64) int {
	if global {
		for live.dead[(*seeds)[0]] {
			*seeds = (*seeds)[1:]
		}
		return (*seeds)[0]
	}
	live.mean(c) // = R.mean over the live records
	return ix.farthest(c)
}

// colSums sets out[j] to the sum of column j of the row-major table t (d columns) added in
// row order from +0, the rounding of a plain loop, with up to eight columns' running sums in
// registers at once (independent chains, so their additions overlap).
func colSums(out, t []float64, d int) {
	rows := len(t) / d
	j := 0
	for ; j+8 <= d; j += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+8 : b*d+j+8]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
			a4 += r[4]
			a5 += r[5]
			a6 += r[6]
			a7 += r[7]
		}
		out[j], out[j+1], out[j+2], out[j+3] = a0, a1, a2, a3
		out[j+4], out[j+5], out[j+6], out[j+7] = a4, a5, a6, a7
	}
	for ; j+4 <= d; j += 4 {
		var a0, a1, a2, a3 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+4 : b*d+j+4]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
		}
		out[j], out[j+1], out[j+2], out[j+3] = a0, a1, a2, a3
	}
	switch d - j {
	case 3:
		var a0, a1, a2 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+3 : b*d+j+3]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
		}
		out[j], out[j+1], out[j+2] = a0, a1, a2
	case 2:
		var a0, a1 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+2 : b*d+j+2]
			a0 += r[0]
			a1 += r[1]
		}
		out[j], out[j+1] = a0, a1
	case 1:
		var a0 float64
		for b := 0; b < rows; b++ {
			a0 += t[b*d+j]
		}
		out[j] = a0
	}
}

// nearestBelow returns a live record nearest to q among those whose squared distance to q is
// below the bound below, and that distance; or (−1, below) if there is none, which proves that
// every live record is at least below away. A subtree is skipped when its box bound is not
// below the best distance found.
func (t *laneTree) nearestBelow(qs *laneQuery, q []float64, below float64) (int, float64) {
	t.prepare(qs, q)
	best, bi := below, -1
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.below(qs, 0, &best, &bi)
	}
	return bi, best
}

func (t *laneTree) below(qs *laneQuery, v int32, best *float64, bi *int) {
	nd := &t.nodes[v]
	if nd.left < 0 {
		dist, dead, lo := t.leafDists(qs, nd)
		for u, s := range dist {
			if s < *best && !dead[u] {
				*best, *bi = s, int(t.rec[lo+u])
			}
		}
		return
	}
	a, b := nd.left, nd.right
	ba, bb := math.Inf(1), math.Inf(1)
	if t.cnt[a] > 0 {
		ba = t.bound(a, qs.q, math.Inf(1))
	}
	if t.cnt[b] > 0 {
		bb = t.bound(b, qs.q, math.Inf(1))
	}
	if bb < ba {
		a, b, ba, bb = b, a, bb, ba
	}
	if t.cnt[a] > 0 && ba < *best {
		t.below(qs, a, best, bi)
	}
	if t.cnt[b] > 0 && bb < *best {
		t.below(qs, b, best, bi)
	}
}
