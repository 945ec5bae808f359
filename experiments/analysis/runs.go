package analysis

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// Runs is a parsed runs.csv (docs/harness.md "Runs"): run_id, dataset, method,
// param_<name>..., replicate, seed, metric columns, seconds, status, error.
type Runs struct {
	// Header is the column list of the file.
	Header []string
	// Params are the param_<name> columns, in file order.
	Params []string
	// Values are the numeric columns: the metric columns between seed and seconds (with their
	// components) and seconds itself.
	Values []string
	// Rows are the runs in file order.
	Rows []Row
}

// Row is one run: a line of runs.csv.
type Row struct {
	// Cells are the raw strings, one per Header column.
	Cells []string
	// Values are the parsed numeric cells, one per Runs.Values column; NaN when empty or when the
	// run did not finish ok.
	Values []float64
	// OK reports status "ok".
	OK bool
}

// Col returns the index of a column in Header, or −1.
func (r *Runs) Col(name string) int { return slices.Index(r.Header, name) }

// ValueCol returns the index of a numeric column in Values, or −1.
func (r *Runs) ValueCol(name string) int { return slices.Index(r.Values, name) }

// Get returns the cell of column col in run i ("" when the column is absent).
func (r *Runs) Get(i int, col string) string {
	if j := r.Col(col); j >= 0 {
		return r.Rows[i].Cells[j]
	}
	return ""
}

var fixedCols = []string{"run_id", "dataset", "method", "replicate", "seed", "seconds", "status", "error"}

// ReadRuns reads dir/runs.csv, or dir/runs.csv.gz when only that exists, ignoring a torn last
// line (resultsdir.ReadRuns).
func ReadRuns(dir string) (*Runs, error) {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	return fromTable(t, filepath.Join(dir, resultsdir.RunsFile))
}

// ParseRuns parses a runs.csv read from r (resultsdir.ParseTable); name is used in errors. A
// torn last line (no final newline) is ignored, as harness.md promises a killed writer leaves
// nothing worse. Cells of the numeric columns must parse with strconv.ParseFloat (NaN, +Inf,
// -Inf included) or be empty.
func ParseRuns(r io.Reader, name string) (*Runs, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", name, err)
	}
	t, err := resultsdir.ParseTable(data, name)
	if err != nil {
		return nil, err
	}
	return fromTable(t, name)
}

// fromTable builds the numeric view Runs of a runs table.
func fromTable(t *resultsdir.Table, name string) (*Runs, error) {
	runs := &Runs{Header: t.Header}
	for _, c := range []string{"dataset", "method", "status"} {
		if runs.Col(c) < 0 {
			return nil, fmt.Errorf("analysis: %s: no %q column", name, c)
		}
	}
	for _, h := range runs.Header {
		switch {
		case strings.HasPrefix(h, "param_"):
			runs.Params = append(runs.Params, h)
		case !slices.Contains(fixedCols, h):
			runs.Values = append(runs.Values, h)
		}
	}
	if runs.Col("seconds") >= 0 {
		runs.Values = append(runs.Values, "seconds")
	}
	vidx := make([]int, len(runs.Values))
	for j, v := range runs.Values {
		vidx[j] = runs.Col(v)
	}
	status := runs.Col("status")
	if id := runs.Col("run_id"); id >= 0 {
		first := make(map[string]int, len(t.Rows))
		for line, rec := range t.Rows {
			if prev, dup := first[rec[id]]; dup {
				return nil, fmt.Errorf("analysis: %s:%d: run_id %s already on line %d: a run recorded twice (merge or re-run the folder)",
					name, line+2, rec[id], prev)
			}
			first[rec[id]] = line + 2
		}
	}
	for line, rec := range t.Rows {
		run := Row{Cells: rec, OK: rec[status] == "ok", Values: make([]float64, len(vidx))}
		for j, c := range vidx {
			run.Values[j] = math.NaN()
			s := rec[c]
			if s == "" || !run.OK {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("analysis: %s:%d: column %s: not a number: %q", name, line+2, runs.Values[j], s)
			}
			run.Values[j] = v
		}
		runs.Rows = append(runs.Rows, run)
	}
	return runs, nil
}

// Trace is one row of traces.csv: the best and mean objective of a run at an iteration.
type Trace struct {
	RunID   string
	Iter    float64
	Best    float64
	Mean    float64
	Seconds float64
}

// ReadTraces reads dir/traces.csv (or .gz). A missing file gives no traces and no error.
func ReadTraces(dir string) ([]Trace, error) {
	path := filepath.Join(dir, resultsdir.TracesFile)
	t, err := resultsdir.ReadTable(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	recs := append([][]string{t.Header}, t.Rows...)
	col := func(name string) int { return slices.Index(recs[0], name) }
	id, it, best, mean, sec := col("run_id"), col("iter"), col("best"), col("mean"), col("seconds")
	if it < 0 {
		it = col("generation")
	}
	if id < 0 || it < 0 || best < 0 {
		return nil, fmt.Errorf("analysis: %s: need columns run_id, iter, best", path)
	}
	num := func(rec []string, c int) float64 {
		if c < 0 || rec[c] == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(rec[c], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	out := make([]Trace, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		out = append(out, Trace{RunID: rec[id], Iter: num(rec, it), Best: num(rec, best), Mean: num(rec, mean), Seconds: num(rec, sec)})
	}
	return out, nil
}

// ReadManifest reads dir/manifest.json (resultsdir.ReadManifest). A missing file gives nil and
// no error.
func ReadManifest(dir string) (*resultsdir.Manifest, error) {
	m, err := resultsdir.ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return m, err
}
