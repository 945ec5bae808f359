package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the whole command to path (the environment
// variable SDCBENCH_CPUPROFILE; docs/datapath.md) and returns the function that stops it.
// An empty path profiles nothing; a file that cannot be created is reported on stderr and the
// command runs unprofiled.
func startCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdcbench: SDCBENCH_CPUPROFILE:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "sdcbench: SDCBENCH_CPUPROFILE:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "sdcbench: SDCBENCH_CPUPROFILE:", err)
		}
	}
}
