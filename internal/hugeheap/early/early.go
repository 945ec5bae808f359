// Package early backs the start of the Go heap with transparent huge pages while a program's
// packages are being initialised. Import it for its side effect, from a command's main package:
//
//	import _ "github.com/sdcbench/sdcbench/internal/hugeheap/early"
//
// Memory a process touches for the first time costs a page fault per 4 KiB page, about 13 µs
// on the virtual machines sdcbench is developed on. The initialisation of sdcbench's packages
// (and of the packages it links) spreads its allocations over the first 2–3 MiB of the heap,
// one size class after another, and took about 300 such faults before main ran; a command
// that then reads an input filled the rest of that first chunk of heap at 4 KiB too, before
// it reached the range internal/hugeheap marked (docs/datapath.md, "Fresh memory: huge
// pages" and "Start-up"). Linux in its default "madvise" mode backs memory with 2 MiB pages
// only where the process asks, and the Go runtime does not ask for its heap.
//
// This package asks as early as the program's initialisation allows: it imports nothing but
// the runtime, syscall, unsafe and internal/hugeheap/thp (itself only syscall), so the linker
// initialises it before most packages (before the fonts, templates and registries that
// allocate most). Its init finds the top of the
// heap's used memory, turns the huge pages of the heap chunk below it into huge pages at once
// (madvise(MADV_COLLAPSE), Linux 6.1: the pages already touched are copied, the rest is then
// backed without faults) and marks the rest of that chunk for huge pages
// (madvise(MADV_HUGEPAGE)), so that the heap's next few MiB take at most one fault per 2 MiB.
//
// Nothing changes in what the program computes; only how its memory is backed. The same
// switches as internal/hugeheap's turn it off: the environment variable SDCBENCH_HUGEPAGES set
// to "0" or "off", and the kernel's transparent huge pages set to "never" (or "always",
// where nothing is left to ask).
package early

// Result says what Back did.
type Result struct {
	// Collapsed is the length of the range turned into huge pages at once (MADV_COLLAPSE),
	// Marked that of the range marked for huge pages (MADV_HUGEPAGE); both 0 when nothing was
	// done.
	Collapsed, Marked int
	// Top is the lowest address of the heap's free memory that Back found (0 when it did not
	// look): the heap chunk holding the byte below Top, from its start, and Top's chunk to its
	// end are backed by huge pages when nothing failed.
	Top uintptr
	// Reason says why nothing was done, or why a step failed; it is empty when both steps
	// succeeded or were not needed.
	Reason string
}

// envVar is internal/hugeheap's EnvVar (this package imports no other, so that it is
// initialised early).
const envVar = "SDCBENCH_HUGEPAGES"

// atInit is what the package's init did.
var atInit = Back()

// AtInit returns what the package's initialisation did (Back's Result).
func AtInit() Result { return atInit }
