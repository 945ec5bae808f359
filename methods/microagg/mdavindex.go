package microagg

import (
	"cmp"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/kdtree"
)

// indexMinRows is the number of records from which MDAV answers two of its three queries per
// step from indexes instead of scans (docs/scaling.md); the partition is the same either way.
const indexMinRows = 8192

// treeMaxDims is the largest number of columns for which the second group's k-NN comes from
// the k-d tree; above it the scan is faster. BenchmarkMDAVIndexed (50,000 normal rows, k = 3):
// pivot list alone vs pivot list and tree, 3 columns 1.37 vs 0.75 s, 10 columns 2.06 vs 2.33 s
// (the k-NN of a point on the edge of a peeled 10-D cloud visits many leaves). A variable so
// that tests can cover both paths.
var treeMaxDims = 6

// mdavIndex answers two MDAV queries without a pass over the active records, with the
// results of the scans bit for bit:
//
//   - the live record farthest from the centroid c (ties: lowest index), from a pivot list:
//     the records sorted by ρ_x = √d²(x, c₀) for a pivot c₀ (an earlier centroid). By the
//     triangle inequality d(x, c) ≤ ρ_x + ‖c − c₀‖, so the walk down the list stops once
//     (ρ_x + ‖c − c₀‖)²·(1 + 1e-9) is below the best squared distance found; the factor
//     covers the rounding of ρ, of ‖c − c₀‖ and of the distance sums (about 1e-14). The
//     pivot moves to the current centroid when a walk examines more than 1/32 of the records;
//   - the k live records nearest to a record (ties: lowest index), from a k-d tree with
//     deletion (internal/kdtree.Dynamic).
//
// Distances are computed as the scan kernels compute them (kdtree.Dist: column order,
// separately rounded products).
type mdavIndex struct {
	z     []float64
	d     int
	dead  []bool // by record
	alive int
	tree  *kdtree.Dynamic
	c0    []float64
	rho   []float64 // by record
	order []int32   // live records at the last pivot, by ρ descending
	stale bool      // re-pivot before the next walk
	buf   []int
	// useTree answers the second group's k-NN from the k-d tree (else the caller scans).
	useTree bool
}

func newMdavIndex(z []float64, n, d int) *mdavIndex {
	x := &mdavIndex{z: z, d: d, dead: make([]bool, n), alive: n, rho: make([]float64, n), stale: true}
	if x.useTree = d <= treeMaxDims; x.useTree {
		x.tree = kdtree.NewDynamic(z, n, d)
	}
	return x
}

func (x *mdavIndex) row(i int) []float64 { return x.z[i*x.d : (i+1)*x.d] }

func (x *mdavIndex) delete(i int) {
	x.dead[i] = true
	x.alive--
	if x.tree != nil {
		x.tree.Delete(i)
	}
}

func (x *mdavIndex) repivot(c []float64) {
	x.c0 = append(x.c0[:0], c...)
	x.order = x.order[:0]
	for i, dead := range x.dead {
		if !dead {
			x.rho[i] = math.Sqrt(kdtree.Dist(x.row(i), c))
			x.order = append(x.order, int32(i))
		}
	}
	slices.SortFunc(x.order, func(a, b int32) int {
		if c := cmp.Compare(x.rho[b], x.rho[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	x.stale = false
}

// farthest returns the live record farthest from c, the lowest index on ties.
func (x *mdavIndex) farthest(c []float64) int {
	if x.stale {
		x.repivot(c)
	}
	delta := math.Sqrt(kdtree.Dist(c, x.c0))
	best, bi := -1.0, -1
	examined := 0
	w := 0 // compacts the dead records out of order as it walks
	t := 0
	for ; t < len(x.order); t++ {
		i := int(x.order[t])
		if x.dead[i] {
			continue
		}
		x.order[w] = x.order[t]
		w++
		if bi >= 0 {
			if b := x.rho[i] + delta; b*b*(1+1e-9) < best {
				t++ // order[t] is already kept
				break
			}
		}
		s := kdtree.Dist(x.row(i), c)
		examined++
		if s > best || (s == best && i < bi) {
			best, bi = s, i
		}
	}
	w += copy(x.order[w:], x.order[t:])
	x.order = x.order[:w]
	if examined > max(64, x.alive/32) {
		x.stale = true
	}
	return bi
}

// nearest returns the k live records nearest to record i in (distance, index) order.
func (x *mdavIndex) nearest(i, k int) []int {
	x.buf = x.tree.KNearest(x.buf[:0], x.row(i), k)
	return x.buf
}
