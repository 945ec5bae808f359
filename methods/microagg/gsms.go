package microagg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/internal/parallel"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:        "gsms",
			Description: "group selection by sequential minimization of SSE: remove the k-NN group that leaves the least spread",
			Params:      []methods.ParamSpec{kParam, standardizeParam},
			Partitions:  true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			labels, err := GSMS(ctx, z, n, d, k, methods.Threads(ctx))
			return labels, nil, err
		},
	})
}

// GSMS returns the canonical labels of group selection by sequential minimization of SSE on
// the n×d row-major table z (docs/microaggregation.md §3.9, MAGGA study L1164-1181):
//
//	repeat ⌊n/k⌋ times:
//	    C_i = the k nearest to z_i within R, for every i ∈ R   (squared distance, then index)
//	    emit C_{i*}, i* = argmin_{i∈R} SST(R \ C_i)          (ties: lowest i)
//	add each leftover record (ascending index) to the group with the nearest centroid,
//	the centroids being computed once after the loop (ties: earliest group)
//
// SST(A) is the total sum of squares of A about its own mean, evaluated as
// Q_R − Q_C − ‖S_R − S_C‖²/(|R|−k) from row sums S and squared norms Q (0 when |R| = k);
// S_C and Q_C are summed over C in ascending record order, so equal groups score equally.
//
// This is the naive O(n³·d/k) definition computed exactly in O(n²·d) expected time: each
// record keeps its L = 3k nearest records (as of when the list was built) in (distance,
// index) order. Deleting records from R never reorders the others, so the first k live
// entries of the list are C_i while at least k entries live (or the list held all of R); only
// then is the list rebuilt, with one O(|R|·d) scan. S_C and Q_C are recomputed only when C_i
// loses a member, so an iteration costs O(|R|·(d + k)) plus the rebuilds. List builds run on
// workers goroutines (0 means GOMAXPROCS), each writing its own record's slots, so the result
// does not depend on workers. ctx is checked once per group. z is not modified; it panics if
// k < 1, n < k or len(z) != n·d. Memory O(n·(k + d)).
//
// From indexMinRows rows (and up to indexMaxDims columns) the lists are built from the exact
// k-d tree of MDAV's indexes over R (the L nearest live records, same order, same ties)
// instead of scans (docs/scaling.md); the argmin of the score stays an O(|R|·d) pass per
// group, so GSMS remains quadratic.
func GSMS(ctx context.Context, z []float64, n, d, k, workers int) ([]int32, error) {
	return gsms(ctx, z, n, d, k, workers, useIndex(n, d))
}

// gsms is GSMS; with indexed, the neighbour lists come from an mdavindex.Index's tree.
func gsms(ctx context.Context, z []float64, n, d, k, workers int, indexed bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: GSMS: bad shape or k")
	}
	L := min(n, 3*k)
	s := &gsmsState{
		z: z, d: d, k: k, L: L,
		R:     make([]int, n),
		dead:  make([]bool, n),
		nb:    make([]int, n*L),
		nbLen: make([]int, n),
		full:  make([]bool, n),
		C:     make([]int, n*k),
		S:     make([]float64, n*d),
		Q:     make([]float64, n),
		q:     make([]float64, n),
	}
	for i := range s.R {
		s.R[i] = i
		for _, v := range z[i*d : (i+1)*d] {
			s.q[i] += float64(v * v)
		}
	}
	labels := make([]int32, n)
	loop := s.loop
	if indexed {
		s.ix = mdavindex.New(z, n, d, indexOptions)
		loop = s.loopIndexed
	}
	g, err := loop(ctx, labels, workers)
	if err != nil {
		return nil, err
	}
	if len(s.R) > 0 { // n mod k leftovers
		sizes := make([]float64, g)
		cent := make([]float64, int(g)*d)
		for i, l := range labels {
			if s.dead[i] {
				sizes[l]++
				for j, v := range z[i*d : (i+1)*d] {
					cent[int(l)*d+j] += v
				}
			}
		}
		for l := range sizes {
			for j := 0; j < d; j++ {
				cent[l*d+j] /= sizes[l]
			}
		}
		dist := make([]float64, g)
		for _, x := range s.R {
			distance.SqRows(dist, cent, z[x*d:(x+1)*d])
			labels[x] = int32(slices.Index(dist, slices.Min(dist)))
		}
	}
	return Canonical(labels), nil
}

// gsmsState is GSMS's working set.
type gsmsState struct {
	z       []float64
	d, k, L int
	R       []int            // live records, ascending
	dead    []bool           // record was grouped
	nb      []int            // nb[i*L : i*L+nbLen[i]]: i's nearest records when its list was built
	nbLen   []int            //
	full    []bool           // i's list held every live record when it was built
	C       []int            // C[i*k : (i+1)*k]: i's current k nearest live records, in list order
	S       []float64        // S[i*d : (i+1)*d]: Σ_{x∈C_i} z_x
	Q       []float64        // Q[i] = Σ_{x∈C_i} ‖z_x‖²
	q       []float64        // q[x] = ‖z_x‖²
	ix      *mdavindex.Index // when indexed: its tree holds R
}

// lostMember reports whether a member of C_i has been grouped.
func (s *gsmsState) lostMember(i int) bool {
	for _, x := range s.C[i*s.k : (i+1)*s.k] {
		if s.dead[x] {
			return true
		}
	}
	return false
}

// rebuildC sets C_i, S_i and Q_i from i's list and reports success, which fails when the list
// no longer holds k live records and did not cover R.
func (s *gsmsState) rebuildC(i int) bool {
	k, d := s.k, s.d
	c := s.C[i*k : (i+1)*k]
	n := 0
	for _, x := range s.nb[i*s.L : i*s.L+s.nbLen[i]] {
		if !s.dead[x] {
			c[n] = x
			if n++; n == k {
				break
			}
		}
	}
	if n < k {
		if s.full[i] {
			panic("microagg: GSMS: fewer than k live records")
		}
		return false
	}
	var sorted [64]int
	ord := append(sorted[:0], c...)
	slices.Sort(ord)
	sum := s.S[i*d : (i+1)*d]
	clear(sum)
	var q float64
	for _, x := range ord {
		q += s.q[x]
		for j, v := range s.z[x*d : (x+1)*d] {
			sum[j] += v
		}
	}
	s.Q[i] = q
	return true
}

// rebuildList recomputes i's list of nearest live records with the scratch buffers dist
// (len ≥ |R|) and pos, which it returns for reuse.
func (s *gsmsState) rebuildList(i int, dist []float64, pos []int) []int {
	d := s.d
	dist = dist[:len(s.R)]
	zi := s.z[i*d : (i+1)*d]
	for t, x := range s.R {
		dist[t] = distance.Sq(s.z[x*d:(x+1)*d], zi)
	}
	pos = smallest(pos, dist, s.L)
	list := s.nb[i*s.L : i*s.L+len(pos)]
	for t, p := range pos {
		list[t] = s.R[p]
	}
	s.nbLen[i] = len(pos)
	s.full[i] = len(pos) == len(s.R)
	return pos
}

// loop is GSMS's main loop with scans: it labels ⌊n/k⌋ groups and returns their number.
func (s *gsmsState) loop(ctx context.Context, labels []int32, workers int) (int32, error) {
	z, d, k, n := s.z, s.d, s.k, len(s.R)
	var g int32
	SR := make([]float64, d)
	stale := make([]int, 0, n)
	for iter := 0; iter < n/k; iter++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		// refresh the candidate groups that lost a member
		stale = stale[:0]
		for _, i := range s.R {
			if iter == 0 || s.lostMember(i) {
				stale = append(stale, i)
			}
		}
		parallel.Ranges(len(stale), workers, minRange, func(_, lo, hi int) {
			var dist []float64 // allocated on the first rebuild only
			var pos []int
			for _, i := range stale[lo:hi] {
				if !s.rebuildC(i) {
					if dist == nil {
						dist = make([]float64, len(s.R))
					}
					pos = s.rebuildList(i, dist, pos)
					s.rebuildC(i)
				}
			}
		})
		// totals of R, in ascending record order
		clear(SR)
		var QR float64
		for _, i := range s.R {
			QR += s.q[i]
			for j, v := range z[i*d : (i+1)*d] {
				SR[j] += v
			}
		}
		m := len(s.R)
		best, bi := math.Inf(1), -1
		for _, i := range s.R {
			var v float64
			if m > k {
				v = QR - s.Q[i] - distance.Sq(SR, s.S[i*d:(i+1)*d])/float64(m-k)
			}
			if v < best {
				best, bi = v, i
			}
		}
		for _, x := range s.C[bi*k : (bi+1)*k] {
			labels[x] = g
			s.dead[x] = true
		}
		g++
		s.R = slices.DeleteFunc(s.R, func(i int) bool { return s.dead[i] })
	}
	return g, nil
}
