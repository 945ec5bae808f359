package magga

import (
	"bytes"
	"embed"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.notes.md *.expected.csv
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "magga",
		Citation: "MAGGA: a genetic algorithm for microaggregation, MSc dissertation (code: augustofadel/magga)",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter is the study report of the magga-calibration and magga-final experiments (and
// their -small versions).
type reporter struct{}

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

// Write writes MAGGA.md (and its plots) into dir.
func (reporter) Write(dir, experiment string, t *studies.Tally) error {
	var buf bytes.Buffer
	if err := Write(&buf, t, kind(experiment), dir); err != nil {
		return err
	}
	t.Wrote("MAGGA.md")
	return datasets.AtomicWrite(filepath.Join(dir, "MAGGA.md"), func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}
