//go:build !unix

package datasets

// processCPUNanos returns −1: the process's CPU time is not read on this system.
func processCPUNanos() int64 { return -1 }
