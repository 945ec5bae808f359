// Package hugeheap backs the Go heap of a short-lived process with transparent huge pages.
//
// Memory a process touches for the first time costs a page fault per 4 KiB page. On the virtual
// machines sdcbench is developed on that fault costs about 13 µs, so filling a fresh table of
// 10^6 × 10 numbers (80 MB) costs 0.27 CPU-s in faults alone, more than parsing it. Linux can
// back memory with 2 MiB pages instead (one fault per 2 MiB), but in its default "madvise" mode
// only where the process asks for it with madvise(MADV_HUGEPAGE), and the Go runtime does not
// ask for its heap. Reserve asks: it grows the heap by the given number of bytes of untouched
// address space, marks that range for huge pages and frees it again, so the allocations that
// follow reuse marked memory. Up to 256 MiB on linux/amd64 the range is a goroutine stack, freed
// when its goroutine exits; otherwise it is a slice, freed by a garbage collection, which costs
// several milliseconds in a short process. docs/datapath.md ("Fresh memory: huge pages") has
// the measurements.
//
// Nothing changes in what the program computes; only how its memory is backed. Reserve is
// meant to be called once, early, by a command that is about to read a large input.
package hugeheap

import "os"

// EnvVar names the environment variable that turns Reserve off when set to "0" or "off".
const EnvVar = "SDCBENCH_HUGEPAGES"

// Result says what Reserve did.
type Result struct {
	// Bytes is the length of the range marked for huge pages (0 when nothing was marked).
	Bytes int
	// Reason says why nothing was marked, or is empty.
	Reason string
}

// Sizing of ReserveForInput.
const (
	// PerInputByte is the heap reserved per byte of input. Measured peaks (docs/datapath.md):
	// protect of a numeric CSV about 0.9 bytes of heap per input byte, eval of a table of
	// categorical keys about 4.6 (the frequency tables). Reserved address space the program does
	// not touch costs no memory, so the factor errs high.
	PerInputByte = 6
	// MinInput is the input size below which ReserveForInput reserves nothing: the faults of a
	// small heap cost less than the reservation's collections.
	MinInput = 1 << 20
	// MaxReserve caps ReserveForInput.
	MaxReserve = 16 << 30
)

// ReserveForInput reserves the heap for a program about to read input bytes of data:
// PerInputByte per byte, at most MaxReserve, nothing below MinInput (Result.Reason says so).
func ReserveForInput(input int64) (Result, error) {
	if input < MinInput {
		return Result{Reason: "input below MinInput"}, nil
	}
	return Reserve(int(min(input*PerInputByte, MaxReserve)))
}

// Reserve marks about n bytes of fresh heap address space for transparent huge pages (see the
// package comment). It does nothing, and says why in Result.Reason, when the environment
// variable SDCBENCH_HUGEPAGES is "0" or "off", when n is below one huge page, when the kernel's
// transparent huge pages are "never" (nothing to gain) or "always" (already), when the kernel
// accounts memory strictly (vm.overcommit_memory = 2), when GODEBUG has madvdontneed=0, or on
// systems other than Linux. n is capped at half the physical memory. The range is only
// reserved address space: pages the program never touches cost no memory. An error means the
// madvise call failed; the heap is usable either way.
func Reserve(n int) (Result, error) {
	if v := os.Getenv(EnvVar); v == "0" || v == "off" {
		return Result{Reason: EnvVar + "=" + v}, nil
	}
	return reserve(n)
}
