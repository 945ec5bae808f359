package microagg

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// What VMDAV, CBFS and GSMS add at scale to the queries of internal/mdavindex
// (docs/scaling.md, "vmdav, cbfs and gsms at scale"): the live rows' centroid as the scan
// computes it, the next seed, and the square-root ties of VMDAV. Like the index they keep the
// scans' answers bit for bit.

// useIndex reports whether the methods built on MDAV's queries answer them from indexes for
// an n×d table (the threshold of MDAV itself).
func useIndex(n, d int) bool { return n >= indexMinRows && d <= indexMaxDims }

// sqrtTies returns the largest float64 s' ≥ s with √s' = √s (both rounded): the squared
// distances whose rounded square roots tie with √s.
func sqrtTies(s float64) float64 {
	r := math.Sqrt(s)
	for {
		nx := math.Nextafter(s, math.Inf(1))
		if math.IsInf(nx, 1) || math.Sqrt(nx) != r {
			return s
		}
		s = nx
	}
}

// liveRows holds the rows of the live records in ascending record order in a row-major
// buffer, for the remaining centroid. A deleted record's row is overwritten with −0, the exact
// identity of floating-point addition (s + (−0) = s for every s, ±0 included), so the column
// sums over the buffer, in buffer order, are bit for bit the sums over the live records in
// ascending order that activeSet.mean computes. The buffer is compacted (stably) once an
// eighth of its rows are deleted.
type liveRows struct {
	d     int
	rows  []float64
	rec   []int32 // buffer row → record
	pos   []int32 // record → buffer row
	dead  []bool  // by record
	alive int
}

func newLiveRows(z []float64, n, d int) *liveRows {
	l := &liveRows{d: d, rows: append([]float64(nil), z[:n*d]...), rec: make([]int32, n),
		pos: make([]int32, n), dead: make([]bool, n), alive: n}
	for i := range l.rec {
		l.rec[i], l.pos[i] = int32(i), int32(i)
	}
	return l
}

// kill deletes record i (live).
func (l *liveRows) kill(i int) {
	d := l.d
	l.dead[i] = true
	l.alive--
	p := int(l.pos[i])
	for j := range l.rows[p*d : (p+1)*d] {
		l.rows[p*d+j] = math.Copysign(0, -1)
	}
	if 8*l.alive < 7*len(l.rec) {
		w := 0
		for _, r := range l.rec {
			if l.dead[r] {
				continue
			}
			copy(l.rows[w*d:(w+1)*d], l.rows[int(l.pos[r])*d:(int(l.pos[r])+1)*d])
			l.rec[w], l.pos[r] = r, int32(w)
			w++
		}
		l.rec, l.rows = l.rec[:w], l.rows[:w*d]
	}
}

// mean sets c to the mean of the live rows: activeSet.mean's value bit for bit.
func (l *liveRows) mean(c []float64) {
	colSums(c, l.rows, l.d)
	for j := range c {
		c[j] /= float64(l.alive)
	}
}

// records returns the live records in ascending order.
func (l *liveRows) records() []int {
	var out []int
	for _, r := range l.rec {
		if !l.dead[r] {
			out = append(out, int(r))
		}
	}
	return out
}

// nextSeed returns the record the next group of indexed cbfs or vmdav grows from: with the
// global centroid, the first live record of seeds (records by decreasing distance to it,
// consumed as they die); otherwise the live record farthest from the live records' mean, c
// (which it overwrites) computed as the scan computes it.
func nextSeed(global bool, seeds *[]int, live *liveRows, ix *mdavindex.Index, c []float64) int {
	if global {
		for live.dead[(*seeds)[0]] {
			*seeds = (*seeds)[1:]
		}
		return (*seeds)[0]
	}
	live.mean(c) // = R.mean over the live records
	return ix.Farthest(c)
}

// colSums sets out[j] to the sum of column j of the row-major table t (d columns) added in
// row order from +0, the rounding of a plain loop. Up to 16 columns it keeps every column's
// running sum in a lane of four AVX2 registers where the CPU has them (colSumsAVX2: a row's
// additions then issue together, about twice as fast as colSumsGo at 10 columns); otherwise
// colSumsGo.
func colSums(out, t []float64, d int) {
	rows := len(t) / d
	if useAVX2 && d >= 1 && d <= 16 {
		var mask [16]int64
		for j := range d {
			mask[j] = -1
		}
		var sums [16]float64
		if rows > 0 {
			// row b is read as whole vectors when b·d + w ≤ rows·d, w = 4·⌈d/4⌉
			w := (d + 3) &^ 3
			whole := 0
			if rows*d >= w {
				whole = min(rows, (rows*d-w)/d+1)
			}
			colSumsAVX2(&sums[0], &t[0], &mask[0], d, rows, whole)
		}
		copy(out[:d], sums[:d])
		return
	}
	colSumsGo(out, t, d)
}

// colSumsGo is colSums with up to eight columns' running sums in registers at once
// (independent chains, so their additions overlap).
func colSumsGo(out, t []float64, d int) {
	rows := len(t) / d
	j := 0
	for ; j+8 <= d; j += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+8 : b*d+j+8]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
			a4 += r[4]
			a5 += r[5]
			a6 += r[6]
			a7 += r[7]
		}
		out[j], out[j+1], out[j+2], out[j+3] = a0, a1, a2, a3
		out[j+4], out[j+5], out[j+6], out[j+7] = a4, a5, a6, a7
	}
	for ; j+4 <= d; j += 4 {
		var a0, a1, a2, a3 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+4 : b*d+j+4]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
		}
		out[j], out[j+1], out[j+2], out[j+3] = a0, a1, a2, a3
	}
	switch d - j {
	case 3:
		var a0, a1, a2 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+3 : b*d+j+3]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
		}
		out[j], out[j+1], out[j+2] = a0, a1, a2
	case 2:
		var a0, a1 float64
		for b := 0; b < rows; b++ {
			r := t[b*d+j : b*d+j+2 : b*d+j+2]
			a0 += r[0]
			a1 += r[1]
		}
		out[j], out[j+1] = a0, a1
	case 1:
		var a0 float64
		for b := 0; b < rows; b++ {
			a0 += t[b*d+j]
		}
		out[j] = a0
	}
}
