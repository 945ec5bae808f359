//go:build linux

package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"syscall"
	"unsafe"

	"github.com/sdcbench/sdcbench/internal/hugeheap/thp"
)

// The kernel's settings, read at each call (no package state).
const (
	thpEnabled  = thp.EnabledFile
	thpPageSize = thp.PageSizeFile
	overcommit  = "/proc/sys/vm/overcommit_memory"
)

func reserve(n int) (Result, error) {
	mode, ok := thp.Mode(thpEnabled)
	if !ok {
		return Result{Reason: "transparent huge pages unavailable"}, nil
	}
	if mode != "madvise" {
		return Result{Reason: "transparent huge pages are " + mode}, nil
	}
	if b, err := os.ReadFile(overcommit); err == nil && string(bytes.TrimSpace(b)) == "2" {
		// Strict accounting: reserved address space counts against the commit limit, and a
		// refused allocation is fatal in Go.
		return Result{Reason: "strict overcommit accounting"}, nil
	}
	if godebugMadvDontNeedOff(os.Getenv("GODEBUG")) {
		// Returned memory is then not known to be zero: the allocation would be cleared,
		// touching every page before the mark.
		return Result{Reason: "GODEBUG madvdontneed=0"}, nil
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err == nil {
		n = min(n, int(uint64(si.Totalram)*uint64(si.Unit)/2))
	}
	page := thp.PageSize(thpPageSize)
	if n < 2*page {
		return Result{Reason: "too small"}, nil
	}
	if res, ok, err := reserveOnStack(n, page); ok {
		return res, err
	}
	return reserveByCollection(n, page)
}

// reserveByCollection is Reserve's way where reserveOnStack cannot be used: a large allocation
// from memory the heap has never used, or has returned to the system, is known to be zero, so
// the runtime does not clear it and nothing touches it here. It allocates n bytes, marks the
// whole huge pages inside the allocation and returns them to the system with
// debug.FreeOSMemory, which collects first. The heap's next allocations reuse the marked range
// (the page allocator takes the lowest free addresses first and never remaps heap memory it
// has mapped, so the mark stays), and as returned memory it is not cleared on reuse either.
//
// Collections cost several milliseconds in a short process (docs/datapath.md), so the
// collector is off while the allocation is made (its size would otherwise start one), and the
// free memory is returned beforehand only if a collection has already run: before the first
// one no memory has been freed that the allocation could overlap, except stacks, which
// rarely lie at the top of the heap.
func reserveByCollection(n, page int) (Result, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	if gcCycles() > 0 {
		debug.FreeOSMemory()
	}
	b := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	res, err := madviseHuge(start, start+uintptr(n), page)
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	if err == nil && res.Bytes > 0 {
		collapseBelow(start, page)
	}
	return res, err
}

// collapseBelow backs the huge page holding lo, the start of a reserved range, with a huge
// page, when lo is not on a huge page's boundary. madviseHuge marks only the whole huge pages
// inside the range; the part of the range below the first boundary shares its huge page with
// memory the heap has used, touched at 4 KiB, so the kernel would back the rest of it at 4 KiB
// too, and that part is the first the heap hands out after the reservation (the tables read
// next: up to 512 faults of 4 KiB). So that page is collapsed at once (madvise(MADV_COLLAPSE),
// Linux 6.1: the pages in use are copied, the rest is backed without faults); a page nothing
// has touched yet cannot be collapsed (EINVAL), and is marked instead, which it can still use.
// It is called after the range was freed (and, by reserveByCollection, returned to the
// system: a huge page released in part would be split again). A failure (no huge page at
// hand, a kernel before 6.1) only leaves that page at 4 KiB.
func collapseBelow(lo uintptr, page int) {
	p := lo &^ (uintptr(page) - 1)
	if p == lo {
		return
	}
	if thp.Collapse(p, uintptr(page)) == syscall.EINVAL { // nothing mapped in it yet
		thp.Madvise(p, uintptr(page), syscall.MADV_HUGEPAGE)
	}
}

// madviseHuge marks the whole huge pages of size page inside [lo, hi) for transparent huge
// pages.
func madviseHuge(lo, hi uintptr, page int) (Result, error) {
	lo = (lo + uintptr(page) - 1) &^ (uintptr(page) - 1)
	hi &^= uintptr(page) - 1
	if hi <= lo {
		return Result{Reason: "too small"}, nil
	}
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE); e != 0 {
		return Result{Reason: "madvise failed"}, fmt.Errorf("hugeheap: madvise: %w", e)
	}
	return Result{Bytes: int(hi - lo)}, nil
}

// gcCycles returns the number of completed garbage collections.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 1 // unknown: assume memory has been freed
	}
	return s[0].Value.Uint64()
}

// godebugMadvDontNeedOff reports whether a GODEBUG value sets madvdontneed=0 (the last setting
// wins, as in the runtime).
func godebugMadvDontNeedOff(godebug string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == "madvdontneed" {
			off = v == "0"
		}
	}
	return off
}
