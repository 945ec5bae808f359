package datasets

import "math"

// rowCache remembers the bytes of recently written rows, keyed by the bits of their values, so
// that a table whose rows repeat — the release of a microaggregation, where every record of a
// group has the group's row of means — formats each distinct row once and copies it after
// that (docs/datapath.md, "What the writer does now"). A row's bytes are a function of its
// values' bits alone (rowFormatter.appendRows), so a copy is the bytes of formatting it
// again. It is set-associative: a row's hash picks one of rowSets sets of rowWays entries,
// replaced in turn. A table whose rows rarely repeat would only pay for the lookups, so
// after rowProbe lookups with fewer than one hit in rowMinHitRate the cache turns itself
// off, and a table of more than rowMaxCols columns does not use it. The zero value is ready
// to use (its memory is allocated at the first lookup); one cache per goroutine.
type rowCache struct {
	p       int      // the number of columns; 0 before the first lookup
	keys    []uint64 // rowSets·rowWays rows of p bits
	used    []bool   // whether each entry holds a row
	n       []uint16 // the length of each entry's bytes
	bytes   []byte   // rowSets·rowWays slots of width bytes
	width   int
	next    [rowSets]uint8 // the way of each set to replace next
	lookups int
	hits    int
	off     bool
}

// 64 sets of four ways (256 rows): the 100 distinct rows of a microaggregated 10^5 × 5
// release with k = 1,000 fit, in about 40 KB per goroutine.
const (
	rowSetBits    = 6
	rowSets       = 1 << rowSetBits
	rowWays       = 4
	rowMaxCols    = 16
	rowProbe      = 1024
	rowMinHitRate = 4 // one hit in 4 lookups
)

// lookup returns the cached bytes of row (newline excluded) and whether they were cached;
// when they were not, slot is the entry that store fills.
func (r *rowCache) lookup(row []float64) (b []byte, slot int, ok bool) {
	if r.off || len(row) > rowMaxCols || len(row) == 0 {
		return nil, -1, false
	}
	if r.p != len(row) {
		r.init(len(row))
	}
	h := uint64(0)
	for _, v := range row {
		h = (h ^ math.Float64bits(v)) * 0x9e3779b97f4a7c15
	}
	set := int(h >> (64 - rowSetBits))
	r.lookups++
	p := r.p
	for w := range rowWays {
		e := set*rowWays + w
		if !r.used[e] || !sameBits(r.keys[e*p:(e+1)*p], row) {
			continue
		}
		r.hits++
		return r.bytes[e*r.width : e*r.width+int(r.n[e])], -1, true
	}
	if r.lookups == rowProbe && r.hits*rowMinHitRate < r.lookups {
		r.off = true
		return nil, -1, false
	}
	w := r.next[set]
	r.next[set] = (w + 1) % rowWays
	return nil, set*rowWays + int(w), false
}

// unused reports whether lookup of a row of p values would find nothing and store nothing:
// the cache has turned itself off, or such rows are too wide for it.
func (r *rowCache) unused(p int) bool { return r.off || p > rowMaxCols || p == 0 }

// store remembers b, the bytes of row, in slot (from lookup) when they fit.
func (r *rowCache) store(slot int, row []float64, b []byte) {
	if slot < 0 {
		return
	}
	if len(b) > r.width {
		r.used[slot] = false
		return
	}
	p := r.p
	for j, v := range row {
		r.keys[slot*p+j] = math.Float64bits(v)
	}
	r.used[slot] = true
	r.n[slot] = uint16(copy(r.bytes[slot*r.width:(slot+1)*r.width], b))
}

// init allocates the cache for rows of p columns.
func (r *rowCache) init(p int) {
	const entries = rowSets * rowWays
	r.p = p
	r.width = p * (shortMaxLen + 1) // every number and its separator
	r.keys = make([]uint64, entries*p)
	r.used = make([]bool, entries)
	r.n = make([]uint16, entries)
	r.bytes = make([]byte, entries*r.width)
	r.next = [rowSets]uint8{}
}

// sameBits reports whether the values of row have the bits in keys.
func sameBits(keys []uint64, row []float64) bool {
	for j, v := range row {
		if keys[j] != math.Float64bits(v) {
			return false
		}
	}
	return true
}
