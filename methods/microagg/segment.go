package microagg

import (
	"cmp"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// FixedGroups cuts the ordered record indices order into consecutive groups and returns the
// canonical labels of records 0..len(order)−1 (docs/microaggregation.md §2.1): when
// n = len(order) < 2k the whole sequence is one group; otherwise there are ⌊n/k⌋ groups, the
// first ⌊n/k⌋−1 of k consecutive positions and the last of k + (n mod k). Examples: n=11, k=3
// gives sizes 3,3,5; n=5, k=3 a single group of 5.
//
// order must be a permutation of 0..n−1; FixedGroups panics if k < 1 or n < k. Cost O(n).
func FixedGroups(order []int, k int) []int32 {
	n := len(order)
	if k < 1 || n < k {
		panic("microagg: FixedGroups: bad k or n < k")
	}
	labels := make([]int32, n)
	G := max(1, n/k)
	for pos, i := range order {
		labels[i] = int32(min(pos/k, G-1))
	}
	return Canonical(labels)
}

// SegmentLabels returns the canonical labels of the consecutive segmentation of order whose
// segment ends (exclusive positions, ascending, the last equal to len(order)) are ends, as
// returned by SegmentDP.
func SegmentLabels(order []int, ends []int) []int32 {
	labels := make([]int32, len(order))
	lo := 0
	for g, hi := range ends {
		for _, i := range order[lo:hi] {
			labels[i] = int32(g)
		}
		lo = hi
	}
	if lo != len(order) {
		panic("microagg: SegmentLabels: ends do not cover order")
	}
	return Canonical(labels)
}

// SegmentDP returns the optimal consecutive segmentation of the sequence of rows
// z[order[0]], z[order[1]], … of the row-major table z with d columns, restricted to the
// columns cols (all columns if cols is nil): the segments have sizes in [k, 2k−1] and their
// total within-segment SSE, returned as sse, is minimal (docs/microaggregation.md
// §2.2, the shortest V0→Vn path of the seed's graph H_{k,n}; for one column and order sorted
// by that column it is Hansen and Mukherjee's MHM). ends holds the exclusive end position of
// each segment, ascending, the last being len(order).
//
// The segment SSE is evaluated from prefix sums, w(i,j) = max(0, (P2[j]−P2[i]) −
// ‖P1[j]−P1[i]‖²/(j−i)), and on exactly equal totals the larger predecessor wins (the
// shorter last segment), as §2.2 prescribes.
//
// SegmentDP panics if k < 1 or len(order) < k. Cost O(n·k·|cols|) time, O(n·|cols|) memory.
func SegmentDP(z []float64, d int, order []int, cols []int, k int) (ends []int, sse float64) {
	n := len(order)
	if k < 1 || n < k {
		panic("microagg: SegmentDP: bad k or n < k")
	}
	if cols == nil {
		cols = make([]int, d)
		for j := range cols {
			cols[j] = j
		}
	}
	c := len(cols)
	p1 := make([]float64, (n+1)*c)
	p2 := make([]float64, n+1)
	for t, i := range order {
		row := z[i*d : (i+1)*d : (i+1)*d]
		prev, cur := p1[t*c:(t+1)*c:(t+1)*c], p1[(t+1)*c:(t+2)*c:(t+2)*c]
		var q float64
		for a, j := range cols {
			v := row[j]
			cur[a] = prev[a] + v
			q += float64(v * v)
		}
		p2[t+1] = p2[t] + q
	}
	D := make([]float64, n+1)
	pred := make([]int, n+1)
	for j := 1; j <= n; j++ {
		D[j] = math.Inf(1)
	}
	for j := k; j <= n; j++ {
		pj := p1[j*c : (j+1)*c : (j+1)*c]
		best, bi := math.Inf(1), -1
		for i := max(0, j-2*k+1); i <= j-k; i++ {
			if math.IsInf(D[i], 1) {
				continue
			}
			s := distance.Sq(pj, p1[i*c:(i+1)*c:(i+1)*c])
			w := max(0, (p2[j]-p2[i])-s/float64(j-i))
			if v := D[i] + w; v <= best {
				best, bi = v, i
			}
		}
		D[j], pred[j] = best, bi
	}
	for j := n; j > 0; j = pred[j] {
		ends = append(ends, j)
	}
	slices.Reverse(ends)
	return ends, D[n]
}

// sortedBy returns the record indices 0..len(key)−1 in ascending order of key, ties by
// index (a stable sort, as R's order). Cost O(n log n).
func sortedBy(key []float64) []int {
	order := make([]int, len(key))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(key[a], key[b]); c != 0 {
			return c
		}
		return a - b
	})
	return order
}

// column returns a copy of column j of the row-major table z with d columns.
func column(z []float64, d, j int) []float64 {
	n := len(z) / d
	c := make([]float64, n)
	for i := range c {
		c[i] = z[i*d+j]
	}
	return c
}

// sseOf returns the within-group SSE of a canonical labelling of z (two-pass: centroids, then
// squared deviations).
func sseOf(z []float64, d int, labels []int32) float64 {
	G := len(GroupSizes(labels))
	cent := make([]float64, G*d)
	cnt := make([]float64, G)
	for i, l := range labels {
		c := cent[int(l)*d : (int(l)+1)*d]
		for j, v := range z[i*d : (i+1)*d] {
			c[j] += v
		}
		cnt[l]++
	}
	for g := 0; g < G; g++ {
		for j := 0; j < d; j++ {
			cent[g*d+j] /= cnt[g]
		}
	}
	var s float64
	for i, l := range labels {
		s += distance.Sq(z[i*d:(i+1)*d], cent[int(l)*d:(int(l)+1)*d])
	}
	return s
}
