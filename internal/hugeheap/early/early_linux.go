//go:build linux

package early

import (
	"runtime"
	"syscall"
	"unsafe"

	"github.com/sdcbench/sdcbench/internal/hugeheap/thp"
)

const (
	// heapChunk is the Go runtime's unit of heap growth (pallocChunkBytes, 4 MiB): the heap
	// is mapped in whole chunks aligned to it, so the chunk holding an address of the heap
	// is mapped to its end.
	heapChunk = 4 << 20
	// probeSize is the size of the allocation that finds the top of the heap: at least the
	// runtime's per-P page cache's limit (16 pages of 8 KiB), so that it comes from the page
	// allocator, which takes the lowest free addresses first. Fresh memory is known to be zero,
	// so the runtime does not clear it: the probe is never touched.
	probeSize = 128 << 10
)

// Back marks the start of the heap for huge pages (see the package comment): it collapses the
// huge pages of the heap's used memory in the heap's current chunk into huge pages and marks
// the rest of that chunk with MADV_HUGEPAGE. It does nothing, and says why in Result.Reason,
// when SDCBENCH_HUGEPAGES is "0" or "off", when the kernel's transparent huge pages are not in
// "madvise" mode, or when a huge page does not fit in the runtime's heap chunk (kernels whose
// base pages are larger than 4 KiB). A kernel without MADV_COLLAPSE (before 6.1), or without a
// free huge page at hand, only leaves the first page at 4 KiB (Result.Reason says so). The
// package's init calls it; calling it again later marks the same way around the heap's top
// then.
func Back() Result {
	if v, _ := syscall.Getenv(envVar); v == "0" || v == "off" {
		return Result{Reason: envVar + "=" + v}
	}
	mode, ok := thp.Mode(thp.EnabledFile)
	if !ok {
		return Result{Reason: "transparent huge pages unavailable"}
	}
	if mode != "madvise" {
		return Result{Reason: "transparent huge pages are " + mode}
	}
	page := thp.PageSize(thp.PageSizeFile)
	if page > heapChunk {
		return Result{Reason: "huge pages larger than the heap's chunks"}
	}
	return backAt(heapTop(), uintptr(page))
}

// backAt collapses the huge pages of the heap chunk holding the used memory just below top, up
// to top (marking those that nothing has touched yet, which cannot be collapsed), and marks the
// whole huge pages from there to the end of top's chunk. The used part of a chunk is not
// contiguous (the runtime's per-P page caches take aligned blocks of 64 pages), so every huge
// page below top is collapsed, not only the last one.
func backAt(top, page uintptr) Result {
	res := Result{Top: top}
	lo := (top - 1) &^ (heapChunk - 1)
	mid := (top + page - 1) &^ (page - 1)
	hi := (top + heapChunk) &^ (heapChunk - 1)
	for p := lo; p < mid; p += page {
		switch errno := thp.Collapse(p, page); errno {
		case 0:
			res.Collapsed += int(page)
		case syscall.EINVAL:
			// Nothing mapped in that huge page yet (the collapse has nothing to copy): mark it.
			if thp.Madvise(p, page, syscall.MADV_HUGEPAGE) == 0 {
				res.Marked += int(page)
			}
		default:
			res.Reason = "MADV_COLLAPSE: " + errno.Error()
		}
	}
	if mid < hi {
		if errno := thp.Madvise(mid, hi-mid, syscall.MADV_HUGEPAGE); errno != 0 {
			if res.Reason != "" {
				res.Reason += "; "
			}
			res.Reason += "MADV_HUGEPAGE: " + errno.Error()
		} else {
			res.Marked += int(hi - mid)
		}
	}
	return res
}

// heapTop returns the lowest address of the heap's free memory: where an allocation the page
// allocator serves lands (probeSize).
//
//go:noinline
func heapTop() uintptr {
	b := make([]byte, probeSize)
	top := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	runtime.KeepAlive(b)
	return top
}
