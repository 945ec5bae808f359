package magga

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

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

// linkedNear answers the same question as linkQuery.linked from the neighbour list of jb: every
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
