// Package kdtree is an exact k-d tree for the nearest-neighbour and fixed-radius queries of
// the disclosure-risk measures at scale (docs/scaling.md). "Exact" means bit-identical to a
// linear scan: a distance is always the squared Euclidean distance accumulated in column order,
//
//	s = 0; for l := range q { t := p[l] − q[l]; s += t·t }
//
// with separately rounded products (no fused multiply-add), and a node is pruned only when a
// lower bound on that rounded sum strictly exceeds the bound of the query. Two bounds are used:
//
//   - at internal nodes, the incremental cell bound of Arya and Mount (the squared gaps to the
//     splitting planes, one term replaced per level), pruned only when it exceeds the query
//     bound by a relative margin of 1e-10 — far above its rounding error, which is at most a
//     few ulps per level because the gaps only grow down the tree;
//   - at leaves, the tight bounding box of the leaf's points, as the same column-order sum over
//     the per-column gaps; rounding is monotone, so it never exceeds the rounded distance of a
//     point in the box, and it is pruned when strictly larger.
//
// Ties go to the smallest row index, as in the scans the tree replaces.
//
// It is the one general k-d tree of sdcbench: the disclosure-risk measures (dld, dbrl) and
// MAGGA's exact link test of dld query it. MDAV's index keeps its own tree, specialised for
// deleting records as groups form.
//
// gonum's spatial/kdtree was not used: it has no tie rule, no exact pruning contract and
// stores points as interfaces (an allocation per point at 10^6 rows).
package kdtree

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/radix"
)

// leafSize is the largest number of points in a leaf.
const leafSize = 16

// Tree is a static k-d tree over the rows of an n×d row-major table. It copies the rows into
// tree order; it is safe for concurrent queries.
type Tree struct {
	d      int
	pts    []float64 // rows in tree order
	idx    []int32   // original row of each tree position
	lo, hi []float64 // node boxes, nodes×d
	nodes  []node
	sel    []radix.Keyed // scratch of the build's median selections
}

type node struct {
	start, end  int32   // tree positions [start, end)
	left, right int32   // children, −1 for a leaf
	dim         int32   // splitting column
	val         float64 // left points have x_dim ≤ val, right points x_dim ≥ val
}

// margin is the relative slack of the incremental cell bound.
const margin = 1e-10

// New builds the tree of the n×d row-major table z in O(n log n). z is not kept. It panics if
// len(z) != n·d, d < 1 or n ≥ 2^31.
func New(z []float64, n, d int) *Tree {
	if len(z) != n*d || d < 1 || n >= math.MaxInt32 {
		panic("kdtree: bad shape")
	}
	t := &Tree{d: d, idx: make([]int32, n)}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	if n > 0 {
		t.build(z, 0, n)
	}
	t.pts = make([]float64, n*d)
	for p, i := range t.idx {
		copy(t.pts[p*d:(p+1)*d], z[int(i)*d:(int(i)+1)*d])
	}
	return t
}

// build adds the node of positions [s, e) and its subtree; it returns the node's number.
func (t *Tree) build(z []float64, s, e int) int32 {
	d := t.d
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{start: int32(s), end: int32(e), left: -1, right: -1})
	base := len(t.lo)
	t.lo = append(t.lo, make([]float64, d)...)
	t.hi = append(t.hi, make([]float64, d)...)
	lo, hi := t.lo[base:base+d], t.hi[base:base+d]
	for l := 0; l < d; l++ {
		lo[l], hi[l] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range t.idx[s:e] {
		row := z[int(i)*d : (int(i)+1)*d]
		for l, v := range row {
			lo[l] = min(lo[l], v)
			hi[l] = max(hi[l], v)
		}
	}
	if e-s <= leafSize {
		return id
	}
	split, spread := 0, -1.0
	for l := 0; l < d; l++ {
		if w := hi[l] - lo[l]; w > spread {
			split, spread = l, w
		}
	}
	if !(spread > 0) { // all points equal (or NaN): keep as a large leaf
		return id
	}
	m := (s + e) / 2
	kb := t.sel[:0]
	for _, i := range t.idx[s:e] {
		kb = append(kb, radix.Keyed{V: z[int(i)*d+split], I: i})
	}
	t.sel = kb
	radix.Select(kb, m-s)
	for u, p := range kb {
		t.idx[s+u] = p.I
	}
	val := kb[m-s].V
	l := t.build(z, s, m)
	r := t.build(z, m, e)
	t.nodes[id].left, t.nodes[id].right = l, r
	t.nodes[id].dim, t.nodes[id].val = int32(split), val
	return id
}

// Order returns the rows in tree order (not a copy: do not modify). Rows that are close in
// this order are close in space, so queries taken in this order share cached nodes.
func (t *Tree) Order() []int32 { return t.idx }

// Len returns the number of rows.
func (t *Tree) Len() int { return len(t.idx) }

// bound returns the lower bound of node v's box for q, or a partial sum of it once that
// exceeds limit (the terms are non-negative, so the bound does too).
func (t *Tree) bound(v int32, q []float64, limit float64) float64 {
	d := t.d
	lo, hi := t.lo[int(v)*d:int(v)*d+d], t.hi[int(v)*d:int(v)*d+d]
	var s float64
	for l, x := range q {
		var g float64
		if x < lo[l] {
			g = lo[l] - x
		} else if x > hi[l] {
			g = x - hi[l]
		}
		s += float64(g * g)
		if s > limit {
			return s
		}
	}
	return s
}

// Nearest returns the row nearest to q and its squared distance, the smallest row index on
// exact ties; (−1, +Inf) for an empty tree or when every distance is NaN. q must have d
// values and no NaN.
func (t *Tree) Nearest(q []float64) (int, float64) {
	if len(t.nodes) == 0 {
		return -1, math.Inf(1)
	}
	st := search{q: q[:t.d], best: math.Inf(1), bi: math.MaxInt32, off: make([]float64, t.d)}
	t.nearest(0, 0, &st)
	if st.bi == math.MaxInt32 {
		return -1, math.Inf(1)
	}
	return int(st.bi), st.best
}

// search is the state of one query.
type search struct {
	q    []float64
	off  []float64 // per-column gap of q to the current cell
	best float64   // nearest: best distance; within: the radius²
	bi   int32
	fn   func(int32, float64) bool
	stop bool
}

// children returns the near and far child of internal node nd for q, and the far cell's gap
// in the splitting column.
func (nd *node) children(q []float64) (near, far int32, gap float64) {
	diff := q[nd.dim] - nd.val
	if diff < 0 {
		return nd.left, nd.right, -diff
	}
	return nd.right, nd.left, diff
}

func (t *Tree) nearest(v int32, rd float64, st *search) {
	if rd*(1-margin) > st.best {
		return
	}
	nd := &t.nodes[v]
	if nd.left >= 0 {
		near, far, gap := nd.children(st.q)
		t.nearest(near, rd, st)
		old := st.off[nd.dim]
		if gap > old {
			st.off[nd.dim] = gap
			t.nearest(far, rd-float64(old*old)+float64(gap*gap), st)
			st.off[nd.dim] = old
		} else {
			t.nearest(far, rd, st)
		}
		return
	}
	if t.bound(v, st.q, st.best) > st.best {
		return
	}
	d, q := t.d, st.q
	for p := nd.start; p < nd.end; p++ {
		row := t.pts[int(p)*d : int(p)*d+d : int(p)*d+d]
		var s float64
		for l, x := range row {
			u := x - q[l]
			s += float64(u * u)
			if s > st.best {
				break
			}
		}
		if i := t.idx[p]; s < st.best || (s == st.best && i < st.bi) {
			st.best, st.bi = s, i
		}
	}
}

// Within calls fn(row, s) for rows whose squared distance s to q is ≤ r2, nearer subtrees
// first (not in distance order), until fn returns true. q must have d values.
func (t *Tree) Within(q []float64, r2 float64, fn func(row int32, s float64) (stop bool)) {
	t.NewSearcher().Within(q, r2, fn)
}

// Searcher runs queries on a tree with reused scratch space, so that a goroutine's queries do
// not allocate. A Searcher must not be used by two goroutines at once.
type Searcher struct {
	t  *Tree
	st search
}

// NewSearcher returns a Searcher of t.
func (t *Tree) NewSearcher() *Searcher {
	return &Searcher{t: t, st: search{off: make([]float64, t.d)}}
}

// Within is Tree.Within with the Searcher's scratch space.
func (s *Searcher) Within(q []float64, r2 float64, fn func(row int32, s float64) (stop bool)) {
	t := s.t
	if len(t.nodes) == 0 {
		return
	}
	clear(s.st.off)
	s.st.q, s.st.best, s.st.fn, s.st.stop = q[:t.d], r2, fn, false
	t.within(0, 0, &s.st)
}

// Nearest is Tree.Nearest with the Searcher's scratch space.
func (s *Searcher) Nearest(q []float64) (int, float64) {
	return s.NearestFrom(q, -1, math.Inf(1))
}

// NearestFrom is Nearest started from a known candidate: row with squared distance dist to q,
// which must be distance.Sq(row's values, q) (row −1: none). A close candidate prunes the search from
// the start; the answer is the same.
func (s *Searcher) NearestFrom(q []float64, row int, dist float64) (int, float64) {
	t := s.t
	if len(t.nodes) == 0 {
		return -1, math.Inf(1)
	}
	clear(s.st.off)
	s.st.q, s.st.best, s.st.bi = q[:t.d], math.Inf(1), math.MaxInt32
	if row >= 0 {
		s.st.best, s.st.bi = dist, int32(row)
	}
	t.nearest(0, 0, &s.st)
	if s.st.bi == math.MaxInt32 {
		return -1, math.Inf(1)
	}
	return int(s.st.bi), s.st.best
}

func (t *Tree) within(v int32, rd float64, st *search) {
	if st.stop || rd*(1-margin) > st.best {
		return
	}
	nd := &t.nodes[v]
	if nd.left >= 0 {
		near, far, gap := nd.children(st.q)
		t.within(near, rd, st)
		old := st.off[nd.dim]
		if gap > old {
			st.off[nd.dim] = gap
			t.within(far, rd-float64(old*old)+float64(gap*gap), st)
			st.off[nd.dim] = old
		} else {
			t.within(far, rd, st)
		}
		return
	}
	if t.bound(v, st.q, st.best) > st.best {
		return
	}
	d, q, r2 := t.d, st.q, st.best
	for p := nd.start; p < nd.end; p++ {
		row := t.pts[int(p)*d : int(p)*d+d : int(p)*d+d]
		var s float64
		for l, x := range row {
			u := x - q[l]
			s += float64(u * u)
			if s > r2 { // the partial sums only grow: the row is outside
				break
			}
		}
		if s <= r2 && st.fn(t.idx[p], s) {
			st.stop = true
			return
		}
	}
}
