package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// editRuns copies testdata/small and rewrites its runs.csv with edit.
func editRuns(t *testing.T, edit func(lines []string) []string) string {
	t.Helper()
	dir := copyDir(t, filepath.Join("testdata", "small"))
	path := filepath.Join(dir, resultsdir.RunsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// dropColumn removes the named column from CSV lines without quoted commas.
func dropColumn(lines []string, name string) []string {
	col := -1
	for i, h := range strings.Split(lines[0], ",") {
		if h == name {
			col = i
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		f := strings.Split(l, ",")
		out[i] = strings.Join(append(f[:col:col], f[col+1:]...), ",")
	}
	return out
}

// TestAnalyzeRefuses is issue 14 item 6: a runs.csv without a column of the spec's metrics and
// a runs.csv with a run recorded twice are errors, not silently analysed.
func TestAnalyzeRefuses(t *testing.T) {
	dir := editRuns(t, func(l []string) []string { return dropColumn(l, "dld") })
	if _, err := Analyze(context.Background(), dir, Config{Plots: new(bool)}); err == nil || !strings.Contains(err.Error(), `"dld"`) {
		t.Errorf("missing metric column: %v", err)
	}
	dir = editRuns(t, func(l []string) []string { return append(l, l[1]) })
	if _, err := Analyze(context.Background(), dir, Config{Plots: new(bool)}); err == nil || !strings.Contains(err.Error(), "r001") ||
		!strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate run_id: %v", err)
	}
}

// TestAllNaNMetricHasNoBest is issue 14 item 6: a metric that is NaN in every run gives no
// best configuration (no best.csv rows), while the other metrics keep theirs.
func TestAllNaNMetricHasNoBest(t *testing.T) {
	dir := editRuns(t, func(lines []string) []string {
		col := -1
		for i, h := range strings.Split(lines[0], ",") {
			if h == "dld" {
				col = i
			}
		}
		for i := 1; i < len(lines); i++ {
			f := strings.Split(lines[i], ",")
			f[col] = "NaN"
			lines[i] = strings.Join(f, ",")
		}
		return lines
	})
	res, err := Analyze(context.Background(), dir, Config{Plots: new(bool), BestBy: []string{"sse_sst", "dld"}})
	if err != nil {
		t.Fatal(err)
	}
	var nSSE int
	for _, b := range res.Best {
		if b.Metric == "dld" {
			t.Fatalf("dld (NaN in every run) has a best row: %+v", b)
		}
		if b.Metric == "sse_sst" {
			nSSE++
			if b.Rank == 1 && math.IsNaN(b.Median) {
				t.Error("sse_sst best is NaN")
			}
		}
	}
	if nSSE == 0 {
		t.Error("sse_sst lost its best rows")
	}
	if err := res.Write(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	best, _ := os.ReadFile(filepath.Join(dir, "best.csv"))
	if strings.Contains(string(best), "\ndld,") {
		t.Errorf("best.csv ranks dld:\n%s", best)
	}
}
