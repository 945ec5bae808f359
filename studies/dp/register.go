package dpreport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("dp", reporter{}) }

// reporter is the study report of the dp-e1 … dp-e10 experiments.
type reporter struct{}

// Study cites the dissertation on ε-differentially private synthetic binary and categorical
// data that extends Charest's (2011) Bayesian inference (docs/dp.md).
func (reporter) Study() string {
	return "ε-differentially private synthetic binary and categorical data with Bayesian inference after Charest (2011), MSc dissertation, with a SUSEP car-insurance application"
}

// Match claims the experiments that have a report generator (dp-e1 … dp-e10).
func (reporter) Match(experiment string) bool {
	_, ok := generators[experiment]
	return ok && strings.HasPrefix(experiment, "dp-e")
}

// Write writes DP.md and its plots.
func (reporter) Write(dir, experiment string, t *reports.Tally) error {
	return Write(dir, experiment, t)
}
