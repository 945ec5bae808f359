//go:build linux

package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
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
	// A large allocation from memory the heap has never used, or has returned to the system,
	// is known to be zero: the runtime does not clear it, so nothing touches it here. So first
	// return the free memory (the holes left by earlier allocations would otherwise be part of
	// the allocation and make the runtime clear all of it), allocate, mark the whole huge pages
	// inside the allocation, and return it again. The heap's next allocations reuse the marked
	// range (the page allocator takes the lowest free addresses first; it never remaps heap
	// memory it has mapped, so the mark stays), and as returned memory it is not cleared twice.
	debug.FreeOSMemory()
	b := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + uintptr(page) - 1) &^ (uintptr(page) - 1)
	hi := (start + uintptr(n)) &^ (uintptr(page) - 1)
	var res Result
	if hi > lo {
		err = syscall.Madvise(b[lo-start:hi-start], syscall.MADV_HUGEPAGE)
		if err == nil {
			res.Bytes = int(hi - lo)
		}
	}
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	if err != nil {
		return Result{Reason: "madvise failed"}, fmt.Errorf("hugeheap: madvise: %w", err)
	}
	return res, nil
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
