package perturbreport

import (
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("perturbative", reporter{}) }

// reporter is the study report of the numeric perturbative experiments (perturbative-analytic,
// -table28, -restricted, -sweep) and of the sdcMicro agreement folder; the categorical stage
// has its own (experiments/catreport).
type reporter struct{}

// Study cites Morais (2022) (docs/perturbative.md).
func (reporter) Study() string {
	return "Morais (2022), comparison of perturbative masking methods, MSc dissertation, Universidade do Minho (numeric stage)"
}

// Match claims the perturbative-* experiments except perturbative-categorical.
func (reporter) Match(experiment string) bool {
	return strings.HasPrefix(experiment, "perturbative-") && experiment != "perturbative-categorical"
}

// Write writes PERTURBATIVE.md and records its verdicts.
func (reporter) Write(dir, _ string, t *reports.Tally) error {
	rows, err := WriteVerdicts(dir)
	for _, v := range rows {
		t.Add(v.Table, v.Item, v.Verdict)
	}
	return err
}
