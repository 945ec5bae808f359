package auditreport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("audit", reporter{}) }

// reporter writes AUDIT.md for the experiments named dp-audit*: the empirical ε lower bounds
// against the claimed ε. It reproduces no publication, so it records no verdicts.
type reporter struct{}

// Study names what the audit checks.
func (reporter) Study() string {
	return "empirical ε audit of the ε-DP synthesizers (no published table)"
}

// Match claims the experiments whose name starts with "dp-audit".
func (reporter) Match(experiment string) bool { return strings.HasPrefix(experiment, "dp-audit") }

// Write writes AUDIT.md.
func (reporter) Write(dir, _ string, _ *reports.Tally) error { return Write(dir) }
