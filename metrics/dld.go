package metrics

import (
	"cmp"
	"math"
	"runtime"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/kdtree"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

func init() {
	Register(Func(Info{ID: "dld", Unit: "%", Better: Lower,
		Description: "% of released records whose nearest original (z-space) is their own source (MAGGA study DLD; metrics.md §3.1)"},
		DLD))
}

// DLD returns dld = 100·#{j : argmin_i ‖z'_j − z_i‖² = j}/n (metrics.md §3.1), ties to the
// smallest i, by the exact group form: released rows are grouped by bit pattern (or by
// Input.Labels when the release carries a partition) and a group scores one hit if the
// nearest original of its row is one of its members. That is decided without finding the
// nearest original (docs/scaling.md): with (r, m*) the smallest (distance, index) over the
// members, the group is a hit iff no original has a smaller (distance, index) than (r, m*), a
// radius-r query of the exact k-d tree that stops at the first such original. Groups are
// taken in the tree order of their first member, so that consecutive queries share cached
// nodes, in chunks over the CPUs with a result slot per group: the value does not depend on
// the number of CPUs. Cost O(n log n) to build plus one query per distinct released row
// (O(G·n·p) in the worst case). DLD ≤ 100·G/n. With a missing cell it is computed on the
// complete cases (metrics.md §0.4).
func DLD(in *Input) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return DLD(in) })
	}
	z, zm := in.Z()
	n, p := in.Orig.N, in.Orig.P
	if n == 0 {
		return Result{Value: math.NaN()}
	}
	reps, members := distinctRows(zm, n, p, in.Labels)
	G := len(reps)
	newHit, rank := hitFunc(z, n, p)
	order := make([]int32, G)
	for g := range order {
		order[g] = int32(g)
	}
	if rank != nil {
		slices.SortFunc(order, func(a, b int32) int {
			return cmp.Compare(rank[members[a][0]], rank[members[b][0]])
		})
	}
	hits := make([]bool, G)
	const chunk = 256
	hitters := make([]func([]float64, []int32) bool, runtime.GOMAXPROCS(0)) // one per goroutine
	parallel.Each((G+chunk-1)/chunk, 0, func(w, c int) {
		if in.Err() != nil {
			return
		}
		if hitters[w] == nil {
			hitters[w] = newHit()
		}
		for _, g := range order[c*chunk : min((c+1)*chunk, G)] {
			r := reps[g]
			hits[g] = hitters[w](zm[r*p:(r+1)*p], members[g])
		}
	})
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	h := 0
	for _, b := range hits {
		if b {
			h++
		}
	}
	return Result{Value: 100 * float64(h) / float64(n), Aux: map[string]float64{"distinct": float64(G)}}
}

// hitFunc returns a maker of DLD's hit tests over z, one per goroutine, and the tree position
// of each row (nil without a tree). A test reports whether the nearest row of z to q (ties to
// the smallest index, NearestRow's answer) is one of mem (ascending). On the k-d tree of
// internal/kdtree it is a radius query that stops at the first row beating the best member;
// when z holds NaN (the tree needs ordered values) it asks NearestIndex, and a query with NaN
// asks NearestRow.
func hitFunc(z []float64, n, p int) (func() func(q []float64, mem []int32) bool, []int32) {
	isMember := func(i int, mem []int32) bool {
		_, ok := slices.BinarySearch(mem, int32(i))
		return ok
	}
	if hasNaN(z) || p == 0 {
		idx := NewNearestIndex(z, n, p)
		return func() func([]float64, []int32) bool {
			return func(q []float64, mem []int32) bool { return isMember(idx.Nearest(q), mem) }
		}, nil
	}
	t := kdtree.New(z, n, p)
	rank := make([]int32, n)
	for pos, i := range t.Order() {
		rank[i] = int32(pos)
	}
	return func() func([]float64, []int32) bool {
		s := t.NewSearcher()
		var (
			r      float64 // the best member's distance
			ms     int32   // and index
			beaten bool
		)
		visit := func(i int32, d float64) bool {
			beaten = d < r || (d == r && i < ms)
			return beaten
		}
		return func(q []float64, mem []int32) bool {
			if hasNaN(q) {
				return isMember(NearestRow(z, n, p, q), mem)
			}
			r, ms, beaten = math.Inf(1), -1, false
			for _, m := range mem { // ascending: the first at the minimum is the smallest
				if d := distance.Sq(z[int(m)*p:(int(m)+1)*p], q); d < r {
					r, ms = d, m
				}
			}
			s.Within(q, r, visit)
			return !beaten
		}
	}, rank
}

// NearestRow returns the index of the row of the n×p row-major table z nearest to q in squared
// Euclidean distance, the smallest index on exact ties. It stops accumulating a candidate's
// distance as soon as it exceeds the best so far.
func NearestRow(z []float64, n, p int, q []float64) int {
	best, bi := math.Inf(1), -1
	q = q[:p]
	for i := 0; i < n; i++ {
		if s := distance.SqBound(z[i*p:(i+1)*p], q, best); s < best {
			best, bi = s, i
		}
	}
	if bi < 0 { // only NaN distances
		return 0
	}
	return bi
}

// NearestIndex answers exact nearest-row queries on a fixed row-major table by a sorted
// projection: rows are sorted by one column c, and a query walks outward from its own value of
// c, stopping on each side once (z_ic − q_c)² exceeds the best squared distance found. That
// single term never exceeds the column-order sum (adding non-negative numbers is monotone under
// rounding), so pruning is exact: the answer is NearestRow's, ties to the smallest index
// included. Queries near the data (noise, microaggregation centroids) touch few rows.
type NearestIndex struct {
	z     []float64
	n, p  int
	col   int
	order []int32   // row indices sorted by (z_col, index)
	key   []float64 // z_col in that order
}

// NewNearestIndex builds the index in O(n log n); it keeps z (not copied).
func NewNearestIndex(z []float64, n, p int) *NearestIndex {
	x := &NearestIndex{z: z, n: n, p: p, order: make([]int32, n), key: make([]float64, n)}
	// the column with the most distinct values separates rows best
	best := -1
	for c := 0; c < p; c++ {
		seen := make(map[float64]struct{}, 64)
		for i := 0; i < n && len(seen) <= best+1; i++ {
			seen[z[i*p+c]] = struct{}{}
		}
		if len(seen) > best {
			best, x.col = len(seen), c
		}
	}
	for i := range x.order {
		x.order[i] = int32(i)
	}
	slices.SortFunc(x.order, func(a, b int32) int {
		va, vb := z[int(a)*p+x.col], z[int(b)*p+x.col]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return int(a - b)
	})
	for t, i := range x.order {
		x.key[t] = z[int(i)*p+x.col]
	}
	return x
}

// Nearest returns the index of the row nearest to q (squared Euclidean distance accumulated in
// column order), the smallest index on exact ties. Rows or queries with NaN fall back to a scan.
func (x *NearestIndex) Nearest(q []float64) int {
	qc := q[x.col]
	if math.IsNaN(qc) || x.n == 0 || (x.n > 0 && (math.IsNaN(x.key[0]) || math.IsNaN(x.key[x.n-1]))) {
		return NearestRow(x.z, x.n, x.p, q)
	}
	p := x.p
	q = q[:p]
	best, bi := math.Inf(1), -1
	try := func(i int) {
		row := x.z[i*p : (i+1)*p : (i+1)*p]
		var s float64
		for l, v := range row {
			t := v - q[l]
			s += float64(t * t)
			if s > best {
				return
			}
		}
		if s < best || (s == best && i < bi) {
			best, bi = s, i
		}
	}
	hi, _ := slices.BinarySearch(x.key, qc)
	lo := hi - 1
	for lo >= 0 || hi < x.n {
		if hi < x.n {
			if t := x.key[hi] - qc; float64(t*t) > best {
				hi = x.n
			} else {
				try(int(x.order[hi]))
				hi++
			}
		}
		if lo >= 0 {
			if t := x.key[lo] - qc; float64(t*t) > best {
				lo = -1
			} else {
				try(int(x.order[lo]))
				lo--
			}
		}
	}
	if bi < 0 {
		return NearestRow(x.z, x.n, x.p, q)
	}
	return bi
}

// distinctRows groups the rows of zm: by labels when every group's rows are bit-identical,
// otherwise by exact bit pattern (with −0 equal to +0). It returns one representative row per
// group and the members of each group in ascending order.
func distinctRows(zm []float64, n, p int, labels []int32) (reps []int, members [][]int32) {
	if len(labels) == n && n > 0 {
		if reps, members, ok := groupsByLabel(zm, n, p, labels); ok {
			return reps, members
		}
	}
	idx := map[string]int{}
	key := make([]byte, 8*p)
	for i := 0; i < n; i++ {
		for l, v := range zm[i*p : (i+1)*p] {
			b := math.Float64bits(v + 0) // −0 + 0 = +0
			for t := 0; t < 8; t++ {
				key[8*l+t] = byte(b >> (8 * t))
			}
		}
		g, ok := idx[string(key)]
		if !ok {
			g = len(reps)
			idx[string(key)] = g
			reps = append(reps, i)
			members = append(members, nil)
		}
		members[g] = append(members[g], int32(i))
	}
	return reps, members
}

func groupsByLabel(zm []float64, n, p int, labels []int32) (reps []int, members [][]int32, ok bool) {
	G := 0
	for _, l := range labels {
		if l < 0 {
			return nil, nil, false
		}
		G = max(G, int(l)+1)
	}
	members = make([][]int32, G)
	for i, l := range labels {
		members[l] = append(members[l], int32(i))
	}
	reps = make([]int, G)
	for g, m := range members {
		if len(m) == 0 {
			return nil, nil, false
		}
		r := int(m[0])
		reps[g] = r
		for _, i := range m[1:] {
			a, b := zm[r*p:(r+1)*p], zm[int(i)*p:(int(i)+1)*p]
			for l := range a {
				if a[l] != b[l] {
					return nil, nil, false
				}
			}
		}
	}
	return reps, members, true
}
