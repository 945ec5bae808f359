package resultsdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
)

// WriteReport writes dir/REPORT.md, atomically, with the text write produces. It is the one
// writer of REPORT.md: a run, a merge or an analysis calls it once, with the analysis's report
// or, when there is no analysis, the runner's summary.
func WriteReport(dir string, write func(io.Writer) error) error {
	if err := datasets.AtomicWrite(filepath.Join(dir, ReportFile), write); err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return nil
}

// WriteStudyReport runs a study report on dir. write writes the report's files into dir and
// returns the verdicts it gave; the Markdown files it created or changed at the top of dir
// are recorded as companion reports (RecordReports), and the verdicts are stored in
// verdicts.csv with study as their Study (no file when there are none). When write fails,
// nothing is recorded.
func WriteStudyReport(dir, study string, write func() ([]VerdictRow, error)) error {
	before, err := markdownFiles(dir)
	if err != nil {
		return err
	}
	rows, err := write()
	if err != nil {
		return err
	}
	after, err := markdownFiles(dir)
	if err != nil {
		return err
	}
	var wrote []string
	for name, st := range after {
		if old, ok := before[name]; !ok || old != st {
			wrote = append(wrote, name)
		}
	}
	if err := RecordReports(dir, wrote...); err != nil {
		return err
	}
	for i := range rows {
		rows[i].Study = study
	}
	return WriteVerdicts(dir, rows)
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// markdownFiles returns the modification time and size of every Markdown file at the top of
// dir other than REPORT.md.
func markdownFiles(dir string) (map[string]fileStamp, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %w", err)
	}
	out := map[string]fileStamp{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") || e.Name() == ReportFile {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("resultsdir: %w", err)
		}
		out[e.Name()] = fileStamp{fi.ModTime(), fi.Size()}
	}
	return out, nil
}

// RecordReports adds files (names in dir) to the companion reports recorded in
// dir/manifest.json. A folder without a manifest (results written by a script rather than a
// run) records nothing; the manifest is rewritten only when the list grows.
func RecordReports(dir string, files ...string) error {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	n := len(m.Reports)
	for _, f := range files {
		if f != ReportFile && !slices.Contains(m.Reports, f) {
			m.Reports = append(m.Reports, f)
		}
	}
	if len(m.Reports) == n {
		return nil
	}
	slices.Sort(m.Reports)
	return WriteManifest(dir, m)
}

// CompanionReports returns the companion reports recorded for dir (RecordReports) that are
// still there, sorted by name; none for a folder without a manifest.
func CompanionReports(dir string) ([]string, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range m.Reports {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			out = append(out, f)
		}
	}
	return out, nil
}
