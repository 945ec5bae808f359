// Package reports is the registry of study reports: the code that puts a publication's
// tables beside the runs of an experiment that reproduces it and judges each published number
// or claim (docs/reproducing.md).
//
// A reproduction is data plus, where its tables need code, one Reporter. A Reporter registers
// itself from an init function, like a method or a metric, and claims the experiments it
// explains by name (Match). `sdcbench report DIR` and `sdcbench run` find it through the name
// recorded in DIR/manifest.json; the harness packages (experiments, analysis) never import a
// study's code. Every Reporter returns the verdicts it computed; Write stores them in
// DIR/verdicts.csv, which the reproduction status page (Status) counts.
package reports

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/internal/registry"
)

// The verdicts a report gives a published number or claim (docs/reproducing.md).
const (
	Exact         = "exact"            // equal at the published precision
	Tolerance     = "within tolerance" // inside the table's stated band
	Pattern       = "pattern"          // the qualitative finding holds
	NotReproduced = "not reproduced"   // computed, and it does not hold
	NotPossible   = "not reproducible" // cannot be computed here (confidential data, missing software)
)

// Verdicts lists the verdicts in the order the status page prints them.
var Verdicts = []string{Exact, Tolerance, Pattern, NotReproduced, NotPossible}

// Verdict is one published number or claim judged against ours.
type Verdict struct {
	Table   string // the publication's table, figure or claim, e.g. "Table 2"
	Item    string // the cell or claim within it
	Verdict string // one of Verdicts
}

// Tally collects the verdicts a report computes, in the order it computes them. The zero
// value is ready to use.
type Tally struct {
	rows []Verdict
}

// Add records a verdict and returns it, so that a report can print it in the same breath.
// A verdict outside Verdicts is a programming error and panics.
func (t *Tally) Add(table, item, verdict string) string {
	if !slices.Contains(Verdicts, verdict) {
		panic(fmt.Sprintf("reports: unknown verdict %q", verdict))
	}
	t.rows = append(t.rows, Verdict{Table: table, Item: item, Verdict: verdict})
	return verdict
}

// Check records Pattern when ok holds and NotReproduced otherwise, and returns it.
func (t *Tally) Check(table, item string, ok bool) string {
	if ok {
		return t.Add(table, item, Pattern)
	}
	return t.Add(table, item, NotReproduced)
}

// Rows returns the verdicts recorded so far.
func (t *Tally) Rows() []Verdict { return t.rows }

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
const VerdictsFile = "verdicts.csv"

var verdictsHeader = []string{"study", "table", "item", "verdict"}

// ErrNoReporter is returned by Write when no registered reporter explains the experiment.
var ErrNoReporter = errors.New("no study report for this experiment")

// Write runs the study report of the results folder dir, found by the experiment name in
// dir/manifest.json (or the folder's name when it has no manifest: results written by a
// script rather than by a run), and stores its verdicts in dir/verdicts.csv (no file when it
// gave none). It returns the reporter's name, or an error wrapping ErrNoReporter when none
// matches.
func Write(dir string) (string, error) {
	exp := filepath.Base(filepath.Clean(dir))
	if m, err := experiments.ReadManifest(dir); err == nil {
		exp = m.Name
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reports: %w", err)
	}
	name, r, ok := For(exp)
	if !ok {
		return "", fmt.Errorf("reports: %s (experiment %q): %w", dir, exp, ErrNoReporter)
	}
	var t Tally
	if err := r.Write(dir, exp, &t); err != nil {
		return name, fmt.Errorf("reports: %s: %w", name, err)
	}
	path := filepath.Join(dir, VerdictsFile)
	if len(t.Rows()) == 0 { // a report that reproduces no publication (e.g. the attacks)
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return name, fmt.Errorf("reports: %w", err)
		}
		return name, nil
	}
	return name, writeVerdicts(path, r.Study(), t.Rows())
}

func writeVerdicts(path, study string, rows []Verdict) error {
	return datasets.AtomicWrite(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(verdictsHeader)
		for _, v := range rows {
			cw.Write([]string{study, v.Table, v.Item, v.Verdict})
		}
		cw.Flush()
		return cw.Error()
	})
}
