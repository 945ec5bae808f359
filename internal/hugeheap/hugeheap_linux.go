//go:build linux

package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// The kernel's settings, read at each call (no package state).
const (
	thpEnabled  = "/sys/kernel/mm/transparent_hugepage/enabled"
	thpPageSize = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
	overcommit  = "/proc/sys/vm/overcommit_memory"
)

func reserve(n int) (Result, error) {
	mode, err := thpMode(thpEnabled)
	if err != nil {
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
	page := hugePageSize(thpPageSize)
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
	return res, err
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

// thpMode returns the selected mode ("always", "madvise" or "never") of a file like
// /sys/kernel/mm/transparent_hugepage/enabled, which lists the modes with the selected one in
// brackets.
func thpMode(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return parseMode(b)
}

func parseMode(b []byte) (string, error) {
	i := bytes.IndexByte(b, '[')
	j := bytes.IndexByte(b, ']')
	if i < 0 || j < i {
		return "", fmt.Errorf("hugeheap: no selected mode in %q", b)
	}
	return string(b[i+1 : j]), nil
}

// hugePageSize returns the kernel's huge page size, 2 MiB when it cannot be read.
func hugePageSize(path string) int {
	const def = 2 << 20
	b, err := os.ReadFile(path)
	if err != nil {
		return def
	}
	v, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || v <= 0 || v&(v-1) != 0 {
		return def
	}
	return v
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
