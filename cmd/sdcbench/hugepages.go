package main

import (
	"os"

	"github.com/sdcbench/sdcbench/internal/hugeheap"
)

// Heap reservation for the commands that read CSV files (docs/datapath.md, "Fresh memory").
const (
	// heapPerInputByte is the heap reserved per byte of input. Measured peaks: protect of a
	// numeric CSV about 0.9 bytes of heap per input byte, eval of a table of categorical keys
	// about 4.6 (the frequency tables). Reserved address space the program does not touch
	// costs no memory, so the factor errs high.
	heapPerInputByte = 6
	// heapMinInput is the input size below which nothing is reserved: the faults of a small
	// heap cost less than the reservation's collection.
	heapMinInput = 1 << 20
	// heapMaxReserve caps the reservation.
	heapMaxReserve = 16 << 30
)

// reserveHeap marks heap address space for transparent huge pages in proportion to the sizes
// of the named input files (missing or irregular files count 0). SDCBENCH_HUGEPAGES=0 turns
// it off. A failure only loses the speed-up, so it is not reported.
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
	if total < heapMinInput {
		return
	}
	n := min(total*heapPerInputByte, heapMaxReserve)
	_, _ = hugeheap.Reserve(int(n))
}
