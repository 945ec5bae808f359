// Package parallel runs the iterations of a loop on several goroutines; an iteration must
// write only state owned by its index (or by its worker or range), so that results do not
// depend on the number of workers or on the scheduling.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns workers, or GOMAXPROCS if workers ≤ 0.
func Workers(workers int) int {
	if workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// Each calls fn(w, i) for every i in [0, k) on min(Workers(workers), k) goroutines, w being
// the goroutine's number (0 ≤ w < Workers(workers)). Indices are handed out in increasing
// order as goroutines become free; with one goroutine the calls run on the caller's, in
// order. Each returns when every call has returned.
func Each(k, workers int, fn func(w, i int)) {
	nw := min(Workers(workers), k)
	if nw <= 1 {
		for i := range k {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range nw {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= k {
					return
				}
				fn(w, i)
			}
		})
	}
	wg.Wait()
}

// Blocks calls fn(lo, hi) for the consecutive blocks [lo, hi) of block indices that cover
// [0, n) (the last block may be shorter), through Each: the blocks do not depend on the
// number of workers.
func Blocks(n, block, workers int, fn func(lo, hi int)) {
	nb := (n + block - 1) / block
	Each(nb, workers, func(_, b int) { fn(b*block, min(n, (b+1)*block)) })
}

// Ranges splits [0, n) into nr = max(1, min(Workers(workers), n/minLen)) contiguous ranges
// [c·n/nr, (c+1)·n/nr), c in [0, nr), calls fn(c, lo, hi) for each on its own goroutine (on
// the caller's when nr = 1) and returns nr when every call has returned. Unlike Blocks, the
// ranges depend on the number of workers: it is for loops whose per-range set-up (scratch
// buffers, a workspace) would cost too much per index or per small block, and fn must still
// write only state owned by its indices, or by c, so that results do not depend on workers.
// A reduction over per-range results must merge them in range order (c ascending) with a
// rule that gives the serial answer, e.g. a strict < for "the first minimum". minLen < 1
// counts as 1.
func Ranges(n, workers, minLen int, fn func(c, lo, hi int)) int {
	nr := max(1, min(Workers(workers), n/max(minLen, 1)))
	if nr == 1 {
		fn(0, 0, n)
		return 1
	}
	var wg sync.WaitGroup
	for c := range nr {
		wg.Go(func() { fn(c, c*n/nr, (c+1)*n/nr) })
	}
	wg.Wait()
	return nr
}
