package keyfreq

import "math/bits"

// Classes are the exact key tuples of a table: two records share a tuple iff their values are
// equal on every key column (Bits equality, −0 = +0), a missing value equal only to a missing
// value. They are the tuples of Frequencies without its frequencies with a missing value as a
// wildcard, for measures that group records by their exact keys (l-diversity, SUDA; metrics.md
// §4.5 and §4.6).
type Classes struct {
	Of    []int32   // the tuple of each record
	Count []float64 // per tuple: its records
	// Codes[k·c+t], when asked for, is the code of key k in tuple t (of c; key by key, so that
	// a key's codes are contiguous): 0 for a missing value, else 1..Levels[k], the distinct
	// values of the key column numbered from 1.
	Codes  []uint32
	Levels []int
}

// Exact returns the exact key tuples of the n×p row-major table d on the key columns cols,
// and, if codes, each tuple's key codes. The numbering of the tuples is unspecified. d and cols
// are not modified.
//
// It takes the paths of Frequencies up to the distinct tuples and stops there: the keys coded
// in one row-wise pass and the tuples found by splitTuples' partition on the high bits of the
// mixed-radix numbers and a direct array on the low bits (a missing value a digit of its own,
// with no renumbering by first appearance), else the tuples of distinctKeys or distinct. With
// missing key values that skips the joins of the patterns of missing keys, which l-diversity
// and SUDA do not use (docs/scaling.md, "Exact key tuples"). Cost O(n·m) on the first path.
func Exact(d []float64, n, p int, cols []int, codes bool) Classes {
	m := len(cols)
	switch {
	case n == 0:
		return Classes{Of: []int32{}, Count: []float64{}, Levels: make([]int, m)}
	case m == 0: // one tuple, the empty one
		return Classes{Of: make([]int32, n), Count: []float64{float64(n)}, Codes: []uint32{}, Levels: []int{}}
	}
	var ts *tuples
	if buf, levels, missing, ok := codeRows(d, n, p, cols, false); ok {
		// Without a missing value the codes 1..L_k are the digits 0..L_k−1 (radix L_k), as in
		// completeTuples; with one, code 0 is a digit of its own (radix L_k + 1).
		off, radix := uint64(0), make([]int, m)
		for k, L := range levels {
			radix[k] = L + 1
			if !missing {
				radix[k] = L
			}
		}
		if !missing {
			off = 1
		}
		if mult, span, fits := mixedRadix(radix, 1<<32); fits {
			if of, cnt, num, ok := splitTuples(buf, n, m, mult, off, span, maxSplitBits, codes); ok {
				c := Classes{Of: of, Count: cnt, Levels: levels}
				if codes {
					c.Codes = digitsOf(num, radix, uint32(off))
				}
				return c
			}
		}
		if keys, ok := rowKeys(buf, n, m, levels); ok {
			ts = distinctKeys(keys, n, m, levels, nil, newHasher(levels))
		}
	}
	if ts == nil {
		ts, _ = distinctOf(d, n, p, cols, nil)
	}
	c := Classes{Of: ts.of, Count: ts.cnt, Levels: ts.levels}
	if codes {
		nt := len(ts.cnt)
		c.Codes = make([]uint32, len(ts.codes))
		for t := range nt {
			for k, x := range ts.codes[t*m : (t+1)*m] {
				c.Codes[k*nt+t] = x
			}
		}
	}
	return c
}

// mixedRadix returns the place values of the digits of radixes radix (the first digit least
// significant) and their product span; fits is false when span would exceed limit.
func mixedRadix(radix []int, limit uint64) (mult []uint64, span uint64, fits bool) {
	mult = make([]uint64, len(radix))
	span = 1
	for k, r := range radix {
		mult[k] = span
		hi, lo := bits.Mul64(span, uint64(r))
		if hi != 0 || lo > limit {
			return nil, 0, false
		}
		span = lo
	}
	return mult, span, true
}

// digitsOf returns the codes of the tuples with mixed-radix numbers num (radixes radix, the
// first digit least significant): code = digit + off, key k's code of tuple t at
// k·len(num) + t.
func digitsOf(num []uint32, radix []int, off uint32) []uint32 {
	m := len(radix)
	out := make([]uint32, len(num)*m)
	div := make([]uint64, m)
	for k, r := range radix {
		div[k] = divideBy(uint32(r))
	}
	for t, x := range num {
		rest := x
		for k, r := range radix {
			q := rest
			if div[k] != 0 {
				hi, _ := bits.Mul64(uint64(rest), div[k])
				q = uint32(hi)
			}
			out[k*len(num)+t] = rest - q*uint32(r) + off
			rest = q
		}
	}
	return out
}
