package dfo

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU locks the calling goroutine to its OS thread and returns a function that reports
// the CPU time (user + system) the thread used since, and unlocks it. On a loaded machine the
// wall time of a run mostly measures the other jobs; this measures the run. Linux only
// (RUSAGE_THREAD); elsewhere the result is 0.
func threadCPU() func() time.Duration {
	runtime.LockOSThread()
	t0, ok := rusageThread()
	return func() time.Duration {
		t1, ok1 := rusageThread()
		runtime.UnlockOSThread()
		if !ok || !ok1 {
			return 0
		}
		return t1 - t0
	}
}

const rusageThreadWho = 1 // RUSAGE_THREAD

func rusageThread() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThreadWho, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) time.Duration {
		return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
	}
	return tv(ru.Utime) + tv(ru.Stime), true
}
