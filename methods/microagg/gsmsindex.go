package microagg

import (
	"context"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// loopIndexed is GSMS's main loop at scale, with the scan loop's result (docs/scaling.md):
//
//   - a list is rebuilt from the tree of s.ix (treeList) instead of a scan;
//   - the candidate groups that lost a member are found from reverse lists (rev[x]: the
//     records whose group held x when it was built; entries of groups rebuilt since are
//     harmless, as rebuilding an intact group gives the same group and sums) instead of a pass
//     over R;
//   - the totals of R are the column sums of a −0-padded copy of the rows, each followed by
//     its q (liveRows): the same additions in the same order as the scan's loop.
//
// The argmin of the score stays a pass over R, O(|R|·d) per group (split over workers).
func (s *gsmsState) loopIndexed(ctx context.Context, labels []int32, workers int) (int32, error) {
	z, d, k, n := s.z, s.d, s.k, len(s.R)
	workers = parallel.Workers(workers)
	aug := make([]float64, n*(d+1)) // row i, then q_i
	for i := 0; i < n; i++ {
		copy(aug[i*(d+1):], z[i*d:(i+1)*d])
		aug[i*(d+1)+d] = s.q[i]
	}
	rows := newLiveRows(aug, n, d+1)
	rev := make([][]int32, n)
	marked := make([]bool, n)
	stale := append([]int(nil), s.R...)
	tot := make([]float64, d+1) // S_R, then Q_R
	chunkBest, chunkArg := make([]float64, max(workers, 1)), make([]int, max(workers, 1))
	var g int32
	for iter := 0; iter < n/k; iter++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		parallel.Ranges(len(stale), workers, minRange, func(_, lo, hi int) {
			var pos []int
			var qs mdavindex.Query
			for _, i := range stale[lo:hi] {
				if !s.rebuildC(i) {
					pos = s.treeList(i, &qs, pos)
					s.rebuildC(i)
				}
			}
		})
		for _, i := range stale {
			marked[i] = false
			for _, x := range s.C[i*k : (i+1)*k] {
				rev[x] = append(rev[x], int32(i))
			}
		}
		stale = stale[:0]
		colSums(tot, rows.rows, d+1)
		bi := s.argminScore(tot, workers, chunkBest, chunkArg)
		first := n
		for _, x := range s.C[bi*k : (bi+1)*k] {
			labels[x] = g
			s.dead[x] = true
			s.ix.Delete(x)
			rows.kill(x)
			first = min(first, x)
			for _, i := range rev[x] {
				if !marked[i] {
					marked[i] = true
					stale = append(stale, int(i))
				}
			}
			rev[x] = nil
		}
		stale = slices.DeleteFunc(stale, func(i int) bool {
			if s.dead[i] {
				marked[i] = false
				return true
			}
			return false
		})
		g++
		p, _ := slices.BinarySearch(s.R, first)
		w := p
		for _, i := range s.R[p:] {
			if !s.dead[i] {
				s.R[w] = i
				w++
			}
		}
		s.R = s.R[:w]
	}
	return g, nil
}

// argminScore returns the record i of R with the smallest score
// Q_R − Q_i − ‖S_R − S_i‖²/(|R|−k) (0 when |R| = k), the lowest i on ties, from the totals
// tot = (S_R, Q_R). From argminRows records the pass is split into contiguous chunks of R, one
// per worker (at most len(best); parallel.Ranges), whose minima are merged in chunk order with
// a strict <, so the answer is the serial one.
func (s *gsmsState) argminScore(tot []float64, workers int, best []float64, arg []int) int {
	d, k, m := s.d, s.k, len(s.R)
	SR := tot[:d]
	chunk := func(c, lo, hi int) {
		b, bi := math.Inf(1), -1
		for _, i := range s.R[lo:hi] {
			var v float64
			if m > k {
				v = tot[d] - s.Q[i] - distance.Sq(SR, s.S[i*d:(i+1)*d])/float64(m-k)
			}
			if v < b {
				b, bi = v, i
			}
		}
		best[c], arg[c] = b, bi
	}
	w := max(1, min(workers, len(best)))
	if m < argminRows {
		w = 1
	}
	nc := parallel.Ranges(m, w, 1, chunk)
	b, bi := best[0], arg[0]
	for c := 1; c < nc; c++ {
		if best[c] < b {
			b, bi = best[c], arg[c]
		}
	}
	return bi
}

// argminRows is the size of R from which argminScore runs on several goroutines. A variable
// so that tests reach the split with small tables.
var argminRows = 8192

// treeList is rebuildList from the tree of s.ix (the L nearest live records in (distance,
// index) order, as the scan's positions follow record order), with the query state qs; it
// returns buf for reuse. Concurrent calls are safe: the tree is not modified meanwhile.
func (s *gsmsState) treeList(i int, qs *mdavindex.Query, buf []int) []int {
	buf = s.ix.Tree().Nearest(qs, buf[:0], s.z[i*s.d:(i+1)*s.d], s.L)
	copy(s.nb[i*s.L:], buf)
	s.nbLen[i] = len(buf)
	s.full[i] = len(buf) == len(s.R)
	return buf
}
