package experiments_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestUnfinishedRunRecorded is issue 25: a run whose process died during it (out of memory,
// SIGKILL) on two attempts is recorded as an error row on the next resume instead of being
// retried for ever; a run unfinished once is retried; a cancelled run is given back, not
// counted; the start log is removed once the folder is complete.
func TestUnfinishedRunRecorded(t *testing.T) {
	s, err := experiments.Parse([]byte(hookSpec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	runs := s.Expand()
	twice, once := runs[3].ID, runs[7].ID
	dir := t.TempDir()
	// two earlier processes died during run 3, one during run 7
	for _, id := range []string{twice, once, twice} {
		l, _, err := resultsdir.OpenStartLog(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Start(id); err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
	var ran []string
	hookFn.Store(func(context.Context) {})
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 1 || !sum.Complete {
		t.Errorf("summary %+v, want 1 failed, complete", sum)
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, msg, id := tab.Col("status"), tab.Col("error"), tab.Col("run_id")
	for _, row := range tab.Rows {
		switch {
		case row[id] == twice:
			if row[st] != "error" || !strings.Contains(row[msg], "did not finish in 2 earlier attempts") || !strings.Contains(row[msg], "out of memory or killed") {
				t.Errorf("run %s: %q %q", twice, row[st], row[msg])
			}
		case row[st] != "ok":
			t.Errorf("run %s: %q %q", row[id], row[st], row[msg])
		default:
			ran = append(ran, row[id])
		}
	}
	if len(ran) != len(runs)-1 {
		t.Errorf("%d runs ok, want %d", len(ran), len(runs)-1)
	}
	if _, err := os.Stat(filepath.Join(dir, resultsdir.StartedFile)); err == nil {
		t.Error("start log left in a complete folder")
	}

	// a cancelled run is given back: it does not count as unfinished
	dir2 := t.TempDir()
	for attempt := 0; attempt < 3; attempt++ {
		ctx, cancel := context.WithCancel(context.Background())
		hookFn.Store(func(context.Context) { cancel() })
		experiments.Execute(ctx, s, experiments.Options{Out: dir2, Workers: 1})
	}
	hookFn.Store(func(context.Context) {})
	if sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir2, Workers: 1}); err != nil || sum.Failed != 0 || !sum.Complete {
		t.Errorf("after cancellations: %+v %v", sum, err)
	}
}
