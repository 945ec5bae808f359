package dfo

import (
	"testing"
	"time"
)

// threadCPU counts the CPU time of busy work on the locked thread and none of a sleep.
func TestThreadCPU(t *testing.T) {
	stop := threadCPU()
	x := 0.0
	for t0 := time.Now(); time.Since(t0) < 30*time.Millisecond; {
		x += 1e-9
	}
	busy := stop()
	stop = threadCPU()
	time.Sleep(30 * time.Millisecond)
	idle := stop()
	if busy <= 0 || busy > 5*time.Second || idle >= 20*time.Millisecond || x == 0 {
		t.Errorf("busy %v, idle %v", busy, idle)
	}
}
