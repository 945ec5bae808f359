package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// reportMissing writes to w, for eval, how many cells of the release file are missing where
// the original has a value, per column, and how many are missing in both; the measures skip
// them (docs/metrics.md §0.4). eval cannot tell a declared suppression from a hole, so it
// counts them all and says so: a hole is never silent (docs/metrics.md §0.4). Nothing is written
// when no cell is missing.
func reportMissing(w io.Writer, file string, orig, rel *datasets.Dataset) {
	mc := metrics.CountMissing(orig, rel)
	list := func(counts []int) (int, string) { return missingList(mc.Names, counts) }
	if lost, cols := list(mc.Lost); lost > 0 {
		fmt.Fprintf(w, "eval: %s: %d cells missing where the original has a value (%s): each measure skips them by its rule (docs/metrics.md §0.4); cells the method did not declare as suppressions are holes\n",
			file, lost, cols)
	}
	if both, cols := list(mc.Both); both > 0 {
		fmt.Fprintf(w, "eval: %s: %d cells missing in the original and the release (%s): each measure skips them by its rule (docs/metrics.md §0.4)\n", file, both, cols)
	}
}

// reportMissingRelease writes to w, for eval of the release alone, how many cells of rel,
// read from file, are missing, per column; the measures treat them by their rule
// (docs/metrics.md §0.4). Nothing is written when no cell is missing.
func reportMissingRelease(w io.Writer, file string, rel *datasets.Dataset) {
	mc := metrics.CountMissing(rel, rel) // with itself as the original every missing cell is in Both
	if total, cols := missingList(mc.Names, mc.Both); total > 0 {
		fmt.Fprintf(w, "eval: %s: %d cells missing in the release (%s): each measure treats them by its rule (docs/metrics.md §0.4: a missing key matches any value in the frequencies and risks of §4.1–4.4, is a category of its own to l-diversity and risky_cells, never part of a SUDA MSU)\n",
			file, total, cols)
	}
}

// missingList returns the sum of counts and the columns with a count, as "name count" joined
// by commas (names[j] is column j's name).
func missingList(names []string, counts []int) (total int, cols string) {
	var parts []string
	for j, c := range counts {
		if c > 0 {
			total += c
			parts = append(parts, fmt.Sprintf("%s %d", names[j], c))
		}
	}
	return total, strings.Join(parts, ", ")
}

// missingNotes gathers the measures' notes about missing cells (metrics.NoteMissing: computed
// on the complete cases, or undefined), so that eval says what each measure skipped.
type missingNotes struct {
	order []string            // notes in first-seen order
	ids   map[string][]string // note → measure IDs
}

// add records res's notes about missing cells under the measure id.
func (m *missingNotes) add(id string, res metrics.Result) {
	for _, n := range res.Notes {
		if !strings.HasPrefix(n, metrics.NoteMissing) {
			continue
		}
		if m.ids == nil {
			m.ids = map[string][]string{}
		}
		if _, ok := m.ids[n]; !ok {
			m.order = append(m.order, n)
		}
		m.ids[n] = append(m.ids[n], id)
	}
}

// write prints one line per distinct note with the measures it concerns.
func (m *missingNotes) write(w io.Writer) {
	for _, n := range m.order {
		fmt.Fprintf(w, "eval: %s: %s\n", n, strings.Join(m.ids[n], ", "))
	}
}
