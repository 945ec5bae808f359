package dp

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.expected.csv *.reference.csv
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name: "dp",
		// The dissertation on ε-differentially private synthetic binary and categorical data
		// that extends Charest's (2011) Bayesian inference.
		Citation: "ε-differentially private synthetic binary and categorical data with Bayesian inference after Charest (2011), MSc dissertation, with a SUSEP car-insurance application",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter is the study report of the dp-e1 … dp-e10 experiments.
type reporter struct{}

// Write writes DP.md and its plots.
func (reporter) Write(dir, experiment string, t *studies.Tally) error {
	return Write(dir, experiment, t)
}
