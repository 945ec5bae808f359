package resultsdir

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
)

// Verdict is what a report concludes about one published number or claim
// (docs/reproducing.md). The constants below are the whole vocabulary.
type Verdict string

// The verdicts, in the order the status page prints them.
const (
	Exact         Verdict = "exact"            // equal at the published precision
	Tolerance     Verdict = "within tolerance" // inside the table's stated band
	Pattern       Verdict = "pattern"          // the qualitative finding holds
	NotReproduced Verdict = "not reproduced"   // computed, and it does not hold
	NotPossible   Verdict = "not reproducible" // cannot be computed here (confidential data, missing software)
)

var verdicts = []Verdict{Exact, Tolerance, Pattern, NotReproduced, NotPossible}

// Verdicts returns the vocabulary in the order the status page prints it.
func Verdicts() []Verdict { return slices.Clone(verdicts) }

// ParseVerdict returns the verdict spelled s, or an error naming s when it is not one of
// Verdicts.
func ParseVerdict(s string) (Verdict, error) {
	if v := Verdict(s); slices.Contains(verdicts, v) {
		return v, nil
	}
	return "", fmt.Errorf("resultsdir: unknown verdict %q", s)
}

// Source says what a verdict checks: a number or claim printed in the source publication, or a
// reference value (sdcMicro's output, a formula, our own defaults) that checks our code but
// reproduces nothing of the publication.
type Source string

// The sources of a verdict.
const (
	SourceStudy     Source = "study"     // a number or claim printed in the publication
	SourceReference Source = "reference" // sdcMicro, a formula, or our own defaults
)

// ParseSource returns the source spelled s, or an error naming s when it is neither
// SourceStudy nor SourceReference.
func ParseSource(s string) (Source, error) {
	if v := Source(s); v == SourceStudy || v == SourceReference {
		return v, nil
	}
	return "", fmt.Errorf("resultsdir: unknown verdict source %q (want %s or %s)", s, SourceStudy, SourceReference)
}

// check returns an error when the row's verdict or source is outside the vocabulary or its
// item is empty.
func (v VerdictRow) check() error {
	if _, err := ParseVerdict(string(v.Verdict)); err != nil {
		return err
	}
	if _, err := ParseSource(string(v.Source)); err != nil {
		return fmt.Errorf("%w (%s, %s)", err, v.Table, v.Item)
	}
	if v.Item == "" {
		return fmt.Errorf("resultsdir: a verdict without an item (%s, %s)", v.Table, v.Verdict)
	}
	return nil
}

// VerdictRow is one line of verdicts.csv: a published number or claim of a study judged
// against ours.
type VerdictRow struct {
	Study   string  // the publication, as the study report cites it
	Source  Source  // what the verdict checks: SourceStudy or SourceReference
	Table   string  // the publication's table, figure or claim, e.g. "Table 2"
	Item    string  // the cell or claim within it
	Verdict Verdict // one of Verdicts
}

var verdictsHeader = []string{"study", "source", "table", "item", "verdict"}

// ReadVerdicts reads dir/verdicts.csv. A missing file is an error wrapping os.ErrNotExist; a
// verdict or source outside the vocabulary, a missing column or an empty item is an error naming
// it.
func ReadVerdicts(dir string) ([]VerdictRow, error) {
	path := filepath.Join(dir, VerdictsFile)
	t, err := ReadTable(path)
	if err != nil {
		return nil, err
	}
	s, src, tb, it, v := t.Col("study"), t.Col("source"), t.Col("table"), t.Col("item"), t.Col("verdict")
	if s < 0 || src < 0 || tb < 0 || it < 0 || v < 0 {
		return nil, fmt.Errorf("resultsdir: %s: want columns %s", path, strings.Join(verdictsHeader, ", "))
	}
	rows := make([]VerdictRow, 0, len(t.Rows))
	for i, r := range t.Rows {
		row := VerdictRow{Study: r[s], Source: Source(r[src]), Table: r[tb], Item: r[it], Verdict: Verdict(r[v])}
		if err := row.check(); err != nil {
			return nil, fmt.Errorf("%w (%s line %d)", err, path, i+2)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteVerdicts writes rows to dir/verdicts.csv, atomically, or removes the file when there
// are none (a report that reproduces no publication). A verdict or source outside the
// vocabulary, or an empty item, is an error and nothing is written.
func WriteVerdicts(dir string, rows []VerdictRow) error {
	path := filepath.Join(dir, VerdictsFile)
	for _, r := range rows {
		if err := r.check(); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("resultsdir: %w", err)
		}
		return nil
	}
	err := datasets.AtomicWrite(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(verdictsHeader)
		for _, v := range rows {
			cw.Write([]string{v.Study, string(v.Source), v.Table, v.Item, string(v.Verdict)})
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return nil
}
