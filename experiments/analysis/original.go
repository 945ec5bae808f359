package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/metrics"
)

// OriginalName is the name of the unprotected original in the tables and plots.
const OriginalName = experiments.OriginalMethod

// OriginalFile caches the original's measures in a results folder: one row per dataset, the
// runs.csv metric columns, the note and the error, and a key that changes with the spec and
// the metric definitions (a stale cache is measured again).
const OriginalFile = "original.csv"

// OriginalRow is the unprotected original of one dataset: the reference row sdcMicro prints
// before any protection (loss 0, the risk of publishing the data as they are). It is never a
// configuration: no test, win, gap, front or ranking counts it (docs/analysis.md "The
// unprotected original").
type OriginalRow struct {
	Dataset string
	// Values holds the runs.csv metric columns; NaN where undefined or not applicable.
	Values map[string]float64
	// Note names the measures that do not apply and why; Err why the original could not be
	// measured (no values then).
	Note, Err string
}

// Value returns the original's value of column col, NaN when it has none.
func (o OriginalRow) Value(col string) float64 {
	if v, ok := o.Values[col]; ok {
		return v
	}
	return math.NaN()
}

// originalKey identifies what the original's measures depend on: the spec's text and the
// definition version of each of its metrics.
func originalKey(man *resultsdir.Manifest, ms []string) string {
	h := sha256.New()
	io.WriteString(h, man.Spec)
	for _, id := range ms {
		v := 0
		if m, err := metrics.Lookup(id); err == nil {
			v = m.Info().DefinitionVersion()
		}
		fmt.Fprintf(h, "\x00%s=%d", id, v)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// loadOriginals fills r.Original from dir/original.csv when it is current, else measures the
// original of every dataset (experiments.Originals: one evaluation per dataset). A spec that
// can no longer be parsed, or a dataset that cannot be loaded, becomes a note of the report,
// not an error.
func (r *Result) loadOriginals(specMetrics []string) {
	man := r.Manifest
	if man == nil || man.Spec == "" {
		return
	}
	key := originalKey(man, specMetrics)
	defer r.dropUndefinedOriginal()
	if rows, cols, ok := readOriginals(filepath.Join(r.Dir, OriginalFile), key); ok {
		r.Original, r.originalKey = rows, key
		r.originalCols = cols
		return
	}
	origs, notes, err := experiments.Originals(r.Dir, man)
	if err != nil {
		r.OriginalNotes = []string{fmt.Sprintf("the unprotected original was not measured: %s", oneLine(err.Error()))}
		return
	}
	r.OriginalNotes = notes
	r.originalKey = key
	s, err := experiments.Decode([]byte(man.Spec), "")
	if err != nil {
		return
	}
	s.Metrics = append(s.Metrics, man.RescoredMetrics()...) // as experiments.Originals measures them
	cols := s.MetricColumns()
	r.originalCols = cols
	for _, o := range origs {
		row := OriginalRow{Dataset: o.Dataset, Note: o.Note, Err: o.Err, Values: map[string]float64{}}
		for k, c := range cols {
			if k < len(o.Values) {
				row.Values[c] = cell(o.Values[k])
			}
		}
		r.Original = append(r.Original, row)
	}
}

// dropUndefinedOriginal leaves the original out of the tables and plots when it has no finite
// value on any analysed metric (measures of a method's output: posteriors, search statistics),
// keeping it for the cache, and says so in a note.
func (r *Result) dropUndefinedOriginal() {
	r.originalCache = r.Original
	for _, o := range r.Original {
		for _, m := range r.Plan.Metrics {
			if isFinite(o.Value(m)) {
				return
			}
		}
	}
	if len(r.Original) > 0 {
		r.Original = nil
		r.OriginalNotes = append(r.OriginalNotes, "the unprotected original has no value on the analysed metrics (they describe a method's output), so it is not shown")
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell parses a runs.csv value cell: NaN when empty or not a number.
func cell(s string) float64 {
	v, err := parseFloat(s)
	if err != nil {
		return math.NaN()
	}
	return v
}

// originalColumns returns the value columns of r's original rows: runs.csv's order.
func (r *Result) originalColumns() []string {
	if r.originalCols != nil {
		return r.originalCols
	}
	var cols []string
	for _, o := range r.originalCache {
		for c := range o.Values {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	slices.Sort(cols)
	return cols
}

// writeOriginals writes the cache dir/original.csv.
func (r *Result) writeOriginals(out string) error {
	if len(r.originalCache) == 0 || r.originalKey == "" {
		return nil
	}
	cols := r.originalColumns()
	header := append(append([]string{"dataset"}, cols...), "note", "error", "key")
	var rows [][]string
	for _, o := range r.originalCache {
		row := []string{o.Dataset}
		for _, c := range cols {
			if v, ok := o.Values[c]; ok && !math.IsNaN(v) {
				row = append(row, ftoa(v))
			} else if ok {
				row = append(row, "NaN")
			} else {
				row = append(row, "")
			}
		}
		rows = append(rows, append(row, o.Note, o.Err, r.originalKey))
	}
	return writeCSV(filepath.Join(out, OriginalFile), header, rows)
}

// readOriginals reads a cache written with key, and its value columns; ok is false when it is
// missing, unreadable or stale.
func readOriginals(path, key string) (_ []OriginalRow, cols []string, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, false
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) < 2 {
		return nil, nil, false
	}
	h := recs[0]
	n := len(h)
	if n < 4 || h[0] != "dataset" || h[n-3] != "note" || h[n-2] != "error" || h[n-1] != "key" {
		return nil, nil, false
	}
	var out []OriginalRow
	for _, rec := range recs[1:] {
		if len(rec) != n || rec[n-1] != key {
			return nil, nil, false
		}
		o := OriginalRow{Dataset: rec[0], Note: rec[n-3], Err: rec[n-2], Values: map[string]float64{}}
		for k := 1; k < n-3; k++ {
			if rec[k] != "" || o.Err == "" {
				o.Values[h[k]] = cell(rec[k])
			}
		}
		if o.Err != "" {
			o.Values = nil
		}
		out = append(out, o)
	}
	return out, h[1 : n-3], true
}

// originalOf returns the original row of dataset ds, if measured.
func (r *Result) originalOf(ds string) (OriginalRow, bool) {
	for _, o := range r.Original {
		if o.Dataset == ds && o.Err == "" {
			return o, true
		}
	}
	return OriginalRow{}, false
}

// originalSummaries returns the original's rows of summary.csv: per column, its values over
// the datasets summarized as a configuration's observations are (one per dataset).
func (r *Result) originalSummaries(cols []string) []SummaryRow {
	if len(r.Original) == 0 {
		return nil
	}
	var out []SummaryRow
	for _, m := range cols {
		var v []float64
		has := false
		for _, o := range r.Original {
			if o.Err != "" {
				continue
			}
			x, ok := o.Values[m]
			has = has || ok
			if !ok {
				x = math.NaN()
			}
			v = append(v, x)
		}
		if has {
			out = append(out, SummaryRow{Metric: m, Config: OriginalName, Summary: stats.NewSample(v).Summary()})
		}
	}
	return out
}

// reportOriginal writes the section on the unprotected original: its value of every analysed
// metric per dataset, the measures that do not apply, and the datasets it could not be
// measured on.
func (r *Result) reportOriginal(w io.Writer) {
	if len(r.Original) == 0 && len(r.OriginalNotes) == 0 {
		return
	}
	fmt.Fprintf(w, "## The unprotected original\n\nEach dataset published as it is, measured like a release (the runs' metrics, options and columns; [%s](%s)): loss measures are 0 and risk measures say what the protection has to lower, as sdcMicro prints the original's risk. A reference, never a configuration: no test, win, front or ranking counts it. – marks a measure that is undefined or does not apply.\n\n", OriginalFile, OriginalFile)
	ms := r.Plan.Metrics
	var rows [][]string
	var notes []string
	for _, o := range r.Original {
		if o.Err != "" {
			notes = append(notes, fmt.Sprintf("%s: not measured: %s", o.Dataset, o.Err))
			continue
		}
		row := []string{o.Dataset}
		for _, m := range ms {
			row = append(row, num(o.Value(m)))
		}
		rows = append(rows, row)
		if o.Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", o.Dataset, o.Note))
		}
	}
	if len(rows) > 0 {
		table(w, append([]string{"dataset"}, ms...), rows)
	}
	for _, n := range append(notes, r.OriginalNotes...) {
		fmt.Fprintf(w, "- %s.\n", strings.TrimSuffix(n, "."))
	}
	if len(notes)+len(r.OriginalNotes) > 0 {
		fmt.Fprintln(w)
	}
}

// originalRunRows returns the original as rows of runs.csv's shape (method original, no
// parameters), for the per-dataset means table.
func (r *Result) originalRunRows() [][]string {
	var out [][]string
	h := r.Runs.Header
	for _, o := range r.Original {
		if o.Err != "" {
			continue
		}
		row := make([]string, len(h))
		for j, c := range h {
			switch c {
			case "run_id":
				row[j] = OriginalName + "/" + o.Dataset
			case "dataset":
				row[j] = o.Dataset
			case "method":
				row[j] = OriginalName
			case "replicate":
				row[j] = "1"
			case "status":
				row[j] = "ok"
			case "error":
				row[j] = o.Note
			default:
				if v, ok := o.Values[c]; ok && !math.IsNaN(v) {
					row[j] = ftoa(v)
				}
			}
		}
		out = append(out, row)
	}
	return out
}

// withOriginalRows inserts the original's rows (originalRunRows) before the first run of
// their dataset (column ds of rows), so that each dataset's table starts with its original.
func (r *Result) withOriginalRows(rows [][]string, ds int) [][]string {
	orig := r.originalRunRows()
	if len(orig) == 0 || ds < 0 {
		return rows
	}
	out := make([][]string, 0, len(rows)+len(orig))
	done := map[string]bool{}
	for _, row := range rows {
		if d := row[ds]; !done[d] {
			done[d] = true
			for _, o := range orig {
				if o[ds] == d {
					out = append(out, o)
				}
			}
		}
		out = append(out, row)
	}
	return out
}

// withOriginalSummaries returns r.Summary with the original's row (originalSummaries) first
// among each metric's rows.
func (r *Result) withOriginalSummaries() []SummaryRow {
	out := make([]SummaryRow, 0, len(r.Summary)+len(r.Plan.Metrics))
	for i, s := range r.Summary {
		if i == 0 || r.Summary[i-1].Metric != s.Metric {
			out = append(out, r.originalSummaries([]string{s.Metric})...)
		}
		out = append(out, s)
	}
	return out
}

// originalLossRisk returns the original's (loss, risk) of the trade-off in the block by (the
// values of Plan.TradeoffBy); ok is false when the block has no dataset or it has no original.
func (r *Result) originalLossRisk(by []string) (loss, risk float64, ok bool) {
	k := slices.Index(r.Plan.TradeoffBy(), "dataset")
	if k < 0 || k >= len(by) || len(r.Plan.Tradeoff) != 2 {
		return 0, 0, false
	}
	o, ok := r.originalOf(by[k])
	if !ok {
		return 0, 0, false
	}
	return o.Value(r.Plan.Tradeoff[0]), o.Value(r.Plan.Tradeoff[1]), true
}

// originalPoint is the original's (loss, risk) in a block as the trade-off table prints it.
func (r *Result) originalPoint(by []string) string {
	loss, risk, ok := r.originalLossRisk(by)
	if !ok {
		return "–"
	}
	return fmt.Sprintf("(%s, %s)", num(loss), num(risk))
}

// pivotRuns returns the runs the literature-style tables (Pivots) are built from: r.Runs with
// the original's rows first, when the tables' columns are the datasets alone (a column factor
// such as k has no value for the original, which would open a column of its own).
func (r *Result) pivotRuns(cfg TableConfig) *Runs {
	cols := cfg.Columns
	if len(cols) == 0 && r.Runs.Col("param_k") < 0 {
		cols = []string{"dataset"}
	}
	orig := r.originalRunRows()
	if len(orig) == 0 || !slices.Equal(cols, []string{"dataset"}) {
		return r.Runs
	}
	out := *r.Runs
	out.Rows = nil
	for _, cells := range orig {
		row := Row{Cells: cells, OK: true, Values: make([]float64, len(out.Values))}
		for j, c := range out.Values {
			row.Values[j] = cell(cells[out.Col(c)])
		}
		out.Rows = append(out.Rows, row)
	}
	out.Rows = append(out.Rows, r.Runs.Rows...)
	return &out
}
