package bench

import "syscall"

// minorFaults returns the process's minor page faults so far (first touches of fresh memory,
// about 13 µs each on this machine's VM; docs/datapath.md "Copies of the table").
func minorFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Minflt
}
