package datasets

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// writeCSVStd is the writer writeCSV replaced (encoding/csv, row by row): the reference of
// TestWriteFastMatchesStandard.
func writeCSVStd(w io.Writer, d *Dataset, tok string, custom bool) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if err := cw.Write(d.Names); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	cw.Flush()
	buf := make([]byte, 0, 32)
	rec := make([]string, d.P)
	for i := 0; i < d.N; i++ {
		if d.Levels != nil { // labels may need quoting
			for j := range rec {
				if custom && d.Data[i*d.P+j] != d.Data[i*d.P+j] {
					rec[j] = tok
					continue
				}
				rec[j] = d.Label(i, j)
			}
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("datasets: write: %w", err)
			}
			cw.Flush()
			continue
		}
		for j, v := range d.Row(i) {
			if j > 0 {
				bw.WriteByte(',')
			}
			if custom && v != v {
				bw.WriteString(csvField(tok))
				continue
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	return nil
}
