package main

import (
	"os"
	"runtime/debug"

	"github.com/sdcbench/sdcbench/internal/hugeheap"
)

// oneShotGCPercent is the garbage collector's target of protect and eval: a heap may grow to
// five times what is live before a collection, instead of twice. These commands hold one or
// two tables for their whole run, so at census sizes their peak is the tables either way; on a
// small input the default target of 4 MB made the runtime collect several times in a 0.1 s
// process (docs/datapath.md "Start-up").
const oneShotGCPercent = 400

// reserveHeap marks heap address space for transparent huge pages in proportion to the sizes
// of the named input files (missing or irregular files count 0; hugeheap.ReserveForInput,
// docs/datapath.md "Fresh memory: huge pages"). SDCBENCH_HUGEPAGES=0 turns it off. A failure
// only loses the speed-up, so it is not reported.
//
// Unless the user set GOGC, it also raises the collector's target to oneShotGCPercent.
func reserveHeap(paths ...string) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(oneShotGCPercent)
	}
	var total int64
	for _, p := range paths {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	_, _ = hugeheap.ReserveForInput(total)
}
