package experiments

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// Profiling of runs (spec key profile = true; docs/scaling.md). The runner then adds, after the
// metric columns, one <metric>_seconds column per metric (wall time of its evaluation) and
// cpu_seconds and peak_heap_mb:
//
//   - cpu_seconds: the process's user+system CPU time from the start of the method to the end
//     of the last metric, so it counts every thread the run used;
//   - peak_heap_mb: the largest heap-object bytes seen (sampled every 2 ms, plus the end)
//     above the level after a forced GC just before the run, in MiB: what the method and the
//     metrics allocated on top of the loaded dataset, garbage not yet collected included.
//
// Both describe one run only when the run has the process to itself, so they are written only
// with one worker (Options.Workers = 1) and are NaN otherwise.

const heapMetric = "/memory/classes/heap/objects:bytes"

// heapProbe samples the heap-object bytes until stopped.
type heapProbe struct {
	base, peak uint64
	cpu0       float64
	stop       chan struct{}
	wg         sync.WaitGroup
	sample     []metrics.Sample
}

func heapBytes(s []metrics.Sample) uint64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// startProbe forces a GC, records the baseline and starts sampling.
func startProbe() *heapProbe {
	runtime.GC()
	p := &heapProbe{stop: make(chan struct{}), sample: []metrics.Sample{{Name: heapMetric}}}
	p.base = heapBytes(p.sample)
	p.peak = p.base
	p.cpu0 = cpuSeconds()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		s := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				if v := heapBytes(s); v > p.peak {
					p.peak = v
				}
			}
		}
	}()
	return p
}

// finish stops sampling and returns the CPU seconds and the peak heap above the baseline (MiB).
func (p *heapProbe) finish() (cpu, peakMB float64) {
	close(p.stop)
	p.wg.Wait()
	if v := heapBytes(p.sample); v > p.peak {
		p.peak = v
	}
	return cpuSeconds() - p.cpu0, float64(p.peak-p.base) / (1 << 20)
}
