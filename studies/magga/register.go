package maggareport

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("magga", reporter{}) }

// reporter is the study report of the magga-calibration and magga-final experiments (and
// their -small versions).
type reporter struct{}

// Study cites the MAGGA dissertation (docs/magga.md).
func (reporter) Study() string {
	return "MAGGA: a genetic algorithm for microaggregation, MSc dissertation (code: augustofadel/magga)"
}

// kind returns the report kind of an experiment: calibration or final.
func kind(experiment string) string {
	switch {
	case strings.HasPrefix(experiment, "magga-calibration"):
		return "calibration"
	case strings.HasPrefix(experiment, "magga-final"):
		return "final"
	}
	return ""
}

// Match claims magga-calibration* and magga-final*.
func (reporter) Match(experiment string) bool { return kind(experiment) != "" }

// Write writes MAGGA.md (and its plots) into dir.
func (reporter) Write(dir, experiment string, t *reports.Tally) error {
	var buf bytes.Buffer
	if err := Write(&buf, t, kind(experiment), dir); err != nil {
		return err
	}
	return datasets.AtomicWrite(filepath.Join(dir, "MAGGA.md"), func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}
