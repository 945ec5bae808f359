package fcrm

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.expected.csv
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name: "fcrm",
		// The document does not name its author.
		Citation: "Synthetic microdata by fuzzy c-regression models (FCRM) against IPSO, final-degree project (2009)",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter is the study report of the fcrm-* experiments (FCRM.md).
type reporter struct{}

// Write writes FCRM.md and its plots and records its verdicts.
func (reporter) Write(dir, _ string, t *studies.Tally) error { return write(dir, t) }
