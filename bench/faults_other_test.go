//go:build !linux

package bench

// minorFaults is 0 where the page faults are not counted.
func minorFaults() int64 { return 0 }
