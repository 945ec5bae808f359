package all_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

// regenerated lists the committed results folders whose grids run in seconds, with the spec
// that wrote each. TestCommittedRunsRegenerate runs them again and compares every value column
// with the committed runs.csv, so that a change that alters a committed number, or makes runs
// fail that used to succeed (a wrapped method losing its labels, say), fails CI instead of
// waiting for the next `make reproduce`.
var regenerated = []struct{ folder, spec string }{
	{"quickstart-example", "quickstart"},
	{"fcrm-toy", "fcrm-toy"},
	{"magga-calibration-small", "magga-calibration-small"},
	{"magga-final-small", "magga-final-small"},
	{"attacks-classics", "attacks-classics"},
	{"scaling-small", "scaling-small"},
	{"dp-e1", "dp-e1"},
	{"dp-e3", "dp-e3"},
	{"dp-e5", "dp-e5"},
	{"perturbative-categorical", "perturbative-categorical"},
	{"perturbative-analytic", "perturbative-analytic"},
}

// timing reports whether a runs.csv column holds a time or a memory figure, which differ from
// run to run.
func timing(col string) bool {
	return col == "seconds" || col == "cpu_seconds" || col == "peak_heap_mb" || strings.HasSuffix(col, "_seconds") ||
		strings.HasSuffix(col, "_cpu") || col == "dfo_cpu"
}

// TestCommittedRunsRegenerate re-runs the small committed experiments (regenerated) and checks
// that every run has the same status, error and value in every column but the timings as in
// the committed results/<folder>/runs.csv.
func TestCommittedRunsRegenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("re-runs committed experiments (about a minute); skipped with -short")
	}
	root := filepath.Join("..", "..", "results")
	for _, c := range regenerated {
		t.Run(c.folder, func(t *testing.T) {
			want, err := resultsdir.ReadRuns(filepath.Join(root, c.folder))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := experiments.Load(c.spec, studies.Bundled())
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if _, err := experiments.Execute(context.Background(), spec, experiments.Options{Out: out, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			got, err := resultsdir.ReadRuns(out)
			if err != nil {
				t.Fatal(err)
			}
			compareRuns(t, c.folder, want, got)
		})
	}
}

// compareRuns reports every run of want that got lacks or records differently, outside the
// timing columns.
func compareRuns(t *testing.T, folder string, want, got *resultsdir.Table) {
	t.Helper()
	if !slices.Equal(want.Header, got.Header) {
		t.Fatalf("%s: columns differ:\ncommitted %v\nnow       %v", folder, want.Header, got.Header)
	}
	id := want.Col("run_id")
	byID := make(map[string][]string, len(got.Rows))
	for _, r := range got.Rows {
		byID[r[id]] = r
	}
	if len(got.Rows) != len(want.Rows) {
		t.Errorf("%s: %d runs, committed %d", folder, len(got.Rows), len(want.Rows))
	}
	bad := 0
	for _, w := range want.Rows {
		g, ok := byID[w[id]]
		if !ok {
			t.Errorf("%s: run %s missing", folder, w[id])
			continue
		}
		for j, col := range want.Header {
			if timing(col) || g[j] == w[j] {
				continue
			}
			if bad++; bad <= 10 {
				t.Errorf("%s: run %s (%s): %s = %q, committed %q", folder, w[id], strings.Join(w[1:3], " "), col, g[j], w[j])
			}
		}
	}
	if bad > 10 {
		t.Errorf("%s: %d differing values in all", folder, bad)
	}
}
