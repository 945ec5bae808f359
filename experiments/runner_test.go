package experiments_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// hook is a test method whose Protect calls a function set by the test (to cancel a run part-way
// or to panic), then returns the data unchanged.
type hook struct{}

var hookFn atomic.Value // func(ctx context.Context)

func (hook) Info() methods.Info {
	return methods.Info{Name: "test_hook", Description: "test method", Params: []methods.ParamSpec{
		{Name: "x", Kind: methods.Int, Default: "1"}}}
}

func (hook) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if f, ok := hookFn.Load().(func(context.Context)); ok && f != nil {
		f(ctx)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &methods.Release{Masked: d.Clone()}, nil
}

func init() { methods.Register(hook{}) }

func tiny(t *testing.T) *experiments.Spec {
	t.Helper()
	s, err := experiments.Load("tiny", bundled)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsNoTiming returns the rows of dir/runs.csv with the seconds column blanked, sorted.
func rowsNoTiming(t *testing.T, dir string) []string {
	t.Helper()
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	sec := tab.Col("seconds")
	var out []string
	for _, r := range tab.Rows {
		r = slices.Clone(r)
		r[sec] = ""
		out = append(out, strings.Join(r, ","))
	}
	slices.Sort(out)
	return out
}

func TestDeterminismWorkersShards(t *testing.T) {
	tmp := t.TempDir()
	s := tiny(t)
	ctx := context.Background()
	for _, w := range []int{1, 2} {
		if _, err := experiments.Execute(ctx, s, experiments.Options{Out: filepath.Join(tmp, fmt.Sprint("w", w)), Workers: w}); err != nil {
			t.Fatal(err)
		}
	}
	var shards []string
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(tmp, fmt.Sprint("shard", i))
		sum, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2, Shard: experiments.Shard{I: i, N: 3}})
		if err != nil || !sum.Complete {
			t.Fatal(err, sum)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(tmp, "merged")
	if err := experiments.Merge(merged, shards, false); err != nil {
		t.Fatal(err)
	}
	a, b, c := rowsNoTiming(t, filepath.Join(tmp, "w1")), rowsNoTiming(t, filepath.Join(tmp, "w2")), rowsNoTiming(t, merged)
	if len(a) != 24 {
		t.Fatalf("%d rows, want 24", len(a))
	}
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Fatalf("rows differ between 1 worker, 2 workers and 3 merged shards")
	}
	// REPORT.md has one writer, the step that reports on a complete folder (resultsdir.WriteReport
	// from the analysis or the summary): neither a run nor a merge writes one for it to overwrite.
	for _, dir := range []string{filepath.Join(tmp, "w1"), merged} {
		if _, err := os.Stat(filepath.Join(dir, "REPORT.md")); !os.IsNotExist(err) {
			t.Errorf("%s: the runner wrote a REPORT.md (%v)", dir, err)
		}
	}
	// Grid order is restored in the merged file and the single-machine file.
	t1, _ := resultsdir.ReadRuns(filepath.Join(tmp, "w2"))
	t2, _ := resultsdir.ReadRuns(merged)
	for i := range t1.Rows {
		if t1.Rows[i][0] != t2.Rows[i][0] {
			t.Fatalf("row %d: run %s vs %s: order not normalized", i, t1.Rows[i][0], t2.Rows[i][0])
		}
	}
	// Merging with a shard missing, or twice, fails.
	if err := experiments.Merge(filepath.Join(tmp, "m2"), shards[:2], false); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing shard: %v", err)
	}
	if err := experiments.Merge(filepath.Join(tmp, "m3"), append(shards, shards[0]), false); err == nil || !strings.Contains(err.Error(), "appears in both") {
		t.Errorf("duplicated shard: %v", err)
	}
}

const hookSpec = `name = "hook"
seed = 3
replicates = 10
datasets = ["iris", "ruspini"]
metrics = ["sse_sst"]
[[methods]]
name = "test_hook"
[methods.grid]
x = [1, 2]
`

// TestResumeAfterCancel cancels a grid part-way, restarts it, and checks every run is recorded
// exactly once.
func TestResumeAfterCancel(t *testing.T) {
	s, err := experiments.Parse([]byte(hookSpec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	hookFn.Store(func(context.Context) {
		if calls.Add(1) == 15 {
			cancel()
		}
	})
	defer hookFn.Store(func(context.Context) {})
	sum, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2})
	if err == nil || sum.Complete {
		t.Fatalf("cancelled run: err %v, summary %+v", err, sum)
	}
	if sum.Done < 10 || sum.Done >= 40 {
		t.Fatalf("recorded %d runs before the cancel", sum.Done)
	}
	hookFn.Store(func(context.Context) {})
	sum2, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2})
	if err != nil || !sum2.Complete || sum2.Skipped != sum.Done || sum2.Done != 40-sum.Done {
		t.Fatalf("resume: err %v, summary %+v (first %+v)", err, sum2, sum)
	}
	checkOnce(t, dir, s)
}

func checkOnce(t *testing.T, dir string, s *experiments.Spec) {
	t.Helper()
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range tab.Rows {
		seen[r[0]]++
	}
	for _, r := range s.Expand() {
		if seen[r.ID] != 1 {
			t.Errorf("run %s recorded %d times", r.ID, seen[r.ID])
		}
	}
	if len(tab.Rows) != len(s.Expand()) {
		t.Errorf("%d rows, want %d", len(tab.Rows), len(s.Expand()))
	}
}

// TestTornLine: a killed writer can leave half a line; the next run repairs it.
func TestTornLine(t *testing.T) {
	s, _ := experiments.Parse([]byte(hookSpec), "hook.toml")
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, resultsdir.RunsFile)
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	// keep the header, 5 rows and half of the 6th
	torn := strings.Join(lines[:6], "") + lines[6][:len(lines[6])/2]
	os.WriteFile(path, []byte(torn), 0o644)
	if _, err := resultsdir.ReadRuns(dir); err != nil {
		t.Fatalf("reading a torn file: %v", err)
	}
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2})
	if err != nil || sum.Skipped != 5 {
		t.Fatalf("err %v, summary %+v", err, sum)
	}
	checkOnce(t, dir, s)
}

// TestErrorsAndPanicsRecorded: a panicking method is recorded as an error row and the grid goes on.
func TestPanicRecorded(t *testing.T) {
	s, _ := experiments.Parse([]byte(hookSpec), "hook.toml")
	hookFn.Store(func(context.Context) { panic("boom") })
	defer hookFn.Store(func(context.Context) {})
	dir := t.TempDir()
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2})
	if err != nil || sum.Failed != 40 {
		t.Fatalf("err %v, summary %+v", err, sum)
	}
	tab, _ := resultsdir.ReadRuns(dir)
	if r := tab.Rows[0]; r[tab.Col("status")] != "error" || !strings.Contains(r[tab.Col("error")], "boom") {
		t.Fatalf("row %v", r)
	}
}

func TestTimeout(t *testing.T) {
	spec := strings.Replace(hookSpec, "replicates = 10", "replicates = 1\ntime_limit = \"20ms\"", 1)
	s, err := experiments.Parse([]byte(spec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	hookFn.Store(func(ctx context.Context) { <-ctx.Done() })
	defer hookFn.Store(func(context.Context) {})
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir(), Workers: 2})
	if err != nil || sum.Timeouts != 4 {
		t.Fatalf("err %v, summary %+v", err, sum)
	}
}

func TestChangedSpecRefused(t *testing.T) {
	dir := t.TempDir()
	s, _ := experiments.Parse([]byte(hookSpec), "hook.toml")
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	s2, _ := experiments.Parse([]byte(strings.Replace(hookSpec, "seed = 3", "seed = 4", 1)), "hook.toml")
	if _, err := experiments.Execute(context.Background(), s2, experiments.Options{Out: dir}); err == nil ||
		!strings.Contains(err.Error(), "--fresh") {
		t.Fatalf("changed spec: %v", err)
	}
	if sum, err := experiments.Execute(context.Background(), s2, experiments.Options{Out: dir, Fresh: true}); err != nil || sum.Done != 40 {
		t.Fatalf("--fresh: %v %+v", err, sum)
	}
}

func TestRunIDsAndSeeds(t *testing.T) {
	runs := tiny(t).Expand()
	ids := map[string]bool{}
	for _, r := range runs {
		if ids[r.ID] {
			t.Fatalf("duplicate run ID %s", r.ID)
		}
		ids[r.ID] = true
		if r.Seed != experiments.RunSeed(7, r.ID) {
			t.Fatal("seed not derived from the master seed and ID")
		}
	}
	if len(runs) != 24 {
		t.Fatalf("%d runs, want 2 datasets × (2 k + 2 noise) × 3 replicates = 24", len(runs))
	}
	// Shards partition the grid.
	n := 0
	for i := 1; i <= 3; i++ {
		for _, r := range runs {
			if (experiments.Shard{I: i, N: 3}).Contains(r.ID) {
				n++
			}
		}
	}
	if n != len(runs) {
		t.Fatalf("shards cover %d runs, want %d", n, len(runs))
	}
}

// TestLock: a second run on a folder in use fails at once instead of recording runs twice.
func TestLock(t *testing.T) {
	s, _ := experiments.Parse([]byte(hookSpec), "hook.toml")
	dir := t.TempDir()
	started, release := make(chan bool), make(chan bool)
	var once atomic.Bool
	hookFn.Store(func(context.Context) {
		if once.CompareAndSwap(false, true) {
			started <- true
			<-release
		}
	})
	defer hookFn.Store(func(context.Context) {})
	errc := make(chan error)
	go func() {
		_, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1})
		errc <- err
	}()
	<-started
	_, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1})
	close(release)
	if err == nil || !strings.Contains(err.Error(), "in use by another sdcbench run") {
		t.Fatalf("second run: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	checkOnce(t, dir, s)
}
