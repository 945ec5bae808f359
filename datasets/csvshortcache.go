package datasets

import (
	"math"
	"strconv"
)

// shortCache remembers the shortest formatting of recently written numbers, so that a table
// whose columns repeat a few values — the group means of a microaggregated release, recoded
// or rounded values — formats each value once (docs/datapath.md, "What the writer does now").
// It is set-associative: a number's bits pick one of shortSets sets of shortWays entries,
// which hold the last numbers formatted in that set (replaced in turn). The bytes it returns
// are appendShortest's, those of strconv.AppendFloat(b, v, 'g', -1, 64), by construction (an
// entry is only ever a copy of them for the same bits). A table of distinct values would only
// pay for the lookups, so after shortProbe lookups with fewer than one hit in
// shortMinHitRate the cache turns itself off. The zero value is ready to use; one cache per
// goroutine.
type shortCache struct {
	keys    [shortSets][shortWays]uint64 // the bits of each entry's number; 0: empty
	sets    [shortSets][shortWays]shortEntry
	next    [shortSets]uint8 // the way of the set to replace next
	lookups int
	hits    int
	off     bool
}

type shortEntry struct {
	n uint8 // length of s in use; 0: empty
	s [shortMaxLen]byte
}

// 256 sets of eight ways (2,048 entries; a set's keys fill one cache line): a microaggregated
// release's 500 values (10^5 × 5, k = 1,000) then miss only the first time each, where the
// direct-mapped cache of 1,024 entries before it missed 18.8 % of 10^5 lookups (values sharing
// a slot evicted one another) and 256 sets of four ways 4.7 %, 512 of four 1.5 %.
const (
	shortSetBits    = 8
	shortSets       = 1 << shortSetBits
	shortWays       = 8
	shortMaxLen     = 24 // "-2.2250738585072014e-308", the longest shortest float64
	shortProbe      = 4096
	shortMinHitRate = 8 // one hit in 8 lookups
)

// shortSet returns the set of the number with these bits.
func shortSet(bits uint64) int { return int((bits * 0x9e3779b97f4a7c15) >> (64 - shortSetBits)) }

// append appends v as appendShortest does, from the cache when it holds v's bits.
func (c *shortCache) append(b []byte, v float64) []byte {
	if c == nil || c.off {
		return appendShortest(b, v)
	}
	if t, ok := shortWhole(v); ok {
		return strconv.AppendInt(b, t, 10) // cheaper than a lookup
	}
	bits := math.Float64bits(v)
	set := shortSet(bits)
	keys, ents := &c.keys[set], &c.sets[set]
	// An empty entry's key is 0, the bits of +0, which is whole and never looked up.
	way := -1
	for w, k := range keys {
		if k == bits {
			way = w
			break
		}
	}
	c.lookups++
	if way >= 0 {
		c.hits++
	}
	if c.lookups == shortProbe && c.hits*shortMinHitRate < c.lookups {
		c.off = true
	}
	if way >= 0 {
		e := &ents[way]
		return append(b, e.s[:e.n]...)
	}
	start := len(b)
	b = appendFloatShortest(b, v)
	if n := len(b) - start; n <= shortMaxLen {
		w := c.next[set]
		c.next[set] = (w + 1) % shortWays
		keys[w] = bits
		ents[w].n = uint8(n)
		copy(ents[w].s[:], b[start:])
	}
	return b
}
