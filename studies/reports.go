package studies

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
	// Write writes the report files of the experiment into dir, reading the folder's runs,
	// and records every verdict it prints in t.
	Write(dir, experiment string, t *Tally) error
}

// VerdictsFile is the file in a results folder that holds a report's verdicts.
const VerdictsFile = "verdicts.csv"

var verdictsHeader = []string{"study", "table", "item", "verdict"}

// ErrNoReporter is returned by Write when no registered study with a Reporter owns the
// experiment.
var ErrNoReporter = errors.New("no study report for this experiment")

// Write runs the study report of the results folder dir, found by the experiment name in
// dir/manifest.json (or the folder's name when it has no manifest: results written by a
// script rather than by a run), and stores its verdicts in dir/verdicts.csv (no file when it
// gave none). It returns the study's name, or an error wrapping ErrNoReporter when no study
// with a Reporter owns the experiment.
func Write(dir string) (string, error) {
	exp := filepath.Base(filepath.Clean(dir))
	if m, err := experiments.ReadManifest(dir); err == nil {
		exp = m.Name
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reports: %w", err)
	}
	st, ok := For(exp)
	if !ok || st.Report == nil {
		return "", fmt.Errorf("reports: %s (experiment %q): %w", dir, exp, ErrNoReporter)
	}
	name := st.Name
	var t Tally
	if err := st.Report.Write(dir, exp, &t); err != nil {
		return name, fmt.Errorf("reports: %s: %w", name, err)
	}
	path := filepath.Join(dir, VerdictsFile)
	if len(t.Rows()) == 0 { // a report that reproduces no publication (e.g. the attacks)
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return name, fmt.Errorf("reports: %w", err)
		}
		return name, nil
	}
	return name, writeVerdicts(path, st.Cite(exp), t.Rows())
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
