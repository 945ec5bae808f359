package main

import (
	"os"

	"github.com/sdcbench/sdcbench/internal/hugeheap"
)

// reserveHeap marks heap address space for transparent huge pages in proportion to the sizes
// of the named input files (missing or irregular files count 0; hugeheap.ReserveForInput,
// docs/datapath.md "Fresh memory: huge pages"). SDCBENCH_HUGEPAGES=0 turns it off. A failure
// only loses the speed-up, so it is not reported.
func reserveHeap(paths ...string) {
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
