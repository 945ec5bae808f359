package attackreport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("attacks", reporter{}) }

// reporter writes ATTACKS.md for the experiments named attacks-*: the attack metrics against
// the classic risk measures. It reproduces no publication, so it records no verdicts.
type reporter struct{}

// Study names the framework the attacks follow.
func (reporter) Study() string {
	return "Giomi et al. (2022), a unified framework for quantifying privacy risk in synthetic data (attacks against the classic measures; no published table)"
}

// Match claims the experiments whose name starts with "attacks-".
func (reporter) Match(experiment string) bool { return strings.HasPrefix(experiment, "attacks-") }

// Write writes ATTACKS.md.
func (reporter) Write(dir, _ string, _ *reports.Tally) error { return Write(dir) }
