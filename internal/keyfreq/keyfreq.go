// Package keyfreq counts, for every record of a table, the records compatible with it on a set
// of key columns, a missing value (NaN) matching anything (sdcMicro freqCalc; metrics.md §4.1).
package keyfreq

import "math"

// Bits returns a hashable form of v: its bit pattern, with −0 as +0 and every NaN as one value.
func Bits(v float64) uint64 {
	if v != v {
		return 0x7ff8000000000001
	}
	return math.Float64bits(v + 0)
}

// AppendKey appends to buf the key of row i of the row-major table d (p columns) on columns cols:
// the little-endian Bits of each value, so that rows with equal keys get equal byte strings.
func AppendKey(buf []byte, d []float64, p, i int, cols []int) []byte {
	for _, l := range cols {
		b := Bits(d[i*p+l])
		for t := 0; t < 8; t++ {
			buf = append(buf, byte(b>>(8*t)))
		}
	}
	return buf
}

// Count returns, for each row j of the n×p row-major table d, f[j], the number of rows
// compatible with j on the key columns cols, and F[j], the sum of their weights w (F = f when
// w is nil): row i is compatible with j iff on every key x_ik = x_jk or one of them is missing
// (NaN). Counts are exact sums of whole numbers (and of w in first-appearance order of the
// distinct key tuples). Cost O(n·m + u·c·m) for m keys, u distinct key tuples with a missing
// value and c distinct tuples in all. d, cols and w are not modified.
func Count(d []float64, n, p int, cols []int, w []float64) (f, F []float64) {
	type tuple struct {
		row       int // first record with this tuple
		cnt, wsum float64
		missing   bool
	}
	idx := map[string]int{}
	var tuples []tuple
	of := make([]int, n)
	var buf []byte
	for i := 0; i < n; i++ {
		buf = AppendKey(buf[:0], d, p, i, cols)
		t, ok := idx[string(buf)]
		if !ok {
			t = len(tuples)
			idx[string(buf)] = t
			miss := false
			for _, l := range cols {
				miss = miss || math.IsNaN(d[i*p+l])
			}
			tuples = append(tuples, tuple{row: i, missing: miss})
		}
		of[i] = t
		tuples[t].cnt++
		if w != nil {
			tuples[t].wsum += w[i]
		} else {
			tuples[t].wsum++
		}
	}
	compatible := func(a, b int) bool {
		ra, rb := d[a*p:(a+1)*p], d[b*p:(b+1)*p]
		for _, l := range cols {
			x, y := ra[l], rb[l]
			if x != y && x == x && y == y {
				return false
			}
		}
		return true
	}
	tf, tF := make([]float64, len(tuples)), make([]float64, len(tuples))
	for t, tu := range tuples {
		tf[t], tF[t] = tu.cnt, tu.wsum
	}
	for t, tu := range tuples {
		if !tu.missing {
			continue
		}
		tf[t], tF[t] = 0, 0 // recount everything compatible, itself included
		for s, su := range tuples {
			if compatible(tu.row, su.row) {
				tf[t] += su.cnt
				tF[t] += su.wsum
				if !su.missing && s != t {
					tf[s] += tu.cnt
					tF[s] += tu.wsum
				}
			}
		}
	}
	f, F = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		f[i], F[i] = tf[of[i]], tF[of[i]]
	}
	return f, F
}
