package parallel

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// TestEach checks that every index is visited once and that worker numbers stay in range.
func TestEach(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 3, 16} {
		for _, k := range []int{0, 1, 2, 7, 1000} {
			hits := make([]int32, k)
			var bad atomic.Int32
			lim := Workers(workers)
			Each(k, workers, func(w, i int) {
				if w < 0 || w >= lim {
					bad.Add(1)
				}
				atomic.AddInt32(&hits[i], 1)
			})
			if bad.Load() != 0 {
				t.Errorf("workers %d, k %d: worker number out of range", workers, k)
			}
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("workers %d, k %d: index %d visited %d times", workers, k, i, h)
				}
			}
		}
	}
}

// TestEachSerialOrder: with one worker the calls run in order.
func TestEachSerialOrder(t *testing.T) {
	var got []int
	Each(5, 1, func(w, i int) { got = append(got, i) })
	if !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("order %v", got)
	}
}

// TestBlocks checks that the blocks are fixed and cover [0, n) exactly once.
func TestBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 1000} {
		cover := make([]int32, n)
		var starts []int
		Blocks(n, 64, runtime.GOMAXPROCS(0)+1, func(lo, hi int) {
			if lo%64 != 0 || hi-lo > 64 || hi > n || lo >= hi {
				t.Errorf("n %d: block [%d, %d)", n, lo, hi)
			}
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&cover[i], 1)
			}
		})
		Blocks(n, 64, 1, func(lo, _ int) { starts = append(starts, lo) })
		for i, c := range cover {
			if c != 1 {
				t.Fatalf("n %d: row %d covered %d times", n, i, c)
			}
		}
		if len(starts) != (n+63)/64 {
			t.Errorf("n %d: %d blocks", n, len(starts))
		}
	}
}

// TestRanges checks the layout of Ranges: nr contiguous ranges [c·n/nr, (c+1)·n/nr) covering
// [0, n) once, nr limited by the workers and by n/minLen.
func TestRanges(t *testing.T) {
	for _, tc := range []struct{ n, workers, minLen, nr int }{
		{0, 4, 64, 1}, {10, 4, 64, 1}, {127, 4, 64, 1}, {128, 4, 64, 2}, {1000, 4, 64, 4},
		{1000, 3, 1, 3}, {2, 8, 0, 2}, {5, 1, 1, 1},
	} {
		cover := make([]int32, tc.n)
		lows := make([]atomic.Int64, tc.nr)
		nr := Ranges(tc.n, tc.workers, tc.minLen, func(c, lo, hi int) {
			if c < 0 || c >= tc.nr || lo != c*tc.n/tc.nr || hi != (c+1)*tc.n/tc.nr {
				t.Errorf("%+v: range %d = [%d, %d)", tc, c, lo, hi)
				return
			}
			lows[c].Store(int64(lo) + 1)
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&cover[i], 1)
			}
		})
		if nr != tc.nr {
			t.Errorf("%+v: %d ranges", tc, nr)
		}
		for c := range lows {
			if lows[c].Load() == 0 {
				t.Errorf("%+v: range %d not called", tc, c)
			}
		}
		for i, v := range cover {
			if v != 1 {
				t.Fatalf("%+v: index %d covered %d times", tc, i, v)
			}
		}
	}
}
