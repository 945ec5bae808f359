package studies

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// The verdicts a report gives a published number or claim: resultsdir's vocabulary
// (docs/reproducing.md), as strings for the reports' own tables.
const (
	Exact         = string(resultsdir.Exact)
	Tolerance     = string(resultsdir.Tolerance)
	Pattern       = string(resultsdir.Pattern)
	NotReproduced = string(resultsdir.NotReproduced)
	NotPossible   = string(resultsdir.NotPossible)
)

// Tally collects the verdicts a report computes, in the order it computes them. The zero
// value is ready to use.
type Tally struct {
	rows  []resultsdir.VerdictRow
	files []string
}

// Add records a verdict on a number or claim printed in the publication (source "study") and
// returns it, so that a report can print it in the same breath. A verdict outside resultsdir's
// vocabulary is a programming error and panics.
func (t *Tally) Add(table, item, verdict string) string {
	return t.add(resultsdir.SourceStudy, table, item, verdict)
}

// AddRef records a verdict on a reference value that is not printed in the publication
// (source "reference": sdcMicro's output, a formula, our own defaults) and returns it.
func (t *Tally) AddRef(table, item, verdict string) string {
	return t.add(resultsdir.SourceReference, table, item, verdict)
}

func (t *Tally) add(src resultsdir.Source, table, item, verdict string) string {
	v, err := resultsdir.ParseVerdict(verdict)
	if err != nil {
		panic(fmt.Sprintf("reports: %v", err))
	}
	t.rows = append(t.rows, resultsdir.VerdictRow{Source: src, Table: table, Item: item, Verdict: v})
	return verdict
}

// Check records Pattern when ok holds and NotReproduced otherwise, on a claim of the
// publication, and returns it.
func (t *Tally) Check(table, item string, ok bool) string {
	if ok {
		return t.Add(table, item, Pattern)
	}
	return t.Add(table, item, NotReproduced)
}

// CheckRef is Check for a reference claim (AddRef).
func (t *Tally) CheckRef(table, item string, ok bool) string {
	if ok {
		return t.AddRef(table, item, Pattern)
	}
	return t.AddRef(table, item, NotReproduced)
}

// Wrote records that the report wrote the file name (a Markdown page in the results folder),
// so that REPORT.md links it (resultsdir.RecordReports).
// A nil Tally records nothing.
func (t *Tally) Wrote(name string) {
	if t != nil {
		t.files = append(t.files, name)
	}
}

// Files returns the report files recorded by Wrote.
func (t *Tally) Files() []string { return t.files }

// Rows returns the verdicts recorded so far (their Study is left empty).
func (t *Tally) Rows() []resultsdir.VerdictRow { return t.rows }

// Reporter writes the companion report of a study for one results folder.
type Reporter interface {
	// Write writes the report files of the experiment into dir, reading the folder's runs,
	// and records every verdict it prints in t.
	Write(dir, experiment string, t *Tally) error
}

// VerdictsFile is the file in a results folder that holds a report's verdicts.
const VerdictsFile = resultsdir.VerdictsFile

// ErrNoReporter is returned by Write when no registered study with a Reporter owns the
// experiment.
var ErrNoReporter = errors.New("no study report for this experiment")

// Write runs the study report of the results folder dir, found by the experiment name in
// dir/manifest.json (or the folder's name when it has no manifest: results written by a
// script rather than by a run), through resultsdir.WriteStudyReport: its verdicts go to
// dir/verdicts.csv (no file when it gave none) and the Markdown files it wrote are recorded as
// the folder's companion reports. It returns the study's name, or an error wrapping
// ErrNoReporter when no study with a Reporter owns the experiment.
func Write(dir string) (string, error) {
	exp := filepath.Base(filepath.Clean(dir))
	if m, err := resultsdir.ReadManifest(dir); err == nil {
		exp = m.Name
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reports: %w", err)
	}
	st, ok := For(exp)
	if !ok || st.Report == nil {
		return "", fmt.Errorf("reports: %s (experiment %q): %w", dir, exp, ErrNoReporter)
	}
	name := st.Name
	err := resultsdir.WriteStudyReport(dir, st.Cite(exp), func() ([]resultsdir.VerdictRow, []string, error) {
		var t Tally
		if err := st.Report.Write(dir, exp, &t); err != nil {
			return nil, nil, fmt.Errorf("reports: %s: %w", name, err)
		}
		return t.Rows(), t.Files(), nil
	})
	return name, err
}
