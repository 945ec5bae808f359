package perturbative

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md categorical.md *.toml *.expected.csv *.reference.csv
var files embed.FS

// categoricalExperiment is the experiment of the study's categorical stage (CATEGORICAL.md); the
// others are of its numeric stage (PERTURBATIVE.md).
const categoricalExperiment = "perturbative-categorical"

func init() {
	studies.Register(studies.Study{
		Name:     "perturbative",
		Citation: "Morais (2022), comparison of perturbative masking methods, MSc dissertation, Universidade do Minho (numeric stage)",
		Parts: map[string]string{
			categoricalExperiment: "Morais (2022), comparison of perturbative masking methods, MSc dissertation, Universidade do Minho (categorical stage; sdcMicro 5.8.1 on testdata as reference)",
		},
		Files:   files,
		Report:  reporter{},
		Folders: []string{"perturbative-sdcmicro"}, // the sdcMicro agreement (bench/sdcmicro_test.go)
	})
}

// reporter is the study report: CATEGORICAL.md for the categorical stage, PERTURBATIVE.md for
// the numeric experiments (perturbative-analytic, -table28, -restricted, -sweep) and the
// sdcMicro agreement folder.
type reporter struct{}

// Write writes CATEGORICAL.md or PERTURBATIVE.md and records its verdicts.
func (reporter) Write(dir, experiment string, t *studies.Tally) error {
	write, file := WriteVerdicts, File
	if experiment == categoricalExperiment {
		write, file = WriteCategoricalVerdicts, "CATEGORICAL.md"
	}
	t.Wrote(file)
	rows, err := write(dir)
	for _, v := range rows {
		if referenceTables[v.Table] {
			t.AddRef(v.Table, v.Item, v.Verdict)
		} else {
			t.Add(v.Table, v.Item, v.Verdict)
		}
	}
	return err
}

// referenceTables are the report tables whose verdicts check sdcMicro 5.8.1's output or a
// formula (the analytic expectations, PRAM's invariance and expected changes) rather than a
// number or claim printed in the dissertation: their verdicts have source "reference" in
// verdicts.csv; every other table's (Tables 28 and 34, Figs. 11-19, the dissertation's numbers
// that cannot be computed here) have source "study".
var referenceTables = map[string]bool{
	"analytic expectations":    true,
	"sdcMicro 5.8.1 agreement": true,
	section1:                   true, // sdcMicro 5.8.1 risk and suppression on testdata
	section3:                   true, // agreement with sdcMicro 5.8.1
	"PRAM checks":              true,
}
