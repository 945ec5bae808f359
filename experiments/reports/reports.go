// Package reports is the registry of study reports: the code that puts a publication's
// tables beside the runs of an experiment that reproduces it and judges each published number
// or claim (docs/reproducing.md).
//
// A reproduction is data plus, where its tables need code, one Reporter. A Reporter registers
// itself from an init function, like a method or a metric, and claims the experiments it
// explains by name (Match). `sdcbench report DIR` and `sdcbench run` find it through the name
// recorded in DIR/manifest.json; the harness packages (experiments, analysis) never import a
// study's code. Every Reporter returns the verdicts it computed; Write stores them in
// DIR/verdicts.csv through resultsdir, which owns the verdict vocabulary, and the reproduction
// status page (Status) counts them.
package reports

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/internal/registry"
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
	rows []resultsdir.VerdictRow
}

// Add records a verdict and returns it, so that a report can print it in the same breath.
// A verdict outside resultsdir's vocabulary is a programming error and panics.
func (t *Tally) Add(table, item, verdict string) string {
	v, err := resultsdir.ParseVerdict(verdict)
	if err != nil {
		panic(fmt.Sprintf("reports: %v", err))
	}
	t.rows = append(t.rows, resultsdir.VerdictRow{Table: table, Item: item, Verdict: v})
	return verdict
}

// Check records Pattern when ok holds and NotReproduced otherwise, and returns it.
func (t *Tally) Check(table, item string, ok bool) string {
	if ok {
		return t.Add(table, item, Pattern)
	}
	return t.Add(table, item, NotReproduced)
}

// Rows returns the verdicts recorded so far (their Study is left empty).
func (t *Tally) Rows() []resultsdir.VerdictRow { return t.rows }

// Reporter writes the companion report of a study for one results folder.
type Reporter interface {
	// Study cites the publication: authors (where known), title or subject, kind and year.
	Study() string
	// Match reports whether the experiment (the spec's name) is one this Reporter explains.
	Match(experiment string) bool
	// Write writes the report files into dir, reading the folder's runs, and records every
	// verdict it prints in t.
	Write(dir, experiment string, t *Tally) error
}

var reg registry.Registry[Reporter]

// Register makes r available under name (a short key such as "dfo"). It panics on a duplicate
// name; call it from an init function.
func Register(name string, r Reporter) { reg.Add("reports", name, r) }

// Names returns the registered reporters' names, sorted.
func Names() []string { return reg.Names() }

// For returns the reporter that explains the experiment, and its name.
func For(experiment string) (string, Reporter, bool) {
	for _, n := range reg.Names() {
		r, _ := reg.Get(n)
		if r.Match(experiment) {
			return n, r, true
		}
	}
	return "", nil, false
}

// VerdictsFile is the file in a results folder that holds a report's verdicts.
const VerdictsFile = resultsdir.VerdictsFile

// ErrNoReporter is returned by Write when no registered reporter explains the experiment.
var ErrNoReporter = errors.New("no study report for this experiment")

// Write runs the study report of the results folder dir, found by the experiment name in
// dir/manifest.json (or the folder's name when it has no manifest: results written by a
// script rather than by a run), through resultsdir.WriteStudyReport: its verdicts go to
// dir/verdicts.csv (no file when it gave none) and the Markdown files it wrote are recorded as
// the folder's companion reports. It returns the reporter's name, or an error wrapping
// ErrNoReporter when none matches.
func Write(dir string) (string, error) {
	exp := filepath.Base(filepath.Clean(dir))
	if m, err := resultsdir.ReadManifest(dir); err == nil {
		exp = m.Name
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reports: %w", err)
	}
	name, r, ok := For(exp)
	if !ok {
		return "", fmt.Errorf("reports: %s (experiment %q): %w", dir, exp, ErrNoReporter)
	}
	err := resultsdir.WriteStudyReport(dir, r.Study(), func() ([]resultsdir.VerdictRow, error) {
		var t Tally
		if err := r.Write(dir, exp, &t); err != nil {
			return nil, fmt.Errorf("reports: %s: %w", name, err)
		}
		return t.Rows(), nil
	})
	return name, err
}
