package mdavindex

import (
	"math"
	"math/bits"
	"slices"

	"github.com/sdcbench/sdcbench/internal/radix"
)

// laneLeaf is the largest number of records in a leaf of a Tree.
const laneLeaf = 64

// Tree is the k-d tree of MDAV's k-nearest queries at scale (docs/scaling.md): the
// records live when it was built, split at the median of the widest column, with each leaf's
// rows stored in the lane layout (LaneOffset) so that a leaf is scanned by the SIMD distance
// kernel. Deleted records are flagged and counted out of their nodes. A subtree is skipped
// when it has no live record, when its incremental cell bound (the squared gaps to the
// splitting planes crossed, with a relative margin of cellMargin) is above the k-th best
// distance, or, for a leaf, when the lower bound of its tight box (the column-order sum of the
// squared gaps, which rounding cannot push above the rounded distance of a point in the box)
// is strictly above it; so the answer is the scan's, ties included. A tree of at least
// codedMinRows records (Options.CodedMinRows in an Index) also codes its leaves in 8 bits
// (quant.go): once k candidates are kept, a leaf's rows whose coded lower bound exceeds the
// k-th best are not computed. The search prefetches the children's boxes before it descends
// (docs/scaling.md): it waits for memory more than it computes.
type Tree struct {
	d     int
	rows  []float64 // lane layout; each leaf starts on a quantGroup boundary, padding rows are dead
	rec   []int32   // tree position → record, −1 for padding
	dead  []bool    // by tree position
	pos   []int32   // record → tree position (records in the tree)
	nodes []laneNode
	// per node, from laneNode.off, one run of words, so that a leaf visit reads one place:
	// the box (lo, hi: d float64 bits each); for a leaf, its grid's 1/Δ and Δ rounded down to
	// float32 (d float64 bits each), then its rows' 8-bit codes (quant.go), 8 per word
	slab     []uint64
	lo, hi   []float64 // scratch of the build
	inv      []float64
	cnt      []int32 // live records per node
	parent   []int32
	leafOf   []int32 // tree position → leaf node
	built    int     // records at build time
	live     int
	maxLeaf  int           // the most rows of a leaf, padding included
	codedMin int           // the tree size from which leaves are coded
	sel      []radix.Keyed // scratch of the median selections
	idx      []int32       // scratch of the build
}

// Query is the scratch state of one query on a Tree; the zero value is ready to use. Queries
// with their own Query may run concurrently on a tree that is not being modified.
type Query struct {
	heap knnHeap
	dist []float64 // scratch of a leaf's distances
	qb   []float64
	q    []float64
	off  []float64 // per column, the gap to the nearest splitting plane crossed so far
	prm  []float32 // the 8-bit filter's parameters for the current leaf (quant.go)
}

type laneNode struct {
	start, end  int32   // tree positions [start, end), start a multiple of 4
	left, right int32   // children, −1 for a leaf
	dim         int32   // splitting column
	off         int32   // the node's run in Tree.slab
	roff        int32   // the right child's run in Tree.slab (the left one's is off + 2d)
	val         float64 // left records have x_dim ≤ val, right ones x_dim ≥ val
	coded       bool    // a leaf whose codes may be used
}

// NewTree returns the tree of all n records of the row-major n×d table z, all live, its
// leaves coded from codedMinRows records. z must not be modified while the tree is in use.
func NewTree(z []float64, n, d int) *Tree {
	recs := make([]int32, n)
	for i := range recs {
		recs[i] = int32(i)
	}
	return buildTree(nil, z, d, recs, n, codedMinRows)
}

// buildTree builds the tree of the records recs (ascending) of the n×d table z (nrec
// records in all), coding its leaves when it holds at least codedMin records, reusing the buffers of old (which it overwrites) when old is not nil and
// was built with at least as many records: a rebuild then allocates nothing.
func buildTree(old *Tree, z []float64, d int, recs []int32, nrec, codedMin int) *Tree {
	// tree positions: each leaf padded to a multiple of quantGroup rows; at most 7 padding
	// rows per leaf
	capRows := len(recs) + (quantGroup-1)*(2*len(recs)/laneLeaf+2)
	t := old
	if t == nil || t.d != d || len(t.pos) != nrec || cap(t.rec) < capRows {
		t = &Tree{d: d, pos: make([]int32, nrec), rows: make([]float64, 0, capRows*d),
			rec: make([]int32, 0, capRows)}
	}
	*t = Tree{d: d, built: len(recs), live: len(recs), pos: t.pos, codedMin: codedMin,
		rows: t.rows[:0], rec: t.rec[:0], dead: t.dead[:0], leafOf: t.leafOf[:0],
		slab: t.slab[:0], lo: t.lo, hi: t.hi, inv: t.inv,
		nodes: t.nodes[:0], cnt: t.cnt[:0], parent: t.parent[:0],
		sel: t.sel[:0], idx: append(t.idx[:0], recs...)}
	idx := t.idx
	if len(idx) > 0 {
		t.build(z, idx, -1)
	}
	t.dead = slices.Grow(t.dead, len(t.rec))[:len(t.rec)]
	clear(t.dead)
	t.leafOf = slices.Grow(t.leafOf, len(t.rec))[:len(t.rec)]
	for v, nd := range t.nodes {
		if nd.left >= 0 {
			continue
		}
		for p := nd.start; p < nd.end; p++ {
			t.leafOf[p] = int32(v)
			if t.rec[p] < 0 {
				t.dead[p] = true
			} else {
				t.pos[t.rec[p]] = p
			}
		}
	}
	return t
}

// build adds the node of the records idx (reordered in place) and its subtree.
func (t *Tree) build(z []float64, idx []int32, parent int32) int32 {
	d := t.d
	id := int32(len(t.nodes))
	off := len(t.slab)
	t.nodes = append(t.nodes, laneNode{left: -1, right: -1, off: int32(off)})
	t.cnt = append(t.cnt, int32(len(idx)))
	t.parent = append(t.parent, parent)
	if len(t.lo) != d {
		t.lo, t.hi = make([]float64, d), make([]float64, d)
	}
	lo, hi := t.lo, t.hi
	for l := 0; l < d; l++ {
		lo[l], hi[l] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range idx {
		for l, v := range z[int(i)*d : int(i)*d+d] {
			lo[l] = min(lo[l], v)
			hi[l] = max(hi[l], v)
		}
	}
	for l := 0; l < d; l++ {
		t.slab = append(t.slab, math.Float64bits(lo[l]))
	}
	for l := 0; l < d; l++ {
		t.slab = append(t.slab, math.Float64bits(hi[l]))
	}
	split, spread := 0, -1.0
	for l := 0; l < d; l++ {
		if w := hi[l] - lo[l]; w > spread {
			split, spread = l, w
		}
	}
	if len(idx) <= laneLeaf || !(spread > 0) {
		start := int32(len(t.rec))
		// a leaf with all rows equal may exceed laneLeaf; the scratch grows with it
		groups := (len(idx) + quantGroup - 1) / quantGroup * (quantGroup / 4) // lane groups
		for g := 0; g < groups; g++ {
			for j := 0; j < d; j++ {
				for u := 0; u < 4; u++ {
					v := 0.0
					if r := 4*g + u; r < len(idx) {
						v = z[int(idx[r])*d+j]
					}
					t.rows = append(t.rows, v)
				}
			}
		}
		for u := 0; u < 4*groups; u++ {
			r := int32(-1)
			if u < len(idx) {
				r = idx[u]
			}
			t.rec = append(t.rec, r)
		}
		t.maxLeaf = max(t.maxLeaf, 4*groups)
		t.nodes[id].start, t.nodes[id].end = start, int32(len(t.rec))
		t.quantize(z, idx, id, lo, hi)
		return id
	}
	m := len(idx) / 2
	kb := t.sel[:0]
	for _, i := range idx {
		kb = append(kb, radix.Keyed{V: z[int(i)*d+split], I: i})
	}
	t.sel = kb
	radix.Select(kb, m)
	for u, e := range kb {
		idx[u] = e.I
	}
	val := kb[m].V
	l := t.build(z, idx[:m], id)
	r := t.build(z, idx[m:], id)
	t.nodes[id].left, t.nodes[id].right = l, r
	t.nodes[id].roff = t.nodes[r].off
	t.nodes[id].dim, t.nodes[id].val = int32(split), val
	return id
}

// quantize appends the grid and the 8-bit codes of leaf id, whose records idx span the box
// [lo, hi], to the slab when the tree has at least t.codedMin records, the leaf at most 64
// rows and every column's cell width can be coded (quant.go).
func (t *Tree) quantize(z []float64, idx []int32, id int32, lo, hi []float64) {
	d := t.d
	nd := &t.nodes[id]
	if len(idx) > 64 || t.built < t.codedMin {
		return
	}
	o := len(t.slab)
	words := int(nd.end-nd.start) / quantGroup * d
	t.slab = slices.Grow(t.slab, 2*d+words)[:o+2*d+words]
	clear(t.slab[o:])
	if len(t.inv) != d {
		t.inv = make([]float64, d)
	}
	inv := t.inv
	for l := range lo {
		iv, s32, ok := quantStep(lo[l], hi[l])
		if !ok {
			t.slab = t.slab[:o]
			return
		}
		inv[l] = iv
		t.slab[o+l], t.slab[o+d+l] = math.Float64bits(iv), math.Float64bits(float64(s32))
	}
	quantCodes(t.slab[o+2*d:], z, idx, d, lo, inv)
	nd.coded = true
}

// Built returns the number of records the tree was built with, Live the number still live.
func (t *Tree) Built() int { return t.built }

// Live returns the number of live records.
func (t *Tree) Live() int { return t.live }

// Compact returns the tree of the live records of t over the same table z, built as NewTree
// would build it for those records and reusing t's buffers: t must not be used afterwards.
// Queries answer as before (the trees are exact); they no longer visit deleted records.
func (t *Tree) Compact(z []float64) *Tree {
	recs := make([]int32, 0, t.live)
	for p, r := range t.rec {
		if r >= 0 && !t.dead[p] {
			recs = append(recs, r)
		}
	}
	slices.Sort(recs)
	return buildTree(t, z, t.d, recs, len(t.pos), t.codedMin)
}

// Delete removes record i, if live.
func (t *Tree) Delete(i int) {
	p := t.pos[i]
	if t.dead[p] {
		return
	}
	t.dead[p] = true
	t.live--
	for v := t.leafOf[p]; v >= 0; v = t.parent[v] {
		t.cnt[v]--
	}
}

// bound is the lower bound of node v's box for the query q, or a partial sum of it once that
// exceeds limit (the terms are non-negative, so the bound does too).
func (t *Tree) bound(v int32, q []float64, limit float64) float64 {
	d := t.d
	o := int(t.nodes[v].off)
	lo, hi := t.slab[o:o+d], t.slab[o+d:o+2*d]
	var s float64
	lo, hi = lo[:len(q)], hi[:len(q)]
	for l, x := range q {
		// the gap below, above, or 0 inside
		g := max(math.Float64frombits(lo[l])-x, x-math.Float64frombits(hi[l]), 0)
		s += float64(g * g)
		if s > limit {
			return s
		}
	}
	return s
}

// worst is the k-th best distance so far, +Inf while fewer than k are kept.
func (h *knnHeap) worst() float64 {
	if len(h.d) < h.k {
		return math.Inf(1)
	}
	return h.d[0]
}

// Nearest appends to dst the k live records nearest to q in (distance, record) order, using
// the query state qs.
func (t *Tree) Nearest(qs *Query, dst []int, q []float64, k int) []int {
	qs.heap.reset(k)
	qs.q = q[:t.d]
	if len(qs.qb) != 4*t.d {
		qs.qb = make([]float64, 4*t.d)
	}
	if len(qs.dist) < t.maxLeaf {
		qs.dist = make([]float64, t.maxLeaf)
	}
	if len(qs.off) != t.d {
		qs.off = make([]float64, t.d)
		qs.prm = make([]float32, 3*t.d)
	}
	clear(qs.off)
	BroadcastQuery(qs.qb, q)
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.knn(qs, 0, 0)
	}
	return qs.heap.sorted(dst)
}

// leafDists computes, with the SIMD kernel, the squared distances of the query to the rows
// of leaf nd; it returns them with the rows' dead flags and the leaf's first tree position.
func (t *Tree) leafDists(qs *Query, nd *laneNode) (dist []float64, dead []bool, lo int) {
	d := t.d
	lo, hi := int(nd.start), int(nd.end)
	groups := (hi - lo) / 4
	DistLanes(qs.dist[:4*groups], t.rows[lo*d:hi*d], qs.qb, d, groups)
	return qs.dist[:hi-lo], t.dead[lo:hi], lo
}

// knnCoded scans leaf v through its 8-bit codes: only the rows whose coded lower bound does
// not exceed the threshold tq (of the k-th best distance) get their exact distance. It
// returns false, having scanned nothing, when more than a quarter of the rows are
// candidates.
func (t *Tree) knnCoded(qs *Query, v int32, tq float32) bool {
	d := t.d
	nd := &t.nodes[v]
	lo, hi := int(nd.start), int(nd.end)
	o := int(nd.off)
	b := t.slab[o : o+4*d+(hi-lo)/quantGroup*d]
	prefetchRange(&b[3*d], (hi-lo)/quantGroup*d*8+d*8) // the steps and codes, read next
	quantParams(qs.prm, qs.q, b[:d], b[2*d:3*d], b[3*d:4*d])
	mask := quantMask(b[4*d:], qs.prm, d, (hi-lo)/quantGroup, tq)
	if bits.OnesCount64(mask) > (hi-lo)/4 {
		// many candidates (large k): the SIMD kernel over the whole leaf is cheaper than
		// one exact distance at a time
		return false
	}
	h := &qs.heap
	for mask != 0 {
		p := lo + bits.TrailingZeros64(mask)
		mask &= mask - 1
		if t.dead[p] {
			continue
		}
		if s := t.rowDist(p, qs.q); s <= h.d[0] {
			h.push(s, int(t.rec[p]))
		}
	}
	return true
}

// rowDist is the squared distance of tree row p to q, rounded as the kernels round it.
func (t *Tree) rowDist(p int, q []float64) float64 {
	d := t.d
	r := t.rows[(p>>2)*4*d+p&3:]
	var s float64
	for j, x := range q[:d] {
		u := r[4*j] - x
		s += float64(u * u)
	}
	return s
}

// cellMargin is the relative slack of the incremental cell bound of Arya and Mount (the
// squared gaps to the splitting planes crossed, one term replaced per level): its rounding is
// a few ulps per level, as the gaps only grow down the tree.
const cellMargin = 1e-10

// knn visits node v, whose cell is at squared distance at least rd from the query: the child
// on the query's side of the split first, the other only if its cell bound does not exceed
// the k-th best; a leaf is scanned only if its tight box bound does not exceed it either.
func (t *Tree) knn(qs *Query, v int32, rd float64) {
	nd := &t.nodes[v]
	h := &qs.heap
	if nd.left < 0 {
		if len(h.d) == h.k && t.bound(v, qs.q, h.d[0]) > h.d[0] {
			return
		}
		if len(h.d) == h.k && nd.coded {
			if tq, ok := quantThreshold(h.d[0]); ok && t.knnCoded(qs, v, tq) {
				return
			}
		}
		dist, dead, lo := t.leafDists(qs, nd)
		w := h.worst()
		for u, s := range dist {
			if s <= w && !dead[u] {
				h.push(s, int(t.rec[lo+u]))
				w = h.worst()
			}
		}
		return
	}
	near, far := nd.left, nd.right
	diff := qs.q[nd.dim] - nd.val
	if diff >= 0 {
		near, far = far, near
	}
	// the children's boxes are read next (the far one's after the near subtree, if its cell
	// bound lets it): load them into the caches now, so that their misses overlap
	prefetchChildren(&t.slab[int(nd.off)+2*t.d], &t.slab[nd.roff], &t.nodes[nd.right], &t.cnt[nd.right])
	if t.cnt[near] > 0 {
		t.knn(qs, near, rd)
	}
	if t.cnt[far] == 0 {
		return
	}
	gap := math.Abs(diff)
	old := qs.off[nd.dim]
	rf := rd
	if gap > old {
		rf = rd - float64(old*old) + float64(gap*gap)
	}
	if len(h.d) == h.k && rf*(1-cellMargin) > h.d[0] {
		return
	}
	qs.off[nd.dim] = max(gap, old)
	t.knn(qs, far, rf)
	qs.off[nd.dim] = old
}

// prepare sets up qs for a query at q on t (the set-up of Tree.nearest).
func (t *Tree) prepare(qs *Query, q []float64) {
	qs.q = q[:t.d]
	if len(qs.qb) != 4*t.d {
		qs.qb = make([]float64, 4*t.d)
	}
	if len(qs.dist) < t.maxLeaf {
		qs.dist = make([]float64, t.maxLeaf)
	}
	BroadcastQuery(qs.qb, q)
}

// LowestWithin returns the lowest-index live record whose squared distance to q is at most
// r2, or −1 if there is none. A subtree is skipped when its box bound, which never exceeds the
// rounded distance of a point inside the box, is strictly above r2; so the answer is that of
// a scan over the live records.
func (t *Tree) LowestWithin(qs *Query, q []float64, r2 float64) int {
	t.prepare(qs, q)
	best := -1
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.within(qs, 0, r2, &best)
	}
	return best
}

func (t *Tree) within(qs *Query, v int32, r2 float64, best *int) {
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

// NearestBelow returns a live record nearest to q among those whose squared distance to q is
// below the bound below, and that distance; or (−1, below) if there is none, which proves that
// every live record is at least below away. A subtree is skipped when its box bound is not
// below the best distance found.
func (t *Tree) NearestBelow(qs *Query, q []float64, below float64) (int, float64) {
	t.prepare(qs, q)
	best, bi := below, -1
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.below(qs, 0, &best, &bi)
	}
	return bi, best
}

func (t *Tree) below(qs *Query, v int32, best *float64, bi *int) {
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
