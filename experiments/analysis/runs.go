package analysis

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/experiments"
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

// RunsFile and friends are the file names of a results folder.
const (
	RunsFile     = experiments.RunsFile
	TracesFile   = experiments.TracesFile
	ManifestFile = experiments.ManifestFile
)

var fixedCols = []string{"run_id", "dataset", "method", "replicate", "seed", "seconds", "status", "error"}

// ReadRuns reads dir/runs.csv, or dir/runs.csv.gz when only that exists, ignoring a torn last
// line (experiments.ReadRuns).
func ReadRuns(dir string) (*Runs, error) {
	t, err := experiments.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	return fromRecords(append([][]string{t.Header}, t.Rows...), filepath.Join(dir, RunsFile))
}

// ParseRuns parses a runs.csv read from r; name is used in errors. A torn last line (no final
// newline) is ignored, as harness.md promises a killed writer leaves nothing worse. Cells of the
// numeric columns must parse with strconv.ParseFloat (NaN, +Inf, -Inf included) or be empty.
func ParseRuns(r io.Reader, name string) (*Runs, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", name, err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 && i >= 0 {
		data = data[:i+1]
	}
	cr := csv.NewReader(bytes.NewReader(data))
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", name, err)
	}
	return fromRecords(recs, name)
}

// fromRecords builds Runs from the records of a runs.csv, header first.
func fromRecords(recs [][]string, name string) (*Runs, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("analysis: %s: empty file", name)
	}
	runs := &Runs{Header: recs[0]}
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
		first := make(map[string]int, len(recs))
		for line, rec := range recs[1:] {
			if prev, dup := first[rec[id]]; dup {
				return nil, fmt.Errorf("analysis: %s:%d: run_id %s already on line %d: a run recorded twice (merge or re-run the folder)",
					name, line+2, rec[id], prev)
			}
			first[rec[id]] = line + 2
		}
	}
	for line, rec := range recs[1:] {
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
	path := filepath.Join(dir, TracesFile)
	t, err := experiments.ReadTable(path)
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

// Manifest is the part of dir/manifest.json the analysis reads.
type Manifest struct {
	Name, Spec, SpecHash, Tool, Go, Started, Finished, OS, Arch string
	CPUs                                                        int
}

// ReadManifest reads dir/manifest.json (experiments.ReadManifest). A missing file gives nil and
// no error.
func ReadManifest(dir string) (*Manifest, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	m, err := experiments.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339)
	}
	return &Manifest{Name: m.Name, Spec: m.Spec, SpecHash: m.SpecHash, Tool: m.Tool, Go: m.GoVersion,
		Started: stamp(m.Started), Finished: stamp(m.Finished), OS: m.OS, Arch: m.Arch, CPUs: m.CPUs}, nil
}
