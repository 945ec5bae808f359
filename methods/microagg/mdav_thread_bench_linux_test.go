package microagg

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// BenchmarkMDAVThreadCPU runs the indexed MDAV (k = 3, every CPU) on SDCBENCH_MDAV_N × 10
// normal rows (default 200,000) and reports the CPU time of the calling thread, which runs
// the whole step loop, beside the process's CPU time and the wall time. On a loaded machine
// the thread's CPU time estimates the wall time of a quiet one, where work moved to another
// goroutine (the tree's background rebuild) runs beside it (docs/scaling.md).
func BenchmarkMDAVThreadCPU(b *testing.B) {
	n, d := 200_000, 10
	if s := os.Getenv("SDCBENCH_MDAV_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	z := mdavtest.Tables(n, d, 1)["normal"]
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		var ts0, ts1 unix.Timespec
		var ru0, ru1 syscall.Rusage
		_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts0)
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t0 := time.Now()
		if _, err := MDAV(context.Background(), z, n, d, 3, 0); err != nil {
			b.Fatal(err)
		}
		wall := time.Since(t0)
		_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts1)
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := func(r syscall.Rusage) float64 {
			return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
		}
		b.ReportMetric(float64(ts1.Nano()-ts0.Nano())/1e9, "thread-cpu-s")
		b.ReportMetric(cpu(ru1)-cpu(ru0), "process-cpu-s")
		b.ReportMetric(wall.Seconds(), "wall-s")
	}
}
