package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// writeCSV writes d; with custom, tok replaces every missing cell. Each row is formatted into
// one reused buffer: numbers with strconv.AppendFloat ('g', −1), labels and tokens from their
// encodings made once per level by encoding/csv's own writer, so the bytes are exactly those of
// writing every row with csv.Writer (TestWriteFastMatchesStandard).
func writeCSV(w io.Writer, d *Dataset, tok string, custom bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	head, err := csvRecord(d.Names...)
	if err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	bw.Write(head)
	var levels [][][]byte // levels[j][c]: the encoded label of code c of column j
	var na []byte         // a missing cell of a table with categories
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
	row := make([]byte, 0, 32*d.P)
	for i := 0; i < d.N; i++ {
		row = row[:0]
		for j, v := range d.Row(i) {
			if j > 0 {
				row = append(row, ',')
			}
			switch {
			case levels == nil && custom && v != v:
				row = append(row, naTok...)
			case levels == nil:
				row = strconv.AppendFloat(row, v, 'g', -1, 64)
			case v != v:
				row = append(row, na...)
			case levels[j] != nil:
				if c := int(v); c >= 0 && c < len(levels[j]) {
					row = append(row, levels[j][c]...)
				} else { // a code outside the levels reads as missing (Dataset.Label)
					row = append(row, "NA"...)
				}
			default:
				row = strconv.AppendFloat(row, v, 'g', -1, 64)
			}
		}
		row = append(row, '\n')
		if _, err := bw.Write(row); err != nil {
			return fmt.Errorf("datasets: write: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
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
