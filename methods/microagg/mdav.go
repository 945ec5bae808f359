package microagg

import (
	"context"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// blockRows is the fixed block size of every reduction in MDAV: sums, argmax and top-k are
// computed per block of this many active rows and merged in block order, so the partition does
// not depend on the number of workers (docs/microaggregation.md §4.5).
const blockRows = 1024

// parallelRows is the active-set size below which passes run on one goroutine.
const parallelRows = 4096

// indexMinRows is the number of records from which MDAV answers its queries from indexes
// instead of passes over the active records (docs/scaling.md); the partition is the same
// either way.
const indexMinRows = 8192

// indexMaxDims is the largest number of columns for which the indexes are used. Above it the
// k-d tree prunes too little on unstructured data and the parallel passes are faster: on
// 30,000 i.i.d. normal rows, one worker, indexed vs scan took 0.99 vs 1.25 s at 12 columns,
// 1.88 vs 1.98 s at 16, 4.38 vs 2.29 s at 20 and 8.34 vs 4.29 s at 32 (loaded machine).
const indexMaxDims = 16

// indexOptions are the options of every mdavindex.Index the methods build: the defaults,
// except in tests, which reach the tree rebuilds and the coded filters with small tables. The
// partitions do not depend on them.
var indexOptions mdavindex.Options

// MDAV partitions the n rows of the row-major n×d table z into groups of k records with the
// Maximum Distance to Average Vector heuristic exactly as docs/microaggregation.md §3.1
// defines it (ties to the lowest record index, s chosen over the updated set, the standard end
// game). Every group has k records except the last, which has k..2k−1. It returns canonical
// labels (groups numbered by their smallest member).
//
// From indexMinRows records and up to indexMaxDims columns the four queries of each step come
// from exact indexes (internal/mdavindex, docs/scaling.md): a pivot list for the farthest points and
// a k-d tree for the nearest, on one goroutine; each query examines a few per cent (farthest)
// to 10–20 % (k-NN in 10 columns) of the live records, from 65,536 records through 8- or
// 16-bit codes that decide which exact distances to compute. Otherwise three SIMD passes per pair of
// groups (about 3·n²·d/(4k) multiply-adds) are split over workers goroutines when more than
// parallelRows records are live (0 means GOMAXPROCS); every reduction is merged in a fixed
// order. The labels are the same on both paths and for any workers. Memory O(n·d). ctx is
// checked every 16 pairs of groups. z is not modified. It panics if k < 1, n < k or
// len(z) != n·d.
//
// For k ≥ selectMinK the scan selects each group's k nearest rows from all live distances
// (selectNearest) instead of merging per-block heaps; with n ≤ selectMaxSteps·k it is then
// cheaper than the indexes and used instead, its passes split over the workers only from
// selectParallelRows live records (docs/scaling.md, "MDAV at large k").
func MDAV(ctx context.Context, z []float64, n, d, k, workers int) ([]int32, error) {
	sel := k >= selectMinK && allFinite(z)
	indexed := n >= indexMinRows && d <= indexMaxDims && !(sel && n <= selectMaxSteps*k)
	return mdavWith(ctx, z, n, d, k, workers, indexed, sel, false)
}

// mdavOwned is MDAV on a table z that is the caller's scratch: the scan path turns it into its
// lane buffer in place instead of copying it (materialize), so z's values are lost. The labels
// are MDAV's.
func mdavOwned(ctx context.Context, z []float64, n, d, k, workers int) ([]int32, error) {
	sel := k >= selectMinK && allFinite(z)
	indexed := n >= indexMinRows && d <= indexMaxDims && !(sel && n <= selectMaxSteps*k)
	return mdavWith(ctx, z, n, d, k, workers, indexed, sel, true)
}

// selectMinK is the group size from which the scan selects the k nearest rows
// (selectNearest) rather than keeping per-block heaps; selectMaxSteps bounds n/k for the scan
// to replace the indexes. On 10^5 normal rows (one worker, loaded machine), scan with selection
// against indexes, CPU-s: k = 100, d = 5: 0.35 vs 0.53; d = 10: 0.51 vs 1.10; k = 300, d = 10:
// 0.26 vs 0.79; k = 1000, d = 5: 0.11 vs 0.39; and 4.4 vs 6.5 at 10^6 × 5, k = 1000. At k = 30
// the selection costs more than the heaps (4.4 vs 2.4 s at 10^5 × 5).
const (
	selectMinK     = 100
	selectMaxSteps = 1000
)

// allFinite reports whether every value of z is finite (no distance can then be NaN): v − v
// is +0 for a finite v and NaN for NaN and ±Inf.
func allFinite(z []float64) bool {
	for _, v := range z {
		if v-v != 0 {
			return false
		}
	}
	return true
}

// mdav is MDAV; with indexed, every query of the main loop comes from an mdavindex.Index
// instead of passes (same partition).
func mdav(ctx context.Context, z []float64, n, d, k, workers int, indexed bool) ([]int32, error) {
	return mdavWith(ctx, z, n, d, k, workers, indexed, false, false)
}

// mdavWith is mdav; with selectK (scan path only, z finite) the k nearest rows are selected
// from all live distances instead of merged from per-block heaps (same partition); with own,
// z is scratch that the scan path may overwrite (mdavOwned).
func mdavWith(ctx context.Context, z []float64, n, d, k, workers int, indexed, selectK, own bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: MDAV: bad shape or k")
	}
	workers = parallel.Workers(workers)
	if selectK && !indexed && n < selectParallelRows {
		workers = 1 // no pool: the selecting scan's passes run on one goroutine below that size
	}
	s := newMdavStateOwn(z, n, d, k, workers, !indexed, own && !indexed)
	s.selectK = selectK && !indexed
	if s.selectK {
		s.parRows = max(parallelRows, selectParallelRows)
	}
	defer s.close()
	var ix *mdavindex.Index
	var posOf []int32 // record → buffer row, while indexed
	if indexed {
		opt := indexOptions
		opt.BigGroups = k > 16
		ix = mdavindex.New(z, n, d, opt)
		posOf = make([]int32, n)
		for i := range posOf {
			posOf[i] = int32(i)
		}
		s.onCompact = func() {
			for t := 0; t < s.m; t++ {
				posOf[s.act[t]] = int32(t)
			}
		}
	}
	labels := make([]int32, n)
	var g int32
	emit := func(pos []int) {
		for _, t := range pos {
			labels[s.act[t]] = g
			s.kill(t)
			if ix != nil {
				ix.Delete(int(s.act[t]))
			}
		}
		g++
	}
	farthestFromCentroid := func() int {
		if ix != nil {
			return int(posOf[ix.Farthest(s.cent)])
		}
		return s.farthestCentroid()
	}
	var posBuf []int
	toPos := func(recs []int) []int {
		posBuf = posBuf[:0]
		for _, i := range recs {
			posBuf = append(posBuf, int(posOf[i]))
		}
		return posBuf
	}
	for iter := 1; s.alive >= 3*k; iter++ {
		if iter&15 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s.centroid()
		r := farthestFromCentroid()
		if ix != nil {
			// from the indexes: g1, the k-NN of r; s, the farthest from r once g1 is
			// deleted; g2, the k-NN of s
			ri := int(s.act[r])
			emit(toPos(ix.Nearest(ri, k)))
			si := ix.FarthestFrom(z[ri*d : (ri+1)*d])
			emit(toPos(ix.Nearest(si, k)))
		} else {
			s.distTo(r)
			g1 := s.nearest()
			far := s.farthestExcluding(g1)
			emit(g1)
			s.distTo(far)
			emit(s.nearest())
		}
		s.maintain()
	}
	if s.rows == nil {
		s.materialize()
	}
	if s.alive >= 2*k {
		s.centroid()
		r := farthestFromCentroid()
		s.distTo(r)
		emit(s.nearest())
		s.maintain()
	}
	if s.alive > 0 {
		rest := make([]int, 0, s.alive)
		for t := 0; t < s.m; t++ {
			if !s.dead[t] {
				rest = append(rest, t)
			}
		}
		emit(rest)
	}
	return canonicalize(labels, labels), nil
}

// Canonical renumbers labels so that groups are numbered in the order of their smallest
// member (record 0 is in group 0). Negative labels are kept as they are.
func Canonical(labels []int32) []int32 {
	return canonicalize(make([]int32, len(labels)), labels)
}

// canonicalize is Canonical writing into out (len(labels)), which may be labels itself.
func canonicalize(out, labels []int32) []int32 {
	// seen[l] is 1 + the canonical number of label l (0: not seen yet) for the labels below
	// len(labels), as MDAV's are (0..G−1); a map holds any others
	top := int32(-1)
	for _, l := range labels {
		top = max(top, l)
	}
	seen := make([]int32, min(int(top)+1, len(labels)))
	next := int32(0)
	var m map[int32]int32
	for i, l := range labels {
		switch {
		case l < 0:
			out[i] = l
		case int(l) < len(seen):
			if seen[l] == 0 {
				next++
				seen[l] = next
			}
			out[i] = seen[l] - 1
		default:
			if m == nil {
				m = map[int32]int32{}
			}
			c, ok := m[l]
			if !ok {
				c = next
				next++
				m[l] = c
			}
			out[i] = c
		}
	}
	return out
}
