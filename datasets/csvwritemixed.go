package datasets

import (
	"bytes"
	"slices"
)

// The writer's numbers of a table with categories (appendMixedRows). A release with one text
// column among numeric ones — global_recode's intervals among the columns it leaves alone —
// was written cell by cell (appendRows's loop: a switch on the kind of each cell, a call of
// the number cache for each number) even after both caches had turned themselves off, at
// about the cost of formatting every number one by one; the numeric columns of a block are
// now gathered and formatted shortChunk at a time by the numeric writer (appendChunks), and
// the rows put together from that text and the labels (docs/datapath.md, "What the writer
// does now").

// mixedSeg is a run of the columns of a row: one categorical column, or n numeric columns
// in a row.
type mixedSeg struct {
	col  int  // the first column of the run
	n    int  // numeric columns in the run; 0: categorical column col
	last bool // the run holds the row's last numeric column
}

// mixedScratch is what appendMixedRows keeps between blocks: the numbers of a block and their
// text.
type mixedScratch struct {
	nums []float64
	text []byte
}

// mixedSegs returns the runs of the columns of a table with categories levels (levels[j] nil:
// column j is numeric) and the number of numeric columns.
func mixedSegs(levels [][][]byte) (segs []mixedSeg, q int) {
	for j, l := range levels {
		switch {
		case l != nil:
			segs = append(segs, mixedSeg{col: j})
		case len(segs) > 0 && segs[len(segs)-1].n > 0:
			segs[len(segs)-1].n++
			q++
		default:
			segs = append(segs, mixedSeg{col: j, n: 1})
			q++
		}
	}
	for s := len(segs) - 1; s >= 0; s-- {
		if segs[s].n > 0 {
			segs[s].last = true
			break
		}
	}
	return segs, q
}

// appendMixedRows appends rows [from, to) of a table with categories and numeric columns
// (f.levels set, f.segs from mixedSegs) as appendRows's loop does when neither of its caches
// is in use: the numbers of the numeric columns are formatted by appendChunks (appendShortest's
// bytes, shortChunk at a time) into ms.text as rows of q numbers, and each row is then the
// labels (f.na for a missing code, "NA" for one outside the levels) and the numbers' text
// between them, comma-separated. ok is false, and b unchanged, when a numeric cell of the
// rows is missing (appendRows writes it as f.na, not as appendChunks's "NaN"): the caller
// then writes those rows cell by cell. TestAppendMixedRows compares it with appendRows.
func (f *rowFormatter) appendMixedRows(b []byte, from, to, q int, ms *mixedScratch) (_ []byte, ok bool) {
	d := f.d
	p := d.P
	n := to - from
	x := slices.Grow(ms.nums[:0], n*q)[:n*q]
	k := 0
	for i := from; i < to; i++ {
		row := d.Data[i*p : (i+1)*p]
		for _, s := range f.segs {
			for _, v := range row[s.col : s.col+s.n] {
				if v != v {
					ms.nums = x
					return b, false
				}
				x[k] = v
				k++
			}
		}
	}
	ms.nums = x
	t := ms.text[:0]
	if need := n * (25*q + 1); cap(t) < need { // room for the longest numbers: no growing
		t = make([]byte, 0, need)
	}
	t = appendChunks(t, x, q, true)
	ms.text = t
	pos := 0
	for i := from; i < to; i++ {
		row := d.Data[i*p : (i+1)*p]
		for s, seg := range f.segs {
			if s > 0 {
				b = append(b, ',')
			}
			if seg.n == 0 {
				b = f.appendLabel(b, seg.col, row[seg.col])
				continue
			}
			var end int
			if seg.last { // up to the newline that ends the row's numbers
				end = pos + bytes.IndexByte(t[pos:], '\n')
			} else { // up to the comma after the run's last number
				end = pos - 1
				for range seg.n {
					end += 1 + bytes.IndexByte(t[end+1:], ',')
				}
			}
			b = append(b, t[pos:end]...)
			pos = end + 1
		}
		b = append(b, '\n')
	}
	return b, true
}
