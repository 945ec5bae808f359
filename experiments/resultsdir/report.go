package resultsdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

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
// returns the verdicts it gave and the names (in dir) of the report files it wrote; those are
// recorded as companion reports (RecordReports), and the verdicts are stored in verdicts.csv
// with study as their Study (no file when there are none). When write fails, nothing is
// recorded.
func WriteStudyReport(dir, study string, write func() (rows []VerdictRow, files []string, err error)) error {
	rows, files, err := write()
	if err != nil {
		return err
	}
	if err := RecordReports(dir, files...); err != nil {
		return err
	}
	for i := range rows {
		rows[i].Study = study
	}
	return WriteVerdicts(dir, rows)
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
