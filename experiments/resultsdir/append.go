package resultsdir

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
)

// ErrOtherColumns is returned (wrapped) by OpenAppender when the folder's runs.csv has other
// columns than the header asked for.
var ErrOtherColumns = errors.New("runs.csv has other columns")

// AnalysisFiles are the files an analysis writes into a results folder besides REPORT.md
// (each table also as NAME.gz when large), and AnalysisGlobs the patterns of its further
// files: pivot tables and the plots folder. Discard removes them.
var (
	AnalysisFiles = []string{"summary.csv", "wilcoxon.csv", "best.csv", "wins.csv", "pareto.csv",
		"profiles.csv", "gaps.csv", "friedman.csv", "seed_comparison.csv", "reanalysis.md", "original.csv", "recommend.csv", "report.html"}
	AnalysisGlobs = []string{"table_*.csv", "table_*.csv.gz", "plots"}
)

// Discard removes the runs, traces, stored releases (ReleasesDir) and manifest of dir (plain
// and gzipped), as a fresh run or merge into it does, and first everything derived from them:
// REPORT.md, verdicts.csv, the
// companion reports the manifest records, the analysis's tables and plots (AnalysisFiles,
// AnalysisGlobs) and the baseline comparisons (baseline-*/ folders holding a REPORT.md), so
// that no report of the old experiment stays beside the new rows, even when the fresh run is
// interrupted. The manifest goes last. Missing files are not an error.
func Discard(dir string) error {
	var derived []string
	if m, err := ReadManifest(dir); err == nil {
		for _, f := range m.Reports {
			if filepath.IsLocal(f) { // a name in dir, never a path out of it
				derived = append(derived, f)
			}
		}
	}
	derived = append(derived, ReportFile, VerdictsFile)
	for _, f := range AnalysisFiles {
		derived = append(derived, f, f+".gz")
	}
	for _, g := range AnalysisGlobs {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		for _, p := range m {
			derived = append(derived, filepath.Base(p))
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "baseline-*", ReportFile)); m != nil {
		for _, p := range m {
			derived = append(derived, filepath.Base(filepath.Dir(p)))
		}
	}
	for _, f := range derived {
		if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("resultsdir: %w", err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, ReleasesDir)); err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	for _, f := range []string{RunsFile, RunsFileGz, TracesFile, TracesFile + ".gz", ManifestFile} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("resultsdir: %w", err)
		}
	}
	return nil
}

// Appender appends rows to runs.csv and traces.csv, flushing every row to the OS and syncing
// to disk at most once a second.
type Appender struct {
	runs, traces *os.File
	rw, tw       *csv.Writer
	lastSync     time.Time
}

// OpenAppender prepares dir for appending runs with the given runs.csv header: it unpacks a
// runs.csv.gz or traces.csv.gz left by a finished run, repairs a torn last line, checks that an
// existing runs.csv has exactly header (an error wrapping ErrOtherColumns otherwise), drops the
// trace lines of runs that runs.csv does not record, and returns the IDs (first column) of the
// runs already recorded, which the caller skips. The caller holds the folder's Lock.
func OpenAppender(dir string, header []string) (*Appender, map[string]bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("resultsdir: %w", err)
	}
	if err := CheckOwnFiles(dir); err != nil {
		return nil, nil, err
	}
	runsPath, tracesPath := filepath.Join(dir, RunsFile), filepath.Join(dir, TracesFile)
	done := map[string]bool{}
	for _, path := range []string{runsPath, tracesPath} {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			data, gerr := ReadFile(path)
			switch {
			case gerr == nil: // only the .gz is there: unpack it to append
				if err := datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
					return nil, nil, fmt.Errorf("resultsdir: %w", err)
				}
				os.Remove(path + ".gz")
			case !errors.Is(gerr, os.ErrNotExist):
				// Never discard recorded runs on a read error: the file stays as it is.
				return nil, nil, fmt.Errorf("%w; the file is left as it is: repair or move it, or use --fresh to discard the folder's runs", gerr)
			}
		}
	}
	if data, err := os.ReadFile(runsPath); err == nil && len(data) > 0 {
		if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
			if err := os.Truncate(runsPath, int64(i+1)); err != nil { // torn last line
				return nil, nil, fmt.Errorf("resultsdir: repairing %s: %w", runsPath, err)
			}
			data = data[:i+1]
		}
		t, err := ParseTable(data, runsPath)
		if err != nil {
			return nil, nil, fmt.Errorf("%w; the file is left as it is: repair or move it, or use --fresh to discard the folder's runs", err)
		}
		if !slices.Equal(t.Header, header) {
			return nil, nil, fmt.Errorf("resultsdir: %s: %w", runsPath, ErrOtherColumns)
		}
		for _, r := range t.Rows {
			done[r[0]] = true
		}
	}
	a := &Appender{}
	var err error
	if a.runs, err = openAppend(runsPath, header); err != nil {
		return nil, nil, err
	}
	if err := dropOrphanTraces(tracesPath, done); err != nil {
		a.runs.Close()
		return nil, nil, err
	}
	if a.traces, err = openAppend(tracesPath, tracesHeader); err != nil {
		a.runs.Close()
		return nil, nil, err
	}
	a.rw, a.tw = csv.NewWriter(a.runs), csv.NewWriter(a.traces)
	return a, done, nil
}

// openAppend opens path for appending, writing header first if the file is new or empty.
func openAppend(path string, header []string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|noFollow, 0o644)
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		w := csv.NewWriter(f)
		w.Write(header)
		w.Flush()
		if err := w.Error(); err != nil {
			f.Close()
			return nil, fmt.Errorf("resultsdir: %w", err)
		}
	}
	return f, nil
}

// dropOrphanTraces keeps only the trace lines of runs recorded in runs.csv (a crash between
// writing a run's trace and its row would otherwise duplicate the trace on resume).
func dropOrphanTraces(path string, done map[string]bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	var out bytes.Buffer
	for i, line := range bytes.SplitAfter(data, []byte{'\n'}) {
		if len(line) == 0 || line[len(line)-1] != '\n' {
			continue
		}
		id, _, _ := bytes.Cut(line, []byte{','})
		if i == 0 || done[string(id)] {
			out.Write(line)
		}
	}
	if out.Len() == len(data) {
		return nil
	}
	return datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(out.Bytes()); return err })
}

// Append appends a run's trace lines (each prefixed with id) and then its row, flushed to the
// OS; an fsync follows at most once a second.
func (a *Appender) Append(row []string, id string, trace [][]string) error {
	for _, t := range trace {
		a.tw.Write(append([]string{id}, t...))
	}
	a.tw.Flush()
	if err := a.tw.Error(); err != nil {
		return fmt.Errorf("resultsdir: writing traces: %w", err)
	}
	a.rw.Write(row)
	a.rw.Flush()
	if err := a.rw.Error(); err != nil {
		return fmt.Errorf("resultsdir: writing runs: %w", err)
	}
	if time.Since(a.lastSync) > time.Second {
		a.runs.Sync()
		a.traces.Sync()
		a.lastSync = time.Now()
	}
	return nil
}

// Close syncs both files to disk and closes them.
func (a *Appender) Close() error {
	a.traces.Sync()
	a.traces.Close()
	serr := a.runs.Sync()
	if err := a.runs.Close(); err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	if serr != nil {
		return fmt.Errorf("resultsdir: %w", serr)
	}
	return nil
}

// Normalize rewrites a finished results folder in grid order (rows sorted by order, traces by
// run then iteration) and gzips runs.csv and traces.csv when larger than 5 MB; a traces.csv
// without rows is removed. order maps run IDs to their grid position.
func Normalize(dir string, order map[string]int) error {
	t, err := ReadRuns(dir)
	if err != nil {
		return err
	}
	slices.SortStableFunc(t.Rows, func(a, b []string) int { return order[a[0]] - order[b[0]] })
	if err := WriteTable(filepath.Join(dir, RunsFile), t); err != nil {
		return err
	}
	tracesPath := filepath.Join(dir, TracesFile)
	data, err := ReadFile(tracesPath)
	if err != nil {
		return nil
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) <= 1 {
		if len(recs) <= 1 {
			os.Remove(tracesPath) // no iterative method: no traces file
		}
		return nil
	}
	body := recs[1:]
	slices.SortStableFunc(body, func(a, b []string) int {
		if d := order[a[0]] - order[b[0]]; d != 0 {
			return d
		}
		ia, _ := strconv.Atoi(a[1])
		ib, _ := strconv.Atoi(b[1])
		return ia - ib
	})
	return WriteTable(tracesPath, &Table{Header: recs[0], Rows: body})
}
