package dforeport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("dfo", reporter{}) }

// reporter is the study report of the dfo-* experiments: DFO.md (Tables 1–3, dfo-benchmarks)
// or HEURISTICS.md (the paper's first experiment, dfo-heuristics).
type reporter struct{}

// Study cites the DFO paper (docs/dfo.md).
func (reporter) Study() string {
	return "Araújo & Aloise, a derivative-free optimization algorithm for the protection of individual data (paper)"
}

// Match claims the dfo-* experiments.
func (reporter) Match(experiment string) bool { return strings.HasPrefix(experiment, "dfo-") }

// Write writes DFO.md or HEURISTICS.md and records their verdicts.
func (reporter) Write(dir, _ string, t *reports.Tally) error { return write(dir, t) }
