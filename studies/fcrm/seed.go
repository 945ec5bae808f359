package fcrm

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/sdcbench/sdcbench/studies"
)

// The published numbers of the FCRM study (a 2009 final-degree project on synthetic data by
// fuzzy c-regression; the document does not name its author): Tables 5–8, verbatim (decimal
// commas as points). The F.O. column is kept for reference only (README.md).

// SeedRow is one row of Tables 5–7.
type SeedRow struct {
	Label          string // "c=2", "IPSO-A", ...
	C              int    // 0 for the IPSO rows
	FO             float64
	PIL, DR, Score float64
}

// Table5 is the toy-data table (c = 2..10); Table6 is Census S1; Table7 is Census S2
// (tables5-7.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var (
	Table5 = sync.OnceValue(func() []SeedRow { return seedTable("Table 5") })
	Table6 = sync.OnceValue(func() []SeedRow { return seedTable("Table 6") })
	Table7 = sync.OnceValue(func() []SeedRow { return seedTable("Table 7") })
)

// Table8 holds the S3 rows the study prints (c = 2 and c = 4; n = 1..19): PIL, DR, SCORE
// (table8.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var Table8 = sync.OnceValue(mustTable8)

// seedTable returns the rows of one of Tables 5–7. The files are embedded, so an error is a
// programming error and panics.
func seedTable(table string) []SeedRow {
	recs := studies.MustReadTable(files, "tables5-7.expected.csv", 7)
	var out []SeedRow
	for _, rec := range recs {
		if rec[0] != table {
			continue
		}
		c, err := strconv.Atoi(rec[2])
		if err != nil {
			panic(fmt.Sprintf("fcrm: tables5-7.expected.csv: %s %s: %v", rec[0], rec[1], err))
		}
		v := mustFloats("tables5-7.expected.csv", rec[3:])
		out = append(out, SeedRow{Label: rec[1], C: c, FO: v[0], PIL: v[1], DR: v[2], Score: v[3]})
	}
	if len(out) == 0 {
		panic(fmt.Sprintf("fcrm: tables5-7.expected.csv: no rows of %s", table))
	}
	return out
}

func mustTable8() map[int][19][3]float64 {
	out := map[int][19][3]float64{}
	for _, rec := range studies.MustReadTable(files, "table8.expected.csv", 5) {
		c, err1 := strconv.Atoi(rec[0])
		n, err2 := strconv.Atoi(rec[1])
		if err := errors.Join(err1, err2); err != nil || n < 1 || n > 19 {
			panic(fmt.Sprintf("fcrm: table8.expected.csv: row %v: n in 1..19: %v", rec, err))
		}
		rows := out[c]
		copy(rows[n-1][:], mustFloats("table8.expected.csv", rec[2:]))
		out[c] = rows
	}
	return out
}

func mustFloats(name string, cells []string) []float64 {
	out, err := studies.ParseFloats(cells)
	if err != nil {
		panic(fmt.Sprintf("fcrm: %s: %v", name, err))
	}
	return out
}

// S1Tolerance is the criterion for S1: our mean pil_kde within this many points of Table 6 at
// every c = 2..15.
const S1Tolerance = 3.5
