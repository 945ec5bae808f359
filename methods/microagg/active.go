package microagg

import "github.com/sdcbench/sdcbench/internal/distance"

// activeSet is the set R of records not yet grouped, as the ascending list of their indices,
// with a scratch buffer of squared distances per position. Because positions follow record
// order, "lowest position" and "lowest record index" are the same tie rule.
type activeSet struct {
	z    []float64 // the n×d table, row-major
	d    int
	idx  []int     // record indices in R, ascending
	dist []float64 // dist[t]: squared distance of record idx[t] to the last distTo point (≥ 0)
	near []int     // reused result of nearest
	gone []bool    // all false between calls of remove
}

func newActiveSet(z []float64, n, d int) *activeSet {
	a := &activeSet{z: z, d: d, idx: make([]int, n), dist: make([]float64, n), gone: make([]bool, n)}
	for i := range a.idx {
		a.idx[i] = i
	}
	return a
}

// len returns |R|.
func (a *activeSet) len() int { return len(a.idx) }

// row returns the row of record i.
func (a *activeSet) row(i int) []float64 { return a.z[i*a.d : (i+1)*a.d : (i+1)*a.d] }

// distTo sets dist[t] to the squared distance of record idx[t] to q, for every t.
func (a *activeSet) distTo(q []float64) {
	d := a.d
	q = q[:d]
	dist := a.dist[:len(a.idx)]
	for t, i := range a.idx {
		dist[t] = distance.Sq(a.z[i*d:(i+1)*d:(i+1)*d], q)
	}
}

// farthest returns the position with the largest dist (lowest position on ties).
func (a *activeSet) farthest() int {
	best, bt := -1.0, -1
	for t, v := range a.dist[:len(a.idx)] {
		if v > best {
			best, bt = v, t
		}
	}
	return bt
}

// nearest returns the positions of the k smallest (dist, position) pairs, in that order.
// The slice is reused by the next call. Cost O(|R|·k) worst case, O(|R|) typically.
func (a *activeSet) nearest(k int) []int {
	a.near = smallest(a.near[:0], a.dist[:len(a.idx)], k)
	return a.near
}

// smallest appends to dst[:0] the positions of the min(k, len(dist)) smallest (dist[t], t)
// pairs in ascending order and returns it. Cost O(len(dist)·k) worst case, O(len(dist))
// typically.
func smallest(dst []int, dist []float64, k int) []int {
	buf := dst[:0]
	for t, v := range dist {
		if len(buf) == k {
			if v >= dist[buf[k-1]] {
				continue
			}
			buf = buf[:k-1]
		}
		// insert t keeping (dist, position) order; t is the largest position so far
		j := len(buf)
		buf = append(buf, t)
		for j > 0 && dist[buf[j-1]] > v {
			buf[j] = buf[j-1]
			j--
		}
		buf[j] = t
	}
	return buf
}

// remove deletes the records at the given positions (any order) from R, keeping the others
// in ascending order, and compacts each of the per-position slices also in the same way.
// dist is left undefined. Cost O(|R|).
func (a *activeSet) remove(pos []int, also ...[]float64) {
	if len(pos) == 0 {
		return
	}
	gone := a.gone[:len(a.idx)]
	for _, t := range pos {
		gone[t] = true
	}
	w := 0
	for t, i := range a.idx {
		if gone[t] {
			gone[t] = false
			continue
		}
		a.idx[w] = i
		for _, s := range also {
			s[w] = s[t]
		}
		w++
	}
	a.idx = a.idx[:w]
}

// mean sets c to the mean of the rows in R, summed in ascending record order.
func (a *activeSet) mean(c []float64) {
	clear(c)
	for _, i := range a.idx {
		for j, v := range a.row(i) {
			c[j] += v
		}
	}
	for j := range c {
		c[j] /= float64(len(a.idx))
	}
}
