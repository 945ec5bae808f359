package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// writeCSV writes d; with custom, tok replaces every missing cell. Each block of rows
// (rowFormatter.write) is formatted into a reused buffer:
// numbers in the bytes of strconv.AppendFloat ('g', −1) (appendShortest), labels and tokens
// from their encodings made once per level by encoding/csv's own writer, so the bytes are
// exactly those of writing every row with csv.Writer (TestWriteFastMatchesStandard).
func writeCSV(w io.Writer, d *Dataset, tok string, custom bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	head, err := csvRecord(d.Names...)
	if err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	bw.Write(head)
	var levels [][][]byte
	var na []byte
	naTok := []byte(csvField(tok))
	if d.Levels != nil {
		levels = make([][][]byte, d.P)
		for j, lv := range d.Levels {
			if lv == nil {
				continue
			}
			levels[j] = make([][]byte, len(lv))
			for c, l := range lv {
				if levels[j][c], err = csvEncode(l); err != nil {
					return fmt.Errorf("datasets: write: %w", err)
				}
			}
		}
		na = []byte("NA")
		if custom {
			if na, err = csvEncode(tok); err != nil {
				return fmt.Errorf("datasets: write: %w", err)
			}
		}
	}
	f := rowFormatter{d: d, levels: levels, na: na, naTok: naTok, custom: custom}
	if levels != nil {
		f.segs, f.q = mixedSegs(levels)
	}
	if err := f.write(bw); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	return nil
}

// rowFormatter formats the rows of a table as writeCSV writes them.
type rowFormatter struct {
	d      *Dataset
	levels [][][]byte // levels[j][c]: the encoded label of code c of column j; nil: all numeric
	na     []byte     // a missing cell of a table with categories
	naTok  []byte     // a missing number with a custom token
	custom bool
	block  int        // rows formatted before a write; 0: blockRows
	segs   []mixedSeg // with levels: the runs of categorical and numeric columns (mixedSegs)
	q      int        // with levels: the number of numeric columns
}

// writeCache is what one goroutine of the writer remembers across calls of appendRows: the
// bytes of recent rows and of recent numbers.
type writeCache struct {
	rows  rowCache
	nums  shortCache
	mixed mixedScratch
}

// appendRows appends rows [from, to) to b, each ending in a newline. wc remembers formatted
// rows and numbers across calls (one cache per goroutine).
func (f *rowFormatter) appendRows(b []byte, from, to int, wc *writeCache) []byte {
	d, levels, c := f.d, f.levels, &wc.nums
	if levels == nil && !f.custom && d.P > 0 && c.off && wc.rows.unused(d.P) {
		// distinct values: every number formatted, without the caches' wrappers
		return appendNumberRows(b, d.Data[from*d.P:to*d.P], d.P)
	}
	if levels != nil && f.q > 0 && c.off && wc.rows.unused(d.P) {
		// the same with categories: the numbers a block at a time, unless one is missing
		if out, ok := f.appendMixedRows(b, from, to, f.q, &wc.mixed); ok {
			return out
		}
	}
	for i := from; i < to; i++ {
		row := d.Row(i)
		cached, slot, ok := wc.rows.lookup(row)
		if ok {
			b = append(b, cached...)
			b = append(b, '\n')
			continue
		}
		start := len(b)
		for j, v := range row {
			if j > 0 {
				b = append(b, ',')
			}
			switch {
			case levels == nil && f.custom && v != v:
				b = append(b, f.naTok...)
			case levels == nil:
				b = c.append(b, v)
			case v != v:
				b = append(b, f.na...)
			case levels[j] != nil:
				b = f.appendLabel(b, j, v)
			default:
				b = c.append(b, v)
			}
		}
		wc.rows.store(slot, row, b[start:])
		b = append(b, '\n')
	}
	return b
}

// appendLabel appends the label of code v of categorical column j: f.na for a missing code,
// "NA" for a code outside the levels (it reads as missing, Dataset.Label).
func (f *rowFormatter) appendLabel(b []byte, j int, v float64) []byte {
	switch c := int(v); {
	case v != v:
		return append(b, f.na...)
	case c >= 0 && c < len(f.levels[j]):
		return append(b, f.levels[j][c]...)
	}
	return append(b, "NA"...)
}

// appendNumberRows appends the rows of x, p > 0 values each, as appendRows writes the rows
// of a table without categories or custom missing token when neither of its caches is in
// use: every number by appendShortest (a NaN as "NaN"), separated by commas, each row ending
// in a newline. It is that loop without the per-number calls through the caches, whose checks
// cost about as much as the rest of the writer around the formatter on a table of distinct
// values (a noise release), and it formats shortChunk numbers at a time in phases where at
// least a quarter of them are from about 0.001 to 10 (appendChunks; docs/datapath.md).
// TestAppendNumberRows compares it with appendShortest cell by cell.
func appendNumberRows(b []byte, x []float64, p int) []byte {
	return appendChunks(b, x, p, true)
}

// blockRows is the number of rows the writer formats into its buffer before writing them.
// The buffer is made with room for a block of numbers (about 250 KB for 10 columns: a
// buffer grown by append would copy itself and touch the fresh memory of each doubling,
// whose page faults cost more than the formatting of a microaggregated release), and it
// stays in the processor's cache until the write copies it out (docs/datapath.md).
const blockRows = 1024

// write writes every row to w, formatting blocks of f.block rows (blockRows when 0) into one
// reused buffer on the calling goroutine. Until session 15 a large table's blocks were
// formatted by as many goroutines as processors, in less wall time but more CPU time: every
// block handed to another goroutine woke a thread (a futex call and a context switch, which
// cost most on the paravirtualised VM this is measured on), about 490 rounds for 10^6 rows,
// and the whole process of a noise release at 10^6 × 10 cost 10–34 % more CPU time, more
// under load (docs/datapath.md, "What the writer does now").
func (f *rowFormatter) write(w io.Writer) error {
	n, rows := f.d.N, f.block
	if rows <= 0 {
		rows = blockRows
	}
	rows = min(rows, max(n, 1))
	b := make([]byte, 0, min(rows*(25*f.d.P+1), 4<<20))
	c := new(writeCache)
	for i := 0; i < n; i += rows {
		b = f.appendRows(b[:0], i, min(n, i+rows), c)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// csvRecord returns fields as one CSV record written by encoding/csv, newline included.
func csvRecord(fields ...string) ([]byte, error) {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write(fields); err != nil {
		return nil, err
	}
	cw.Flush()
	return b.Bytes(), cw.Error()
}

// csvEncode returns the field s as encoding/csv writes it within a record (quoted when it
// must be).
func csvEncode(s string) ([]byte, error) {
	b, err := csvRecord(s)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

// appendShortest appends v as strconv.AppendFloat(b, v, 'g', -1, 64) does, with
// appendFloatShortest (the same bytes in less than half the time: docs/datapath.md). A whole
// number of magnitude below 10^6 other than −0 — a count, a code, an age — is written by
// strconv.AppendInt, the same bytes at a fraction of the cost: its shortest digits are its
// integer digits without trailing zeros, and shortest 'g' formatting takes the exponent form
// only for a decimal exponent below −4 or of 6 and more (strconv's formatDigits), so it
// writes the integer digits. TestAppendShortest compares every such number with strconv.
func appendShortest(b []byte, v float64) []byte {
	if t, ok := shortWhole(v); ok {
		return strconv.AppendInt(b, t, 10)
	}
	return appendFloatShortest(b, v)
}

// shortWhole returns v as an integer when appendShortest writes it with strconv.AppendInt: a
// whole number of magnitude below 10^6, not −0.
func shortWhole(v float64) (int64, bool) {
	t := int64(v)
	return t, float64(t) == v && t > -1e6 && t < 1e6 && (t != 0 || math.Float64bits(v) == 0)
}
