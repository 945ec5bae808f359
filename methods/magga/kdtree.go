package magga

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// leafSize is the largest number of records in a k-d tree leaf.
const leafSize = 8

// kdTree is a static exact nearest-neighbour index over the rows of Z (docs/magga.md
// §2.1 "Static index"). It is built once per run and only read afterwards, so it is shared by
// every evaluation worker. Its one query, linked, keeps the lowest-index tie rule of
// metrics.md §3.1: nodes are pruned only when their lower bound is strictly greater than the
// current bound, and distances are computed in column order with the same code as sqDist, so
// equal distances are bit-identical whatever the path.
type kdTree struct {
	d     int
	pts   []float64 // the rows of Z in tree order, row-major
	idx   []int32   // original record index of each row of pts
	nodes []kdNode
	box   []float64 // per node: d lower then d upper bounds of its rows
}

type kdNode struct {
	lo, hi      int32 // rows pts[lo:hi]
	left, right int32 // child nodes, -1 for a leaf
}

// newKDTree builds the tree over the n×d row-major table z (not modified) by splitting each
// node at the median of its widest coordinate. Cost O(n·log²n·d) time, O(n·d) memory.
func newKDTree(z []float64, n, d int) *kdTree {
	t := &kdTree{d: d, idx: make([]int32, n)}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	t.build(z, 0, n)
	t.pts = make([]float64, n*d)
	for r, i := range t.idx {
		copy(t.pts[r*d:(r+1)*d], z[int(i)*d:(int(i)+1)*d])
	}
	return t
}

// build adds the node over idx[lo:hi] and returns its number.
func (t *kdTree) build(z []float64, lo, hi int) int32 {
	d := t.d
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, kdNode{lo: int32(lo), hi: int32(hi), left: -1, right: -1})
	b := len(t.box)
	t.box = append(t.box, make([]float64, 2*d)...)
	for l := 0; l < d; l++ {
		t.box[b+l], t.box[b+d+l] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range t.idx[lo:hi] {
		for l, v := range z[int(i)*d : (int(i)+1)*d] {
			t.box[b+l] = min(t.box[b+l], v)
			t.box[b+d+l] = max(t.box[b+d+l], v)
		}
	}
	if hi-lo <= leafSize {
		return id
	}
	split, width := 0, -1.0
	for l := 0; l < d; l++ {
		if w := t.box[b+d+l] - t.box[b+l]; w > width {
			split, width = l, w
		}
	}
	if width <= 0 { // all rows identical
		return id
	}
	seg := t.idx[lo:hi]
	slices.SortFunc(seg, func(a, c int32) int {
		va, vc := z[int(a)*d+split], z[int(c)*d+split]
		switch {
		case va < vc:
			return -1
		case va > vc:
			return 1
		}
		return int(a - c)
	})
	mid := (lo + hi) / 2
	left := t.build(z, lo, mid)
	right := t.build(z, mid, hi)
	t.nodes[id].left, t.nodes[id].right = left, right
	return id
}

// lowerBound returns Σ_l gap_l², the squared distance from q to node's box, a lower bound of
// the squared distance from q to every row of the node (computed rounding-monotonically).
func (t *kdTree) lowerBound(node int32, q []float64) float64 {
	d := t.d
	box := t.box[int(node)*2*d : (int(node)+1)*2*d]
	var s float64
	for l, v := range q[:d] {
		if lo := box[l]; v < lo {
			g := lo - v
			s += float64(g * g)
		} else if hi := box[d+l]; v > hi {
			g := v - hi
			s += float64(g * g)
		}
	}
	return s
}

// linked reports whether the nearest row to q (ties: lowest index) has label g, given b, the
// squared distance from q to the nearest member of group g, and jb, the lowest index of a
// member at that distance. It searches for a row i with labels[i] ≠ g and ‖q − z_i‖² < b, or
// = b with i < jb (docs/magga.md, pruned exact test), and stops at the first one.
func (t *kdTree) linked(q []float64, b float64, jb int32, g int32, labels []int32) bool {
	return !t.beats(0, q, b, jb, g, labels)
}

func (t *kdTree) beats(node int32, q []float64, b float64, jb, g int32, labels []int32) bool {
	nd := &t.nodes[node]
	if nd.left < 0 {
		d := t.d
		q = q[:d]
		for r := nd.lo; r < nd.hi; r++ {
			i := t.idx[r]
			if labels[i] == g {
				continue
			}
			row := t.pts[int(r)*d : (int(r)+1)*d : (int(r)+1)*d]
			var s float64
			for l, v := range q {
				u := row[l] - v
				s += float64(u * u)
				if s > b {
					break
				}
			}
			if s < b || (s == b && i < jb) {
				return true
			}
		}
		return false
	}
	a, c := nd.left, nd.right
	la, lc := t.lowerBound(a, q), t.lowerBound(c, q)
	if lc < la {
		a, c, la, lc = c, a, lc, la
	}
	if la <= b && t.beats(a, q, b, jb, g, labels) {
		return true
	}
	return lc <= b && t.beats(c, q, b, jb, g, labels)
}

// nnLists holds, for every record, its K nearest other records in ascending (distance,
// index) order with their true Euclidean distances: the candidate lists of the
// triangle-inequality test of linkedNear.
type nnLists struct {
	K    int
	idx  []int32   // n×K
	dist []float64 // n×K, ‖z_i − z_idx‖
}

// newNNLists computes the K nearest neighbours of every row of the n×d table z by a full
// scan per row, in parallel over rows with one result slot per row. Cost O(n²·d) once per run.
func newNNLists(z []float64, n, d, K, workers int) *nnLists {
	K = min(K, n-1)
	nl := &nnLists{K: K, idx: make([]int32, n*K), dist: make([]float64, n*K)}
	if K <= 0 {
		return nl
	}
	cands := make([][]candidate, parallel.Workers(workers))
	parallel.Each(n, workers, func(w, i int) {
		if cands[w] == nil {
			cands[w] = make([]candidate, 0, n)
		}
		cand := cands[w][:0]
		zi := z[i*d : (i+1)*d]
		for j := range n {
			if j != i {
				cand = append(cand, candidate{dist: distance.Sq(zi, z[j*d:(j+1)*d]), i: int32(j)})
			}
		}
		selectSmallest(cand, K)
		for t, c := range cand[:K] {
			nl.idx[i*K+t] = c.i
			nl.dist[i*K+t] = math.Sqrt(c.dist)
		}
	})
	return nl
}

// selectSmallest moves the K smallest candidates by (dist, index) to the front, sorted:
// quickselect on the strict total order, then a sort of the first K. Expected O(len(c) +
// K·log K).
func selectSmallest(c []candidate, K int) {
	lo, hi := 0, len(c)-1
	for lo < hi {
		p := c[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for candLess(c[i], p) {
				i++
			}
			for candLess(p, c[j]) {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		switch {
		case K-1 <= j:
			hi = j
		case K-1 >= i:
			lo = i
		default:
			lo = hi
		}
	}
	slices.SortFunc(c[:K], func(a, b candidate) int {
		if candLess(a, b) {
			return -1
		}
		if candLess(b, a) {
			return 1
		}
		return 0
	})
}

func candLess(a, b candidate) bool { return a.dist < b.dist || (a.dist == b.dist && a.i < b.i) }

// linkedNear answers the same question as kdTree.linked from the neighbour list of jb: every
// record i with ‖q − z_i‖² ≤ b lies within 2√b of z_jb (triangle inequality), so if jb's list
// reaches beyond that radius (with a 1e-9 relative margin for rounding) it holds every
// candidate. It reports decided = false when the list is too short to decide.
func (nl *nnLists) linkedNear(z []float64, d int, q []float64, b float64, jb, g int32, labels []int32) (linked, decided bool) {
	K := nl.K
	r := 2 * math.Sqrt(b) * (1 + 1e-9)
	idx, dist := nl.idx[int(jb)*K:(int(jb)+1)*K], nl.dist[int(jb)*K:(int(jb)+1)*K]
	q = q[:d]
	for t, i := range idx {
		if dist[t] > r {
			return true, true
		}
		if labels[i] == g {
			continue
		}
		row := z[int(i)*d : (int(i)+1)*d : (int(i)+1)*d]
		var s float64
		for l, v := range q {
			u := row[l] - v
			s += float64(u * u)
			if s > b {
				break
			}
		}
		if s < b || (s == b && i < jb) {
			return false, true
		}
	}
	return true, K == len(labels)-1
}
