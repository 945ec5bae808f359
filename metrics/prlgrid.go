package metrics

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/sdcbench/sdcbench/internal/parallel"
)

// Enumeration of the pairs that agree on three or more attributes, for the scale path of prl
// (prlscale.go).

// prlGrid buckets the records of both tables by their cells (floor(v_i/h), floor(v_j/h)) on
// one attribute pair (i, j). Records agreeing on i and j lie in the same or adjacent cells.
type prlGrid struct {
	bBucket, aBucket []int32    // bucket of each released / original record
	bStart, aStart   []int32    // bucket boundaries, in bucket order
	nbr              [][9]int32 // per original bucket: the adjacent released buckets, −1 if empty
	chunks           []int32    // original-bucket boundaries of the parallel work units
}

type cellKey [2]int64

// buckets returns the cells of the n×s table v on attributes i and j: the bucket of each row,
// the bucket boundaries and the sorted distinct cells.
func buckets(v []float64, n, s, i, j int, h float64) (of, start []int32, keys []cellKey) {
	key := make([]cellKey, n)
	idx := make([]int32, n)
	for r := range key {
		key[r] = cellKey{int64(math.Floor(v[r*s+i] / h)), int64(math.Floor(v[r*s+j] / h))}
		idx[r] = int32(r)
	}
	slices.SortFunc(idx, func(x, y int32) int { return cmpKey(key[x], key[y]) })
	of = make([]int32, n)
	for p, r := range idx {
		if p == 0 || key[r] != key[idx[p-1]] {
			keys = append(keys, key[r])
			start = append(start, int32(p))
		}
		of[r] = int32(len(keys) - 1)
	}
	return of, append(start, int32(n)), keys
}

func cmpKey(x, y cellKey) int {
	if c := cmp.Compare(x[0], y[0]); c != 0 {
		return c
	}
	return cmp.Compare(x[1], y[1])
}

// grid builds the prlGrid of attributes i and j.
func (sc *prlScale) grid(i, j int) *prlGrid {
	g := &prlGrid{}
	var bkeys, akeys []cellKey
	g.bBucket, g.bStart, bkeys = buckets(sc.rb, sc.n, sc.s, i, j, sc.h)
	g.aBucket, g.aStart, akeys = buckets(sc.ra, sc.n, sc.s, i, j, sc.h)
	g.nbr = make([][9]int32, len(akeys))
	const chunk = 512
	rows := 0
	for A, k := range akeys {
		for d := range 9 {
			c := cellKey{k[0] + int64(d/3) - 1, k[1] + int64(d%3) - 1}
			g.nbr[A][d] = -1
			if B, ok := slices.BinarySearchFunc(bkeys, c, cmpKey); ok {
				g.nbr[A][d] = int32(B)
			}
		}
		if rows == 0 {
			g.chunks = append(g.chunks, int32(A))
		}
		if rows += int(g.aStart[A+1] - g.aStart[A]); rows >= chunk {
			rows = 0
		}
	}
	g.chunks = append(g.chunks, int32(len(akeys)))
	return g
}

// enumerate calls hit(w, a, g, c) for the pairs (a, b) whose pattern g over the s attributes
// has three or more agreements, c being their number (1, or all of a's pairs with pattern
// exactly {i, j, k} on one triple); w is the calling goroutine's number, and the pairs of one
// original record a come from one goroutine at a time. The pair is found on the triple
// (i, j, k) of its three lowest agreeing attributes: the original records of a cell of (i, j)
// sweep, in the order of attribute k, the released records of the adjacent cells sorted on k,
// and check i and j. If need is not nil, only the triples with need[1<<i|1<<j|1<<k] are
// visited, and if skip is not nil, original record a skips triple tr when skip(tr, a). If
// scanned is not nil, the candidates examined are added to it, and enumerate
// stops and returns false once it exceeds budget.
func (sc *prlScale) enumerate(need []bool, skip func(tr int, a int32) bool, hit func(w int, a int32, g int, c int32), scanned *atomic.Int64, budget int64) bool {
	n, s, tau := sc.n, sc.s, sc.tau
	if s < 3 {
		return true
	}
	if sc.grids == nil { // every grid a triple needs, built in parallel, kept for the second pass
		sc.grids = make([]*prlGrid, s*(s-1)/2)
		parallel.Each(len(sc.pairs), 0, func(_, p int) {
			if sc.ctx.Err() != nil {
				return
			}
			if i, j := sc.pairs[p][0], sc.pairs[p][1]; j < s-1 {
				sc.grids[p] = sc.grid(i, j)
			}
		})
	}
	if sc.ctx.Err() != nil {
		return false // cancelled (some grids may be missing): the caller checks ctx
	}
	// per triple, both tables' rows copied in bucket order, each bucket sorted on k, so that
	// the sweeps and the pattern checks read memory in order
	bk, bi, bj := make([]float64, n), make([]float64, n), make([]float64, n)
	brows, arows := make([]float64, n*s), make([]float64, n*s)
	aidx := make([]int32, n)
	var bnext, anext []int32
	var stop atomic.Bool
	cands := make([][]int32, runtime.GOMAXPROCS(0)) // per goroutine: the candidates of a window
	for i := 0; i < s-2; i++ {
		for j := i + 1; j < s-1; j++ {
			ks := make([]int, 0, s)
			for k := j + 1; k < s; k++ {
				if need == nil || need[1<<i|1<<j|1<<k] {
					ks = append(ks, k)
				}
			}
			if len(ks) == 0 {
				continue
			}
			gr := sc.grids[sc.slot(i, j)]
			for _, k := range ks {
				parallel.Each(2, 0, func(_, side int) { // the two tables at once
					if side == 0 {
						next := append(bnext[:0], gr.bStart[:len(gr.bStart)-1]...)
						for _, b := range sc.border[k] {
							u := gr.bBucket[b]
							q, r := next[u], sc.rb[int(b)*s:int(b+1)*s]
							next[u]++
							bk[q], bi[q], bj[q] = r[k], r[i], r[j]
							copy(brows[int(q)*s:], r)
						}
						bnext = next
						return
					}
					next := append(anext[:0], gr.aStart[:len(gr.aStart)-1]...)
					for _, a := range sc.aorder[k] {
						u := gr.aBucket[a]
						q := next[u]
						next[u]++
						aidx[q] = a
						copy(arows[int(q)*s:], sc.ra[int(a)*s:int(a+1)*s])
					}
					anext = next
				})
				want, low := 1<<i|1<<j|1<<k, 2<<k-1
				parallel.Each(len(gr.chunks)-1, 0, func(w, c int) {
					if stop.Load() || sc.ctx.Err() != nil {
						return
					}
					var seen int64
					var exact int32 // pairs of the current record with pattern exactly want
					cand := cands[w]
					for A := gr.chunks[c]; A < gr.chunks[c+1]; A++ {
						if (A-gr.chunks[c])%64 == 63 && sc.ctx.Err() != nil {
							break // cancelled: the caller checks ctx
						}
						var lo, hi, end [9]int
						for d, B := range gr.nbr[A] {
							if B >= 0 {
								lo[d], hi[d], end[d] = int(gr.bStart[B]), int(gr.bStart[B]), int(gr.bStart[B+1])
							}
						}
						for u := gr.aStart[A]; u < gr.aStart[A+1]; u++ { // ascending on k
							if skip != nil && skip(want, aidx[u]) {
								continue // the windows catch up at the next record
							}
							x := arows[int(u)*s : int(u+1)*s]
							xk, xi, xj := x[k], x[i], x[j]
							for d := range lo { // the agreeing window on k only moves right
								p, q, e := lo[d], hi[d], end[d]
								for p < e && bk[p] < xk && !(math.Abs(xk-bk[p]) <= tau) {
									p++
								}
								q = max(q, p)
								for q < e && (bk[q] <= xk || math.Abs(xk-bk[q]) <= tau) {
									q++
								}
								lo[d], hi[d] = p, q
								seen += int64(q - p)
								if len(cand) < q-p {
									cand = make([]int32, 2*(q-p))
									cands[w] = cand
								}
								m := 0
								for t := p; t < q; t++ { // compacted without branches
									cand[m] = int32(t)
									inc := 0
									if math.Abs(xi-bi[t]) <= tau {
										inc = 1
									}
									if !(math.Abs(xj-bj[t]) <= tau) {
										inc = 0
									}
									m += inc
								}
								seen += prlPatternCost * int64(m)
								for _, t32 := range cand[:m] {
									t := int(t32)
									switch g := pattern(x, brows[t*s:(t+1)*s], tau); {
									case g == want:
										exact++
									case g&low == want: // else found on its lowest triple
										hit(w, aidx[u], g, 1)
									}
								}
							}
							if exact > 0 {
								hit(w, aidx[u], want, exact)
								exact = 0
							}
						}
					}
					if scanned != nil && scanned.Add(seen) > budget {
						stop.Store(true)
					}
				})
				if stop.Load() || sc.ctx.Err() != nil {
					return false
				}
			}
		}
	}
	return true
}
