package microagg

import (
	"context"
	"runtime"
)

// blockRows is the fixed block size of every reduction in MDAV: sums, argmax and top-k are
// computed per block of this many active rows and merged in block order, so the partition does
// not depend on the number of workers (docs/microaggregation.md §4.5).
const blockRows = 1024

// parallelRows is the active-set size below which passes run on one goroutine.
const parallelRows = 4096

// MDAV partitions the n rows of the row-major n×d table z into groups of k records with the
// Maximum Distance to Average Vector heuristic exactly as docs/microaggregation.md §3.1
// defines it (ties to the lowest record index, s chosen over the updated set, the standard end
// game). Every group has k records except the last, which has k..2k−1. It returns canonical
// labels (groups numbered by their smallest member).
//
// Cost: about 3·n²·d/(4k) multiply-adds (three distance passes per pair of groups) and O(n·d)
// memory. Passes over more than parallelRows active rows are split over workers goroutines
// (0 means GOMAXPROCS); every reduction is merged in a fixed order, so the labels do not depend
// on workers. ctx is checked every 16 pairs of groups. z is not modified. It panics if k < 1,
// n < k or len(z) != n·d.
func MDAV(ctx context.Context, z []float64, n, d, k, workers int) ([]int32, error) {
	return mdav(ctx, z, n, d, k, workers, n >= indexMinRows && d <= indexMaxDims)
}

// mdav is MDAV; with indexed, the farthest-from-centroid query and the second group's k-NN
// come from an mdavIndex instead of passes (same partition, mdavindex.go).
func mdav(ctx context.Context, z []float64, n, d, k, workers int, indexed bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: MDAV: bad shape or k")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := newMdavState(z, n, d, k, workers, !indexed)
	defer s.close()
	var ix *mdavIndex
	var posOf []int32 // record → buffer row, while indexed
	if indexed {
		ix = newMdavIndex(z, n, d)
		ix.bigGroups = k > 16
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
				ix.delete(int(s.act[t]))
			}
		}
		g++
	}
	farthestFromCentroid := func() int {
		if ix != nil {
			return int(posOf[ix.farthest(s.cent)])
		}
		return s.farthestFrom(s.cent)
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
			// the k-NN of r, the farthest from r among the rest, and its k-NN, all from the
			// indexes
			g1, si, g2 := ix.pair(int(s.act[r]), k, workers > 1)
			emit(toPos(g1))
			if si < 0 { // the farthest from r was in g1 (exact ties): ask again without it
				si, _ = ix.farthestFrom(ix.row(int(s.act[r])))
			}
			if g2 == nil {
				g2 = ix.nearest(si, k)
			}
			emit(toPos(g2))
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
	return Canonical(labels), nil
}

// Canonical renumbers labels so that groups are numbered in the order of their smallest
// member (record 0 is in group 0). Negative labels are kept as they are.
func Canonical(labels []int32) []int32 {
	m := map[int32]int32{}
	out := make([]int32, len(labels))
	for i, l := range labels {
		if l < 0 {
			out[i] = l
			continue
		}
		c, ok := m[l]
		if !ok {
			c = int32(len(m))
			m[l] = c
		}
		out[i] = c
	}
	return out
}
