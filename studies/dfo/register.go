package dfo

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.expected.csv
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "dfo",
		Citation: "Araújo & Aloise, a derivative-free optimization algorithm for the protection of individual data (paper)",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter is the study report of the dfo-* experiments: DFO.md (Tables 1–3, dfo-benchmarks)
// or HEURISTICS.md (the paper's first experiment, dfo-heuristics).
type reporter struct{}

// Write writes DFO.md or HEURISTICS.md and records their verdicts.
func (reporter) Write(dir, _ string, t *studies.Tally) error { return write(dir, t) }
