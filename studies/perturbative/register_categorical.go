package catreport

import "github.com/sdcbench/sdcbench/experiments/reports"

func init() { reports.Register("categorical", reporter{}) }

type reporter struct{}

// Study cites the publication whose categorical stage perturbative-categorical stands in for.
func (reporter) Study() string {
	return "Morais (2022), comparison of perturbative masking methods, MSc dissertation, Universidade do Minho (categorical stage; sdcMicro 5.8.1 on testdata as reference)"
}

// Match claims perturbative-categorical only.
func (reporter) Match(experiment string) bool { return experiment == "perturbative-categorical" }

// Write writes CATEGORICAL.md and records its verdicts.
func (reporter) Write(dir, _ string, t *reports.Tally) error {
	rows, err := WriteVerdicts(dir)
	for _, v := range rows {
		t.Add(v.Table, v.Item, v.Verdict)
	}
	return err
}
