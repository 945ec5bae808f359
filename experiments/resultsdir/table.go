package resultsdir

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
)

// File names inside a results folder.
const (
	RunsFile     = "runs.csv"
	RunsFileGz   = "runs.csv.gz"
	TracesFile   = "traces.csv"
	ManifestFile = "manifest.json"
	VerdictsFile = "verdicts.csv"
	ReportFile   = "REPORT.md"
	lockFile     = ".sdcbench.lock"
)

var tracesHeader = []string{"run_id", "iter", "best", "mean", "seconds"}

// TracesHeader returns the columns of traces.csv: run_id, iter, best, mean, seconds.
func TracesHeader() []string { return slices.Clone(tracesHeader) }

// gzipAbove is the size above which a finished table is stored gzipped.
const gzipAbove = 5 << 20

// Table is a parsed CSV file of a results folder (runs.csv, traces.csv, verdicts.csv, ...):
// its header and its rows, as strings.
type Table struct {
	Header []string
	Rows   [][]string
}

// Col returns the index of a column, or −1.
func (t *Table) Col(name string) int { return slices.Index(t.Header, name) }

// ReadRuns reads dir/runs.csv, or dir/runs.csv.gz when only that exists. A torn last line (no
// final newline, as a killed writer may leave) is ignored.
func ReadRuns(dir string) (*Table, error) { return ReadTable(filepath.Join(dir, RunsFile)) }

// ReadTable reads a CSV file of a results folder (runs.csv, traces.csv, ...), or path+".gz"
// when only that exists, ignoring a torn last line. A missing file is an error wrapping
// os.ErrNotExist.
func ReadTable(path string) (*Table, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseTable(data, path)
}

// ReadFile returns the content of path, or of path+".gz" decompressed when only that exists. A
// missing file is an error wrapping os.ErrNotExist. Either being a symbolic link or not a
// regular file is an error naming it (readOwnFile).
func ReadFile(path string) ([]byte, error) {
	data, err := readOwnFile(path)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if gerr := checkOwnFile(path + ".gz"); gerr != nil {
		return nil, gerr
	}
	f, gerr := os.OpenFile(path+".gz", os.O_RDONLY|noFollow, 0)
	if errors.Is(gerr, os.ErrNotExist) {
		return nil, err
	}
	if gerr != nil {
		return nil, fmt.Errorf("resultsdir: %w", gerr)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err == nil {
		data, err = io.ReadAll(datasets.LimitDecompressed(zr, path+".gz"))
	}
	if err != nil {
		if errors.Is(err, datasets.ErrTooLarge) {
			return nil, fmt.Errorf("resultsdir: %w", err)
		}
		return nil, fmt.Errorf("resultsdir: reading %s.gz: %w (the file is truncated or corrupt)", path, err)
	}
	return data, nil
}

// ParseTable parses the CSV text of a results-folder table; name is used in errors. A torn
// last line (no final newline) is ignored; a file without a header is an error.
func ParseTable(data []byte, name string) (*Table, error) {
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		data = data[:i+1] // drop a torn last line
	}
	cr := csv.NewReader(bytes.NewReader(data))
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("resultsdir: %s: empty file", name)
	}
	return &Table{Header: recs[0], Rows: recs[1:]}, nil
}

// WriteTable writes t as CSV to path, atomically; as WriteFile, a text larger than 5 MB goes to
// path+".gz" instead.
func WriteTable(path string, t *Table) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(t.Header)
	w.WriteAll(t.Rows)
	if err := w.Error(); err != nil {
		return fmt.Errorf("resultsdir: %s: %w", path, err)
	}
	return WriteFile(path, buf.Bytes())
}

// WriteFile writes data to path, or gzipped to path+".gz" (removing path) when it is larger
// than 5 MB, atomically either way; a stale copy under the other name is removed.
func WriteFile(path string, data []byte) error {
	var err error
	if len(data) > gzipAbove {
		err = datasets.AtomicWrite(path+".gz", func(w io.Writer) error {
			zw := gzip.NewWriter(w)
			if _, err := zw.Write(data); err != nil {
				return err
			}
			return zw.Close()
		})
		if err == nil {
			if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				err = rerr
			}
		}
	} else {
		err = datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(data); return err })
		if err == nil {
			os.Remove(path + ".gz") // a stale compressed copy
		}
	}
	if err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return nil
}
