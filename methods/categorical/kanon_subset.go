package categorical

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// errNoNeighbour reports sdcMicro's "the length of the index vector is 0": a record below k
// although every record is compatible with it (possible only with alpha < 1, where sdcMicro
// suppresses in the record itself, which suppSubset does too).
var errNoNeighbour = errors.New("a record with fk < k is compatible with every record")

// kanonTable is the key table of one kanon call: n records of p columns, row-major, code 0
// missing and level+1 otherwise; width[j] is the number of bits column j's codes need.
type kanonTable struct {
	n, p  int
	codes []int32
	width []uint
	scan  bool // use the scans (the reference) even when the codes pack in 64 bits
}

// suppSubset is sdcMicro 5.8.1's suppSubset (localSuppression.R) on the columns cols of t,
// whose codes it changes in place: (1) of every group of records with identical keys (a
// missing value counting as a value) larger than k, the records after the first k are set
// aside; (2) on the rest, while a record has fk < k (freqCalc with weight alpha for tuples
// with missing values), each such record, by decreasing risk 1/fk and then by position, loses
// one key value: in the first column of order (columns by decreasing importance) in which one
// of the records at the smallest positive distance differs from it; each pass ends with the
// frequencies recomputed; (3) the set-aside records keep their keys. order lists positions in
// cols. It returns the number of passes.
func suppSubset(ctx context.Context, t *kanonTable, cols, order []int, k int, alpha float64) (int, error) {
	if t.n < k {
		return 0, fmt.Errorf("k = %d is larger than the %d records", k, t.n)
	}
	m := len(cols)
	width := make([]uint, m)
	for j, c := range cols {
		width[j] = t.width[c]
	}
	x, packed := newWCIndex(width)
	packed = packed && !t.scan
	w, rows := reduceGroups(t, cols, k, x, packed)
	if packed {
		for i := range rows {
			key, mask := x.pack(w[i*m : (i+1)*m])
			x.add(key, mask, 1)
		}
	}
	r := len(rows)
	passes := 0
	for {
		if err := ctx.Err(); err != nil {
			return passes, err
		}
		var fk []float64
		if packed {
			fk = make([]float64, r)
			memo := map[uint64]float64{}
			for i := 0; i < r; i++ {
				key, mask := x.pack(w[i*m : (i+1)*m])
				f, ok := memo[key]
				if !ok {
					f = x.freq(key, mask, alpha, r)
					memo[key] = f
				}
				fk[i] = f
			}
		} else {
			fk = scanFreq(w, r, m, alpha)
		}
		var problem []int
		for i, f := range fk {
			if f < float64(k) {
				problem = append(problem, i)
			}
		}
		if len(problem) == 0 {
			break
		}
		passes++
		// order(rk, decreasing = TRUE) with rk = 1/fk: stable, so ties keep their position.
		slices.SortStableFunc(problem, func(a, b int) int {
			ra, rb := 1/fk[a], 1/fk[b]
			switch {
			case ra > rb:
				return -1
			case ra < rb:
				return 1
			}
			return 0
		})
		for q, i := range problem {
			if q%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return passes, err
				}
			}
			rec := w[i*m : (i+1)*m]
			var col int
			var ok bool
			if packed {
				key, mask := x.pack(rec)
				col, ok = x.nearest(key, mask, order)
			} else {
				col, ok = scanNearest(w, r, m, i, order)
			}
			if !ok {
				if alpha >= 1 {
					return passes, errNoNeighbour
				}
				// sdcMicro's special case: suppress in the record itself, in the first
				// column of order where it has a value.
				for _, c := range order {
					if rec[c] != 0 {
						col, ok = c, true
						break
					}
				}
				if !ok {
					return passes, errNoNeighbour
				}
			}
			if packed {
				key, mask := x.pack(rec)
				x.add(key, mask, -1)
				rec[col] = 0
				key, mask = x.pack(rec)
				x.add(key, mask, 1)
			} else {
				rec[col] = 0
			}
		}
	}
	for i, row := range rows {
		for j, c := range cols {
			t.codes[row*t.p+c] = w[i*m+j]
		}
	}
	return passes, nil
}

// reduceGroups returns the records kept by step (1) of suppSubset, in file order: their
// codes on cols (row-major) and their rows in t.
func reduceGroups(t *kanonTable, cols []int, k int, x *wcIndex, packed bool) ([]int32, []int) {
	m := len(cols)
	rec := make([]int32, m)
	var rows []int
	seenU := map[uint64]int{}
	seenS := map[string]int{}
	var buf []byte
	for i := 0; i < t.n; i++ {
		for j, c := range cols {
			rec[j] = t.codes[i*t.p+c]
		}
		var n int
		if packed {
			key, _ := x.pack(rec)
			n = seenU[key]
			seenU[key] = n + 1
		} else {
			buf = buf[:0]
			for _, v := range rec {
				buf = strconv.AppendInt(buf, int64(v), 36)
				buf = append(buf, ',')
			}
			n = seenS[string(buf)]
			seenS[string(buf)] = n + 1
		}
		if n < k {
			rows = append(rows, i)
		}
	}
	w := make([]int32, len(rows)*m)
	for i, row := range rows {
		for j, c := range cols {
			w[i*m+j] = t.codes[row*t.p+c]
		}
	}
	return w, rows
}

// scanFreq is freqCalc's fk of every record of the r×m table w by comparing the distinct
// tuples pairwise: the reference implementation for tables whose codes do not pack in 64 bits
// (and the tests' check of wcIndex.freq).
func scanFreq(w []int32, r, m int, alpha float64) []float64 {
	type tuple struct {
		row, cnt int
		missing  int // missing values
	}
	idx := map[string]int{}
	var ts []tuple
	of := make([]int, r)
	var buf []byte
	for i := 0; i < r; i++ {
		buf = buf[:0]
		miss := 0
		for _, v := range w[i*m : (i+1)*m] {
			buf = strconv.AppendInt(buf, int64(v), 36)
			buf = append(buf, ',')
			if v == 0 {
				miss++
			}
		}
		t, ok := idx[string(buf)]
		if !ok {
			t = len(ts)
			idx[string(buf)] = t
			ts = append(ts, tuple{row: i, missing: miss})
		}
		ts[t].cnt++
		of[i] = t
	}
	f := make([]float64, len(ts))
	for a, ta := range ts {
		if ta.missing == m {
			f[a] = float64(r)
			continue
		}
		var comp, na int
		for _, tb := range ts {
			if scanDist(w, m, ta.row, tb.row) != 0 || (ta.missing == 0 && tb.missing == m && m > 1) {
				continue
			}
			if tb.missing == 0 {
				comp += tb.cnt
			} else {
				na += tb.cnt
			}
		}
		if ta.missing == 0 {
			f[a] = float64(ta.cnt) + float64(na)*alpha
		} else {
			f[a] = float64(ta.cnt) + (float64(na-ta.cnt)*alpha + float64(comp))
		}
	}
	out := make([]float64, r)
	for i := range out {
		out[i] = f[of[i]]
	}
	return out
}

// scanDist is cpp_calcSuppInds' distance: the columns where both records have a value and
// the values differ.
func scanDist(w []int32, m, a, b int) int {
	d := 0
	ra, rb := w[a*m:(a+1)*m], w[b*m:(b+1)*m]
	for j := range ra {
		if ra[j] != 0 && rb[j] != 0 && ra[j] != rb[j] {
			d++
		}
	}
	return d
}

// scanNearest is wcIndex.nearest by a scan of every record (cpp_calcSuppInds itself).
func scanNearest(w []int32, r, m, i int, order []int) (int, bool) {
	minDist := m + 1
	var union uint64
	for t := 0; t < r; t++ {
		d := scanDist(w, m, i, t)
		if d == 0 {
			continue
		}
		var diff uint64
		ri, rt := w[i*m:(i+1)*m], w[t*m:(t+1)*m]
		for j := range ri {
			if ri[j] != 0 && rt[j] != 0 && ri[j] != rt[j] {
				diff |= 1 << uint(j)
			}
		}
		switch {
		case d < minDist:
			minDist, union = d, diff
		case d == minDist:
			union |= diff
		}
	}
	if union == 0 {
		return 0, false
	}
	for _, c := range order {
		if union&(1<<uint(c)) != 0 {
			return c, true
		}
	}
	return 0, false
}

// codeWidth returns the bits needed by codes 0..levels.
func codeWidth(levels int) uint { return uint(bits.Len(uint(levels))) }
