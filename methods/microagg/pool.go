package microagg

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// pool is a fixed set of goroutines that run the pass blocks of one MDAV call. run splits the
// blocks into contiguous runs, one per worker (the caller takes the first), so each worker
// keeps streaming the same part of the buffer from pass to pass. Passes are short (tens of
// microseconds) and come back to back, so idle workers spin briefly on a generation counter
// before parking; a parked worker is woken through its channel.
type pool struct {
	workers int
	gen     atomic.Uint64
	pending atomic.Int64
	f       func(b int)
	nb      int
	wake    []chan struct{}
	parked  []atomic.Bool
	closed  atomic.Bool
	wg      sync.WaitGroup
}

const spinLimit = 1 << 14

func newPool(workers int) *pool {
	p := &pool{workers: workers, wake: make([]chan struct{}, workers), parked: make([]atomic.Bool, workers)}
	for i := 1; i < workers; i++ {
		p.wake[i] = make(chan struct{}, 1)
		p.wg.Add(1)
		go p.loop(i)
	}
	return p
}

func (p *pool) loop(i int) {
	defer p.wg.Done()
	var seen uint64
	for {
		spins := 0
		for p.gen.Load() == seen {
			if p.closed.Load() {
				return
			}
			if spins++; spins < spinLimit {
				if spins&255 == 0 {
					runtime.Gosched()
				}
				continue
			}
			p.parked[i].Store(true)
			if p.gen.Load() == seen && !p.closed.Load() {
				<-p.wake[i]
			}
			p.parked[i].Store(false)
			spins = 0
		}
		seen = p.gen.Load()
		p.span(i)
		p.pending.Add(-1)
	}
}

func (p *pool) span(i int) {
	w := min(p.workers, p.nb)
	if i >= w {
		return
	}
	for b := i * p.nb / w; b < (i+1)*p.nb/w; b++ {
		p.f(b)
	}
}

// run calls f(b) for b in [0, nb) and returns when all calls have returned.
func (p *pool) run(nb int, f func(b int)) {
	p.f, p.nb = f, nb
	p.pending.Store(int64(p.workers - 1))
	p.gen.Add(1)
	for i := 1; i < p.workers; i++ {
		if p.parked[i].Load() {
			select {
			case p.wake[i] <- struct{}{}:
			default:
			}
		}
	}
	p.span(0)
	for spins := 0; p.pending.Load() > 0; spins++ {
		if spins > 1000 {
			runtime.Gosched() // another process may hold the CPU the worker needs
		}
	}
}

func (p *pool) close() {
	p.closed.Store(true)
	for i := 1; i < p.workers; i++ {
		select {
		case p.wake[i] <- struct{}{}:
		default:
		}
	}
	p.wg.Wait()
}
