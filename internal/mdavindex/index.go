package mdavindex

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/radix"
)

// Options tunes when an Index rebuilds its tree and codes its lists. The zero value is the
// default. The answers of the queries do not depend on the options, only their cost.
type Options struct {
	// TreeRebuildMin is the tree size from which the k-d tree is rebuilt over the live
	// records once a quarter of its records are deleted (half with BigGroups): the boxes then
	// fit the peeled cloud again. 0 means 4096.
	TreeRebuildMin int
	// CodedMinRows is the index size (tree records at build, pivot-list rows) from which the
	// coded filters are used; 0 means 65,536. 1 codes every index, math.MaxInt none
	// (tests use both).
	CodedMinRows int
	// BigGroups (for groups of more than 16 records) rebuilds the tree once half of its
	// records are deleted instead of a quarter: with small groups the k-NN searches dominate
	// and tight boxes pay; with large ones the builds do.
	BigGroups bool
}

// treeRebuildMin is the default of Options.TreeRebuildMin, half the table size from which
// MDAV uses the index.
const treeRebuildMin = 4096

// pivotSlack is the relative slack of the triangle-inequality bounds: it covers the rounding
// of the square roots and of the distance sums (about 1e-15 relative).
const pivotSlack = 1e-9

// walkBlock is the number of list rows whose distances (or coded bounds) the farthest walk
// computes at once: one 64-bit candidate mask.
const walkBlock = 64

// Index answers MDAV's queries over a shrinking set of live records without a pass over
// them, with the results of the scans bit for bit (docs/scaling.md):
//
//   - Farthest and FarthestFrom: the live record farthest from a point q (the centroid, or
//     the record r just chosen), ties to the lowest index, from a pivot list: the live
//     records sorted by ρ_x = √d²(x, c₀) for a pivot c₀ (an earlier centroid), their rows
//     copied in that order in the lane layout (below Options.CodedMinRows rows). By the
//     triangle inequality d(x, q) ≤ ρ_x + ‖q − c₀‖, so the walk down the list stops once
//     (ρ_x + ‖q − c₀‖)²·(1 + pivotSlack) is below the best squared distance found. The list
//     is rebuilt around the current centroid when a centroid walk examines more than 1/32 of
//     the live records, or when an eighth of its rows have been deleted. From
//     Options.CodedMinRows rows the list keeps 16-bit codes instead of the rows, and once a
//     best is known a block's rows whose coded upper bound is below it are skipped; the
//     others' distances are computed from z (quant.go);
//   - Nearest: the k live records nearest to a record (ties: lowest index), from a Tree
//     (with 8-bit coded leaves from Options.CodedMinRows records), rebuilt over the live
//     records once a quarter of its records have been deleted (half with
//     Options.BigGroups).
//
// Distances are computed as the scan kernels compute them (column order, separately rounded
// products); the coded bounds only decide which distances are computed. An Index is not
// safe for concurrent use, except for concurrent queries on its Tree, each with its own
// Query, while nothing is deleted.
type Index struct {
	z     []float64
	n, d  int
	dead  []bool // by record
	alive int
	tree  *Tree
	buf   []int
	recs  []int32 // scratch: live records, ascending
	qa    Query
	opt   Options // defaults filled in

	// the pivot list
	c0     []float64
	m      int       // rows in the list, dead ones included
	lrec   []int32   // list position → record
	lrho   []float64 // list position → ρ
	lrows  []float64 // lane layout, padded to a whole lane group; nil while coded
	ldead  []bool    // by list position
	lpos   []int32   // record → list position
	killed int       // list rows deleted since the build
	stale  bool      // rebuild the list before the next centroid walk
	qb     []float64 // the query broadcast for the kernel
	dist   []float64 // scratch of a block's distances
	ordRho []float64 // scratch of the build: ρ by record
	// the list's 16-bit codes (quant.go), by quantGroup row groups, padded to whole walk
	// blocks; the grid of each column (low end, 1/Δ, Δ rounded up); coded is false when a
	// column cannot be coded
	lcodes []uint16
	glo    []float64
	ginv   []float64
	gstep  []float32
	coded  bool
	prm    []float32
	// scratch of the radix sort of the list
	sortBuf, sortScratch []radix.Keyed
	sortKeys, sortKeys2  []uint64
}

// New returns the index of the n records of the row-major n×d table z, all live. z must not
// be modified while the index is in use.
func New(z []float64, n, d int, opt Options) *Index {
	opt.TreeRebuildMin = cmp.Or(opt.TreeRebuildMin, treeRebuildMin)
	opt.CodedMinRows = cmp.Or(opt.CodedMinRows, codedMinRows)
	x := &Index{z: z, n: n, d: d, opt: opt, dead: make([]bool, n), alive: n, stale: true,
		lpos: make([]int32, n), qb: make([]float64, 4*d), dist: make([]float64, max(walkBlock, d)),
		ordRho: make([]float64, n), glo: make([]float64, d), ginv: make([]float64, d),
		gstep: make([]float32, d), prm: make([]float32, 3*d)}
	for i := range x.lpos {
		x.lpos[i] = -1 // no list yet
	}
	x.rebuildTree()
	return x
}

func (x *Index) row(i int) []float64 { return x.z[i*x.d : (i+1)*x.d] }

// liveRecords returns the live records in ascending order (in a reused buffer).
func (x *Index) liveRecords() []int32 {
	x.recs = x.recs[:0]
	for i, dead := range x.dead {
		if !dead {
			x.recs = append(x.recs, int32(i))
		}
	}
	return x.recs
}

func (x *Index) rebuildTree() {
	x.tree = buildTree(x.tree, x.z, x.d, x.liveRecords(), x.n, x.opt.CodedMinRows)
}

// Alive returns the number of live records.
func (x *Index) Alive() int { return x.alive }

// Tree returns the index's k-d tree of the live records, for the queries of Tree. It is
// replaced when the index rebuilds it (after Delete), so it must be fetched again after a
// Delete.
func (x *Index) Tree() *Tree { return x.tree }

// Delete removes the live record i.
func (x *Index) Delete(i int) {
	x.dead[i] = true
	x.alive--
	// flagged in the list even when it is stale: FarthestFrom walks a stale list
	if p := x.lpos[i]; p >= 0 {
		x.ldead[p] = true
		x.killed++
		if 8*x.killed > x.m {
			x.stale = true
		}
	}
	x.tree.Delete(i)
	frac := 3
	if x.opt.BigGroups {
		frac = 2
	}
	if x.tree.built >= x.opt.TreeRebuildMin && 4*x.tree.live <= frac*x.tree.built {
		x.rebuildTree()
	}
}

// repivot rebuilds the pivot list around c.
func (x *Index) repivot(c []float64) {
	d := x.d
	x.c0 = append(x.c0[:0], c...)
	recs := x.liveRecords()
	kb := x.sortBuf[:0]
	lo, hi := x.glo, x.dist[:d] // the columns' ranges, for the codes; x.dist is scratch here
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range recs {
		row := x.row(int(i))
		kb = append(kb, radix.Keyed{V: math.Sqrt(distance.Sq(row, c)), I: i})
		for j, v := range row {
			lo[j], hi[j] = min(lo[j], v), max(hi[j], v)
		}
	}
	x.sortBuf = kb
	if n := len(kb); cap(x.sortScratch) < n {
		x.sortScratch = make([]radix.Keyed, n)
		x.sortKeys, x.sortKeys2 = make([]uint64, n), make([]uint64, n)
	}
	radix.Sort(kb, true, x.sortScratch, x.sortKeys, x.sortKeys2) // ρ descending, record ascending
	rho := x.ordRho
	for t, e := range kb {
		recs[t] = e.I
		rho[e.I] = e.V
	}
	x.m = len(recs)
	m4 := (x.m + 3) &^ 3
	if cap(x.lrec) < m4 {
		x.lrec = make([]int32, m4)
		x.lrho = make([]float64, m4)
		x.ldead = make([]bool, m4)
	}
	x.lrec, x.lrho, x.ldead = x.lrec[:m4], x.lrho[:m4], x.ldead[:m4]
	for i := range x.lpos {
		x.lpos[i] = -1
	}
	for t := 0; t < m4; t++ {
		if t >= x.m {
			x.lrec[t], x.lrho[t], x.ldead[t] = -1, 0, true
			continue
		}
		i := recs[t]
		x.lrec[t], x.lrho[t], x.ldead[t] = i, rho[i], false
		x.lpos[i] = int32(t)
	}
	x.killed = 0
	x.stale = false
	if x.code(hi) {
		x.lrows = nil // a coded walk reads the candidates' rows from z
		return
	}
	// the lane copy of the rows, for the uncoded walk
	if cap(x.lrows) < m4*d {
		x.lrows = make([]float64, m4*d)
	}
	x.lrows = x.lrows[:m4*d]
	for t := 0; t < m4; t++ {
		for j := 0; j < d; j++ {
			v := 0.0
			if t < x.m {
				v = x.z[int(x.lrec[t])*d+j]
			}
			x.lrows[LaneOffset(t, j, d)] = v
		}
	}
}

// code writes the 16-bit codes of the list's rows on a grid per column over the list (from
// x.glo to hi), when it has at least Options.CodedMinRows rows and every column can be coded; it
// reports whether it did.
func (x *Index) code(hi []float64) bool {
	d := x.d
	x.coded = x.m >= x.opt.CodedMinRows
	if !x.coded {
		return false
	}
	for j := 0; j < d; j++ {
		var ok bool
		x.ginv[j], x.gstep[j], ok = quantStep16(x.glo[j], hi[j])
		x.coded = x.coded && ok
	}
	if !x.coded {
		return false
	}
	mb := (x.m + walkBlock - 1) / walkBlock * walkBlock
	x.lcodes = slices.Grow(x.lcodes[:0], mb*d)[:mb*d]
	clear(x.lcodes[x.m/quantGroup*quantGroup*d:])
	// records in ascending order, so that z is read forward
	for i, dead := range x.dead {
		if dead {
			continue
		}
		t := int(x.lpos[i])
		g, u := t/quantGroup, t%quantGroup
		for j, v := range x.row(i) {
			x.lcodes[(g*d+j)*quantGroup+u] = quantCode16(v, x.glo[j], x.ginv[j])
		}
	}
	return true
}

// Farthest returns the live record farthest from the centroid c, the lowest index on ties.
// A walk that examines more than 1/32 of the live records moves the pivot to c before the
// next one.
func (x *Index) Farthest(c []float64) int {
	if x.stale {
		x.repivot(c)
	}
	bi, examined := x.walk(c)
	if examined > max(64, x.alive/32) {
		x.stale = true
	}
	return bi
}

// FarthestFrom returns the live record farthest from q, the lowest index on ties, from the
// pivot list the last Farthest left (MDAV's record farthest from the one just chosen). It
// must follow a Farthest.
func (x *Index) FarthestFrom(q []float64) int {
	bi, _ := x.walk(q)
	return bi
}

// walk returns the live record farthest from q (lowest index on ties) and the number
// of list rows it walked. It walks the pivot list down from the largest ρ, walkBlock rows at a
// time, and stops at the triangle-inequality bound; the list must be current (not stale).
// On a coded list, once a best is known, a block keeps only the rows whose coded upper bound
// is not below it (quant.go), and their exact distances are computed from z.
func (x *Index) walk(q []float64) (int, int) {
	delta := math.Sqrt(distance.Sq(q, x.c0))
	filter := false
	if x.coded {
		filter = quantUpperParams(x.prm, q, x.glo, x.ginv, x.gstep)
	} else {
		BroadcastQuery(x.qb, q)
	}
	best, bi := -1.0, int32(-1)
	t := 0
	for ; t < x.m; t += walkBlock {
		if bi >= 0 {
			if b := x.lrho[t] + delta; b*b*(1+pivotSlack) < best {
				break
			}
		}
		hi := min(t+walkBlock, x.m)
		if x.coded {
			best, bi = x.codedBlock(q, t, hi, filter, best, bi)
		} else {
			best, bi = x.laneBlock(t, hi, best, bi)
		}
	}
	return int(bi), min(t, x.m)
}

// laneBlock updates the farthest (best, bi) with list rows [t, hi) of an uncoded list, their
// distances to the query in x.qb computed by the SIMD kernel.
func (x *Index) laneBlock(t, hi int, best float64, bi int32) (float64, int32) {
	d := x.d
	groups := (hi - t + 3) / 4
	DistLanes(x.dist[:4*groups], x.lrows[t*d:(t+4*groups)*d], x.qb, d, groups)
	for u, s := range x.dist[:hi-t] {
		if s < best || x.ldead[t+u] {
			continue
		}
		if i := x.lrec[t+u]; s > best || i < bi {
			best, bi = s, i
		}
	}
	return best, bi
}

// codedBlock updates the farthest (best, bi) with list rows [t, hi) of a coded list: with
// filter and a best known, only the rows whose coded upper bound (parameters in x.prm) is not
// below it get their exact distance to q, from z.
func (x *Index) codedBlock(q []float64, t, hi int, filter bool, best float64, bi int32) (float64, int32) {
	d := x.d
	mask := uint64(1)<<(hi-t) - 1 // all ones for a whole block
	if filter && bi >= 0 {
		if tq, ok := quantUpperThreshold(best); ok {
			mask &= quantUpperMask(x.lcodes[t*d:(t+walkBlock)*d], x.prm, d, walkBlock/quantGroup, tq)
		}
	}
	for mask != 0 {
		p := t + bits.TrailingZeros64(mask)
		mask &= mask - 1
		if x.ldead[p] {
			continue
		}
		i := x.lrec[p]
		if s := distance.Sq(x.row(int(i)), q); s > best || (s == best && i < bi) {
			best, bi = s, i
		}
	}
	return best, bi
}

// Nearest returns the k live records nearest to record i in (distance, index) order, in a
// buffer that the next call reuses.
func (x *Index) Nearest(i, k int) []int {
	x.buf = x.tree.Nearest(&x.qa, x.buf[:0], x.row(i), k)
	return x.buf
}

// knnHeap keeps the k smallest (distance, index) pairs as a max-heap.
type knnHeap struct {
	k int
	d []float64
	i []int
}

func (h *knnHeap) reset(k int) { h.k, h.d, h.i = k, h.d[:0], h.i[:0] }

func (h *knnHeap) larger(a, b int) bool {
	return h.d[a] > h.d[b] || (h.d[a] == h.d[b] && h.i[a] > h.i[b])
}

func (h *knnHeap) swap(a, b int) {
	h.d[a], h.d[b] = h.d[b], h.d[a]
	h.i[a], h.i[b] = h.i[b], h.i[a]
}

func (h *knnHeap) push(dist float64, idx int) {
	if len(h.d) < h.k {
		h.d, h.i = append(h.d, dist), append(h.i, idx)
		for c := len(h.d) - 1; c > 0; {
			p := (c - 1) / 2
			if !h.larger(c, p) {
				break
			}
			h.swap(c, p)
			c = p
		}
		return
	}
	if dist > h.d[0] || (dist == h.d[0] && idx > h.i[0]) {
		return
	}
	h.d[0], h.i[0] = dist, idx
	h.down(0, len(h.d))
}

// down restores the heap order of h's first n entries below entry c.
func (h *knnHeap) down(c, n int) {
	for {
		l := 2*c + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.larger(r, l) {
			m = r
		}
		if !h.larger(m, c) {
			return
		}
		h.swap(m, c)
		c = m
	}
}

// sorted appends the kept indexes to dst in (distance, index) order; it empties the heap.
func (h *knnHeap) sorted(dst []int) []int {
	n := len(dst)
	for len(h.d) > 0 {
		last := len(h.d) - 1
		dst = append(dst, h.i[0])
		h.swap(0, last)
		h.d, h.i = h.d[:last], h.i[:last]
		h.down(0, last)
	}
	slices.Reverse(dst[n:])
	return dst
}
