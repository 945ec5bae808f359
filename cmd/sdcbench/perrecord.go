package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// writePerRecord writes `eval --per-record FILE` (docs/metrics.md §4.8): one row per record of
// the release, in file order, with its 1-based number, fk, Fk, individual risk, household risk
// (when --household is given), SUDA score, DIS score and suda2's contribution of each key
// (contrib_<key>), as sdcMicro 5.8.1 reports them per record. The file is written atomically;
// inputs (the original, the release, the control set) are refused as targets. When SUDA is
// undefined (too many keys) its columns hold NaN and a warning says why.
func writePerRecord(path string, in *metrics.Input, inputs []string, stderr io.Writer) error {
	for _, f := range inputs {
		if f != "" && samePath(path, f) {
			return usageErr("eval", "--per-record %s would overwrite the input %s", path, f)
		}
	}
	rr, err := metrics.PerRecord(in)
	if err != nil {
		return fmt.Errorf("eval: --per-record: %w", err)
	}
	if rr.SUDANote != "" {
		fmt.Fprintf(stderr, "sdcbench eval: warning: --per-record: SUDA columns are NaN: %s\n", rr.SUDANote)
	}
	header := []string{"record", "fk", "Fk", "risk"}
	if rr.HierRisk != nil {
		header = append(header, "hier_risk")
	}
	header = append(header, "suda_score", "dis_score")
	for _, k := range rr.Keys {
		header = append(header, "contrib_"+k)
	}
	m := len(rr.Keys)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(header)
	row := make([]string, 0, len(header))
	ftoa := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range rr.Fk {
		row = append(row[:0], strconv.Itoa(i+1), ftoa(rr.Fk[i]), ftoa(rr.FkW[i]), ftoa(rr.Risk[i]))
		if rr.HierRisk != nil {
			row = append(row, ftoa(rr.HierRisk[i]))
		}
		if rr.SUDAScore == nil {
			for range 2 + m {
				row = append(row, "NaN")
			}
		} else {
			row = append(row, ftoa(rr.SUDAScore[i]), ftoa(rr.DIS[i]))
			for c := 0; c < m; c++ {
				row = append(row, ftoa(rr.Contrib[i*m+c]))
			}
		}
		w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("eval: --per-record: %w", err)
	}
	return datasets.AtomicWrite(path, func(f io.Writer) error { _, err := f.Write(buf.Bytes()); return err })
}
