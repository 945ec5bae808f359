package experiments_test

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

const profileSpec = `name = "prof"
seed = 1
replicates = 2
profile = true
datasets = ["normal_d3_n3000"]
metrics = ["sse_sst", "dld"]
[[methods]]
name = "mdav"
`

// TestProfileColumns checks profile = true: one <metric>_seconds column per metric, and
// cpu_seconds and peak_heap_mb that are positive with one worker (mdav on 3000 rows allocates
// and burns CPU) and NaN with two.
func TestProfileColumns(t *testing.T) {
	s, err := experiments.Parse([]byte(profileSpec), "prof.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sse_sst_seconds", "dld_seconds", "cpu_seconds", "peak_heap_mb", "seconds"}
	if h := s.Header(); !slices.Equal(h[len(h)-7:len(h)-2], want) {
		t.Fatalf("header %v, want … %v status error", h, want)
	}
	for _, w := range []int{1, 2} {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(w))
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: w}); err != nil {
			t.Fatal(err)
		}
		tab, err := resultsdir.ReadRuns(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range tab.Rows {
			cpu, _ := strconv.ParseFloat(row[tab.Col("cpu_seconds")], 64)
			heap, _ := strconv.ParseFloat(row[tab.Col("peak_heap_mb")], 64)
			dld, _ := strconv.ParseFloat(row[tab.Col("dld_seconds")], 64)
			if w == 1 && !(cpu > 0 && heap > 0 && dld >= 0) {
				t.Errorf("1 worker: cpu_seconds %v, peak_heap_mb %v, dld_seconds %v", cpu, heap, dld)
			}
			if w == 2 && !(math.IsNaN(cpu) && math.IsNaN(heap)) {
				t.Errorf("2 workers: cpu_seconds %v, peak_heap_mb %v, want NaN", cpu, heap)
			}
		}
	}
}
