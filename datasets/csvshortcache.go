package datasets

import (
	"math"
	"strconv"
)

// shortCache remembers the shortest formatting of recently written numbers, so that a table
// whose columns repeat a few values — the group means of a microaggregated release, recoded
// or rounded values — formats each value once (docs/datapath.md, "What the writer does now").
// It is direct-mapped: a number's bits pick one of shortSlots entries, which holds the last
// number formatted there. The bytes it returns are appendShortest's, those of
// strconv.AppendFloat(b, v, 'g', -1, 64), by construction (an entry is only ever a copy of
// them for the same bits). A table of distinct values would only pay for the lookups, so
// after shortProbe lookups with fewer than one hit in shortMinHitRate the cache turns itself
// off. The zero value is ready to use; one cache per goroutine.
type shortCache struct {
	slots   [shortSlots]shortEntry
	lookups int
	hits    int
	off     bool
}

type shortEntry struct {
	bits uint64
	n    uint8 // length of s in use; 0: empty
	s    [shortMaxLen]byte
}

const (
	shortSlotBits   = 10
	shortSlots      = 1 << shortSlotBits
	shortMaxLen     = 24 // "-2.2250738585072014e-308", the longest shortest float64
	shortProbe      = 4096
	shortMinHitRate = 8 // one hit in 8 lookups
)

// append appends v as appendShortest does, from the cache when it holds v's bits.
func (c *shortCache) append(b []byte, v float64) []byte {
	if c == nil || c.off {
		return appendShortest(b, v)
	}
	if t, ok := shortWhole(v); ok {
		return strconv.AppendInt(b, t, 10) // cheaper than a lookup
	}
	bits := math.Float64bits(v)
	e := &c.slots[(bits*0x9e3779b97f4a7c15)>>(64-shortSlotBits)]
	hit := e.n != 0 && e.bits == bits
	c.lookups++
	if hit {
		c.hits++
	}
	if c.lookups == shortProbe && c.hits*shortMinHitRate < c.lookups {
		c.off = true
	}
	if hit {
		return append(b, e.s[:e.n]...)
	}
	start := len(b)
	b = appendFloatShortest(b, v)
	if n := len(b) - start; n <= shortMaxLen {
		e.bits, e.n = bits, uint8(n)
		copy(e.s[:], b[start:])
	}
	return b
}
