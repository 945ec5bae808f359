//go:build race

package early

// raceEnabled: the race detector's shadow memory is touched in 4 KiB pages beside the heap,
// so fault counts cannot tell how the heap is backed.
const raceEnabled = true
