//go:build !linux

package dfo

import "time"

// threadCPU returns a function that reports 0: per-thread CPU time is read on Linux only.
func threadCPU() func() time.Duration { return func() time.Duration { return 0 } }
