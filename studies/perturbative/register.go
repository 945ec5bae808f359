package perturbative

import (
	"embed"
	"fmt"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md categorical.md eusilcs.md *.toml *.expected.csv *.reference.csv
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
			eusilcsExperiment:     "Morais (2022), comparison of perturbative masking methods, MSc dissertation, Universidade do Minho (EusilcS walkthrough, section 6.3; sdcMicro 5.8.1 as reference)",
		},
		Files:   files,
		Report:  reporter{},
		Folders: []string{"perturbative-sdcmicro"}, // the sdcMicro agreement (bench/sdcmicro_test.go)
	})
}

// reporter is the study report: CATEGORICAL.md for the categorical stage, EUSILCS.md for the
// EusilcS walkthrough (perturbative-eusilcs), PERTURBATIVE.md for
// the numeric experiments (perturbative-analytic, -table28, -restricted, -sweep) and the
// sdcMicro agreement folder.
type reporter struct{}

// Write writes CATEGORICAL.md, EUSILCS.md or PERTURBATIVE.md and records its verdicts.
func (reporter) Write(dir, experiment string, t *studies.Tally) error {
	write, file := WriteVerdicts, File
	switch experiment {
	case categoricalExperiment:
		write, file = WriteCategoricalVerdicts, "CATEGORICAL.md"
	case eusilcsExperiment:
		write, file = WriteEusilcsVerdicts, EusilcsFile
	}
	t.Wrote(file)
	rows, err := write(dir)
	if rerr := record(t, rows); rerr != nil {
		return fmt.Errorf("perturbative: %s: %w", dir, rerr)
	}
	return err
}

// record adds the verdicts to t, reference ones (Verdict.Ref) with AddRef; a verdict without an
// item is an error and stops the recording.
func record(t *studies.Tally, rows []Verdict) error {
	for _, v := range rows {
		if v.Item == "" {
			return fmt.Errorf("a verdict of %q without an item", v.Table)
		}
		if v.Ref {
			t.AddRef(v.Table, v.Item, v.Verdict)
		} else {
			t.Add(v.Table, v.Item, v.Verdict)
		}
	}
	return nil
}
