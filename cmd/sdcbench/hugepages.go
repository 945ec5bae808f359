package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/sdcbench/sdcbench/internal/hugeheap"
)

// oneShotGCPercent is the garbage collector's target of protect and eval: a heap may grow to
// five times what is live before a collection, instead of twice. These commands hold one or
// two tables for their whole run, so at census sizes their peak is the tables either way; on a
// small input the default target of 4 MB made the runtime collect several times in a 0.1 s
// process (docs/datapath.md "Start-up").
const oneShotGCPercent = 400

// oneShotMaxBudget caps oneShotGC's first goal: beyond about 1 GiB a collection is a small
// part of the process anyway, and a larger first goal would let garbage take memory that a
// smaller machine does not have.
const oneShotMaxBudget = 1 << 30

// runtimeHeapMinimum is the Go runtime's first heap goal at GOGC=100; it scales with GOGC
// (the runtime's defaultHeapMinimum, documented in the GC guide, go.dev/doc/gc-guide).
const runtimeHeapMinimum = 4 << 20

// reserveHeap marks heap address space for transparent huge pages in proportion to the sizes
// of the named input files (missing or irregular files count 0; hugeheap.ReserveForInput,
// docs/datapath.md "Fresh memory: huge pages"). SDCBENCH_HUGEPAGES=0 turns it off. A failure
// only loses the speed-up, so it is not reported.
//
// Unless the user set GOGC, it also sets the collector's target (oneShotGC), with the larger of
// the input's budget and the range actually marked as the first goal: a reservation on a stack
// is a power of two, up to twice the budget, and a heap that outgrows the budget but not the
// range would otherwise be collected once at its largest, just before the process ends (protect
// of 10^6 records of categorical keys: about 90 ms of marking, docs/datapath.md "Start-up").
// It returns what the reservation did.
func reserveHeap(paths ...string) hugeheap.Result {
	var total int64
	for _, p := range paths {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	res, _ := hugeheap.ReserveForInput(total)
	if os.Getenv("GOGC") == "" {
		oneShotGC(min(max(total*hugeheap.PerInputByte, int64(res.Bytes)), oneShotMaxBudget))
	}
	return res
}

// firstCycle is the object whose cleanup tells oneShotGC that the first collection has run; it
// holds a pointer so that the runtime does not pack it with other small objects.
type firstCycle struct{ _ *byte }

// oneShotGC sets the collector's target for a process that reads an input, works on it and
// exits: no collection before the heap first reaches about budget bytes (the heap the input
// is expected to need, ReserveForInput's size), oneShotGCPercent after that. The first goal
// is the runtime's minimum heap, which scales with GOGC, so GOGC is raised until the first
// collection has run and set back by a cleanup that runs after it; a collection costs several
// milliseconds of a 0.1 s process, while the heap the tables need is allocated anyway. The
// peak heap is then at most about max(budget, 5 × live) instead of 5 × live (docs/datapath.md
// "Start-up").
func oneShotGC(budget int64) {
	pct := max(budget/(runtimeHeapMinimum/100), oneShotGCPercent)
	debug.SetGCPercent(int(pct))
	if pct > oneShotGCPercent {
		runtime.AddCleanup(new(firstCycle), func(int) { debug.SetGCPercent(oneShotGCPercent) }, 0)
	}
}
