package analysis

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Runs is a parsed runs.csv (shared/spec/harness.md "Runs"): run_id, dataset, method,
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
	RunsFile     = "runs.csv"
	TracesFile   = "traces.csv"
	ManifestFile = "manifest.json"
)

var fixedCols = []string{"run_id", "dataset", "method", "replicate", "seed", "seconds", "status", "error"}

// ReadRuns reads dir/runs.csv, or dir/runs.csv.gz when only that exists.
func ReadRuns(dir string) (*Runs, error) {
	path := filepath.Join(dir, RunsFile)
	data, err := readMaybeGz(path)
	if err != nil {
		return nil, err
	}
	return ParseRuns(bytes.NewReader(data), path)
}

// readMaybeGz returns the content of path, or of path+".gz" decompressed.
func readMaybeGz(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	f, gerr := os.Open(path + ".gz")
	if gerr != nil {
		return nil, fmt.Errorf("analysis: %w (nor %s.gz)", err, filepath.Base(path))
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s.gz: %w", path, err)
	}
	data, err = io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s.gz: %w", path, err)
	}
	return data, nil
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
	data, err := readMaybeGz(path)
	if err != nil {
		if _, e1 := os.Stat(path); errors.Is(e1, os.ErrNotExist) {
			if _, e2 := os.Stat(path + ".gz"); errors.Is(e2, os.ErrNotExist) {
				return nil, nil
			}
		}
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 && i >= 0 {
		data = data[:i+1]
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
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
	Name     string `json:"name"`
	Spec     string `json:"spec"`
	SpecHash string `json:"spec_hash"`
	Tool     string `json:"tool_version"`
	Go       string `json:"go_version"`
	Started  string `json:"started"`
	Finished string `json:"finished"`
	CPUs     int    `json:"cpus"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
}

// ReadManifest reads dir/manifest.json. A missing file gives nil and no error.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", ManifestFile, err)
	}
	return &m, nil
}
