//go:build linux

package hugeheap

import (
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"unsafe"
)

// Bounds of reserveOnStack: stacks of 2^minStackLog to 2^maxStackLog bytes (4 MiB to 256 MiB).
// Larger reservations go to reserveByCollection: the runtime clears memory reused from a stack,
// a cost that grows with the heap (and touches slices' unused capacity too), while the one
// collection costs about the same at any input size. A 256 MiB stack serves inputs of about
// 22–43 MB (two tables of 10^5 × 10 numbers, or one of 10^6 categorical keys), where the
// collection cost more than the clearing; at 512 MiB (eval of two tables of 10^6 keys) it
// was the other way round (docs/datapath.md, "Fresh memory: huge pages").
const (
	minStackLog = 22
	maxStackLog = 28
	// stackSlack bounds the stack a goroutine uses around the probe in reserveOnStack: its
	// own frames above, the calls that follow below. Those pages are touched and not marked.
	stackSlack = 64 << 10
)

// reserveOnStack marks about n bytes of fresh heap address space for huge pages without a
// garbage collection, which costs several milliseconds in a short process (docs/datapath.md
// "Fresh memory: huge pages"). The runtime allocates a goroutine's stack from the heap, and
// when a function needs a larger frame than the stack has left it moves the goroutine to a new
// stack of twice the size, or of the next power of two that fits the frame, copying only the
// part in use; when a goroutine with a stack of other than the starting size exits, its stack
// goes back to the heap at once (outside a collection). So a goroutine calls a function whose
// frame is half of a stack of 2^k ≥ n bytes (growStackTo, in assembly: the frame is never
// written), passes out the address of one of its variables, and exits; the stack, untouched
// below its top frames, is then free heap memory, and it is marked. The heap's next
// allocations take it (the page allocator takes the lowest free addresses first and never
// remaps heap memory it has mapped, so the mark stays); unlike memory returned to the system
// it is cleared on reuse, a cost of memory bandwidth rather than of faults.
//
// It reports ok = false, having done nothing, where it does not apply: no such function on
// this architecture, n beyond 2^maxStackLog, or a stack limit (debug.SetMaxStack) below the
// stack it needs.
func reserveOnStack(n, page int) (res Result, ok bool, err error) {
	k := max(bits.Len(uint(n+2*page+2*stackSlack-1)), minStackLog)
	if k > maxStackLog || !haveStackGrowers {
		return Result{}, false, nil
	}
	size := 1 << k
	// Read the limit by setting it: briefly to no limit, so that no goroutine can fail.
	limit := debug.SetMaxStack(math.MaxInt)
	debug.SetMaxStack(limit)
	if limit < size {
		return Result{}, false, nil
	}
	before := runtime.NumGoroutine()
	addr := make(chan uintptr)
	go func() {
		growStackTo(k)
		var probe byte
		addr <- uintptr(unsafe.Pointer(&probe))
	}()
	sp := <-addr
	// The runtime frees the stack as the goroutine exits, just before the goroutine stops
	// counting in NumGoroutine.
	for i := 0; i < 10000 && runtime.NumGoroutine() >= before+1; i++ {
		runtime.Gosched()
	}
	// The stack is [hi-size, hi) with sp < hi ≤ sp+stackSlack.
	base := sp + stackSlack - uintptr(size)
	res, err = madviseHuge(base, sp-stackSlack, page)
	if err == nil && res.Bytes > 0 {
		collapseBelow(base, page)
	}
	return res, true, err
}
