package fcrmreport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("fcrm", reporter{}) }

// reporter is the study report of the fcrm-* experiments (FCRM.md).
type reporter struct{}

// Study cites the FCRM project (docs/fcrm.md); the document does not name its author.
func (reporter) Study() string {
	return "Synthetic microdata by fuzzy c-regression models (FCRM) against IPSO, final-degree project (2009)"
}

// Match claims the fcrm-* experiments.
func (reporter) Match(experiment string) bool { return strings.HasPrefix(experiment, "fcrm-") }

// Write writes FCRM.md and its plots and records its verdicts.
func (reporter) Write(dir, _ string, t *reports.Tally) error { return write(dir, t) }
