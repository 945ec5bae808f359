package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/metrics"
)

// surveyCSV writes a small survey file (id, region, two numeric columns) into dir.
func surveyCSV(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,region,x,y\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "%d,%s,%d.5,%d\n", i, []string{"north", "south"}[i%2], (i*7)%23, (i*11)%17)
	}
	path := filepath.Join(dir, "survey.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// dropLastRow removes the last row of dir/runs.csv, as an interrupted run leaves it.
func dropLastRow(t *testing.T, dir string) {
	t.Helper()
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	tab.Rows = tab.Rows[:len(tab.Rows)-1]
	os.Remove(filepath.Join(dir, resultsdir.RunsFileGz))
	if err := resultsdir.WriteTable(filepath.Join(dir, resultsdir.RunsFile), tab); err != nil {
		t.Fatal(err)
	}
}

func execSpec(t *testing.T, text, out string, fresh bool) error {
	t.Helper()
	s, err := experiments.Parse([]byte(text), "survey.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1, Fresh: fresh})
	return err
}

// TestResumeRefusesChangedEntry is issue 25's first example: between two resumes strata is
// added to an entry with keep (and, separately, every other field changes): the run is refused,
// naming the entry, the field and both values, instead of mixing stratified and unstratified runs.
func TestResumeRefusesChangedEntry(t *testing.T) {
	dir := t.TempDir()
	path := surveyCSV(t, dir)
	spec := func(entry string) string {
		return fmt.Sprintf(`name = "survey"
seed = 1
datasets = [{path = %q, label = "survey", keep = ["id", "region"]%s}]
metrics = ["sse_sst"]
[[methods]]
name = "mdav"
[methods.grid]
k = [3, 5]
`, path, entry)
	}
	for _, c := range []struct{ entry, field, want string }{
		{`, strata = "region"`, "strata", `strata (none) vs "region"`},
		{`, columns = ["x"]`, "columns", `columns (none) vs ["x"]`},
		{`, keys = ["region"]`, "keys", "keys"},
		{`, categorical = ["region"]`, "categorical", "categorical"},
		{`, weight = "id"`, "weight", "weight"},
		{`, household = "id"`, "household", "household"},
		{`, sensitive = "region"`, "sensitive", "sensitive"},
		{`, na = ["NA", "", "."]`, "na", `na (none) vs ["NA","","."]`},
	} {
		out := filepath.Join(dir, "out-"+c.field)
		if err := execSpec(t, spec(""), out, false); err != nil {
			t.Fatal(err)
		}
		dropLastRow(t, out)
		err := execSpec(t, spec(c.entry), out, false)
		if err == nil || !strings.Contains(err.Error(), "dataset entry survey") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s added between resumes: %v", c.field, err)
		}
		if err := execSpec(t, spec(""), out, false); err != nil {
			t.Errorf("%s: the unchanged spec no longer resumes: %v", c.field, err)
		}
	}
	// keep changed ("id" dropped from it).
	out := filepath.Join(dir, "out-keep")
	if err := execSpec(t, spec(""), out, false); err != nil {
		t.Fatal(err)
	}
	dropLastRow(t, out)
	err := execSpec(t, strings.Replace(spec(""), `keep = ["id", "region"]`, `keep = ["region"]`, 1), out, false)
	if err == nil || !strings.Contains(err.Error(), `keep ["id","region"] vs ["region"]`) {
		t.Errorf("keep changed between resumes: %v", err)
	}
}

// TestResumeRefusesChangedInputFile: the files a run reads besides the dataset (external's
// release, dfo's start=labels:FILE) are hashed into manifest.json; a resume after one changed
// is refused, naming the file.
func TestResumeRefusesChangedInputFile(t *testing.T) {
	dir := t.TempDir()
	path := surveyCSV(t, dir)
	release := filepath.Join(dir, "masked-survey.csv")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(release, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var labels strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&labels, "%d\n", i/5)
	}
	lab := filepath.Join(dir, "start.txt")
	if err := os.WriteFile(lab, []byte(labels.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := fmt.Sprintf(`name = "files"
seed = 1
replicates = 2
datasets = [{path = %q, label = "survey", columns = ["x", "y"]}]
metrics = ["sse_sst"]
[[methods]]
name = "external"
grid.pattern = %q
[[methods]]
name = "dfo"
grid.k = 3
grid.start = "labels:%s"
`, path, filepath.Join(dir, "masked-{dataset}.csv"), lab)
	for _, file := range []string{release, lab} {
		out := filepath.Join(dir, "out-"+filepath.Base(file))
		if err := execSpec(t, spec, out, false); err != nil {
			t.Fatal(err)
		}
		m, err := resultsdir.ReadManifest(out)
		if err != nil || len(m.InputFiles[file]) != 64 {
			t.Fatalf("manifest input_files %v, want the SHA-256 of %s (%v)", m.InputFiles, file, err)
		}
		dropLastRow(t, out)
		old, _ := os.ReadFile(file)
		if err := os.WriteFile(file, append(old, '\n', '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		err = execSpec(t, spec, out, false)
		if err == nil || !strings.Contains(err.Error(), "input file "+file) {
			t.Errorf("%s changed between resumes: %v", file, err)
		}
		if err := os.WriteFile(file, old, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMergeRefusesOtherProvenance: merge makes the check a resume makes (SameDefinitions)
// between the shards and against the inputs now: shards made from another version of the
// dataset file, under another dataset entry, metric version or sdcbench version are refused,
// naming both shards and what differs.
func TestMergeRefusesOtherProvenance(t *testing.T) {
	dir := t.TempDir()
	path := surveyCSV(t, dir)
	orig, _ := os.ReadFile(path)
	base := fmt.Sprintf(`name = "survey"
seed = 1
replicates = 2
datasets = [{path = %q, label = "survey", keep = ["id", "region"]}]
metrics = ["sse_sst"]
[[methods]]
name = "mdav"
[methods.grid]
k = [3, 5]
`, path)
	shard := func(text, name string, i int) string {
		t.Helper()
		s, err := experiments.Parse([]byte(text), "survey.toml")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name)
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1, Fresh: true,
			Shard: experiments.Shard{I: i, N: 2}}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	editManifest := func(d string, edit func(*resultsdir.Manifest)) {
		m, err := resultsdir.ReadManifest(d)
		if err != nil {
			t.Fatal(err)
		}
		edit(m)
		if err := resultsdir.WriteManifest(d, m); err != nil {
			t.Fatal(err)
		}
	}
	s1 := shard(base, "s1", 1)
	s2 := shard(base, "s2", 2)
	if err := experiments.Merge(filepath.Join(dir, "ok"), []string{s1, s2}, false); err != nil {
		t.Fatalf("same provenance: %v", err)
	}
	// Shard 2 made from another version of the file.
	os.WriteFile(path, append(orig[:len(orig):len(orig)], "40,north,1.5,2\n"...), 0o644)
	s2b := shard(base, "s2b", 2)
	os.WriteFile(path, orig, 0o644)
	check := func(what string, dirs []string, want ...string) {
		t.Helper()
		err := experiments.Merge(filepath.Join(dir, "m-"+strings.ReplaceAll(what, " ", "-")), dirs, false)
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v (want %q)", what, err, w)
			}
		}
	}
	check("other file", []string{s1, s2b}, s1, s2b, "survey")
	// Shard 2 made under another entry (strata added: the grid, hence the spec hash, is the same).
	s2c := shard(strings.Replace(base, `keep = ["id", "region"]`, `keep = ["id", "region"], strata = "region"`, 1), "s2c", 2)
	check("other entry", []string{s1, s2c}, s2c, `strata (none) vs "region"`)
	// Another metric version, another sdcbench version.
	s2d := shard(base, "s2d", 2)
	editManifest(s2d, func(m *resultsdir.Manifest) { m.MetricVersions["sse_sst"] += 7 })
	check("metric version", []string{s1, s2d}, "metric sse_sst")
	editManifest(s2d, func(m *resultsdir.Manifest) { m.MetricVersions["sse_sst"] -= 7; m.Tool = "0.0.1" })
	check("tool version", []string{s1, s2d}, "sdcbench version")
	// Both shards agree, but the file changed since they ran.
	os.WriteFile(path, append(orig[:len(orig):len(orig)], "40,north,1.5,2\n"...), 0o644)
	check("file changed since", []string{s1, s2}, "current", "survey")
	os.WriteFile(path, orig, 0o644)
}

// TestRunRefusesRowsWithoutManifest: a runs.csv (or runs.csv.gz) without manifest.json, or with
// a corrupt one, is not adopted by a run of some spec (it may hold another spec's rows, another
// seed): the run is refused naming the file, and --fresh discards it.
func TestRunRefusesRowsWithoutManifest(t *testing.T) {
	s := tiny(t)
	for _, c := range []struct{ name, manifest, want string }{
		{"missing", "", "without a manifest"},
		{"corrupt", "{\"name\": \"tiny\", ", "with an unreadable manifest.json"},
	} {
		out := filepath.Join(t.TempDir(), c.name)
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		dropLastRow(t, out)
		mf := filepath.Join(out, resultsdir.ManifestFile)
		os.Remove(mf)
		if c.manifest != "" {
			os.WriteFile(mf, []byte(c.manifest), 0o644)
		}
		before, _ := os.ReadFile(filepath.Join(out, resultsdir.RunsFile))
		_, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1})
		if err == nil || !strings.Contains(err.Error(), "runs.csv "+c.want) || !strings.Contains(err.Error(), "--fresh") {
			t.Errorf("%s manifest: %v", c.name, err)
		}
		if after, _ := os.ReadFile(filepath.Join(out, resultsdir.RunsFile)); string(after) != string(before) {
			t.Errorf("%s manifest: the refused run changed runs.csv", c.name)
		}
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1, Fresh: true}); err != nil {
			t.Errorf("%s manifest, --fresh: %v", c.name, err)
		}
	}
	// A header alone (a run killed before it wrote its manifest) holds no row to mix: adopted.
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, resultsdir.RunsFile), []byte(strings.Join(s.Header(), ",")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
		t.Errorf("header-only runs.csv without a manifest: %v", err)
	}
}

// TestFreshRemovesDerivedFiles: run --fresh removes the old experiment's REPORT.md, verdicts,
// recorded companion reports, analysis tables, plots and baseline comparisons before the first
// new row, so an interrupted fresh run leaves no old report beside new rows; files sdcbench did
// not derive (notes.md, seed.csv) stay.
func TestFreshRemovesDerivedFiles(t *testing.T) {
	s := tiny(t)
	out := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	derived := []string{"REPORT.md", "verdicts.csv", "study-notes.md", "summary.csv", "wilcoxon.csv.gz",
		"best.csv", "reanalysis.md", "table_sse_sst.csv", "plots/box.png", "baseline-old/REPORT.md"}
	kept := []string{"notes.md", "seed.csv", "baseline-mine/data.txt"}
	for _, f := range append(derived, kept...) {
		os.MkdirAll(filepath.Dir(filepath.Join(out, f)), 0o755)
		if err := os.WriteFile(filepath.Join(out, f), []byte("old experiment\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := resultsdir.RecordReports(out, "study-notes.md"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // interrupted before its first run
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: out, Workers: 1, Fresh: true}); err == nil {
		t.Fatal("a cancelled run reported success")
	}
	for _, f := range append(derived, "plots", "baseline-old") {
		if _, err := os.Lstat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s of the old experiment is still there after run --fresh", f)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
}

// slowMetric is a test measure that sleeps slowMetricSleep, ignoring its context (as a measure
// without checks would).
type slowMetric struct{}

var slowMetricSleep atomic.Int64 // nanoseconds

func init() { metrics.Register(slowMetric{}) }

func (slowMetric) Info() metrics.Info {
	return metrics.Info{ID: "test_slow", Unit: "raw", Better: metrics.Lower, Description: "test measure that sleeps"}
}

func (slowMetric) Eval(*metrics.Input) metrics.Result {
	time.Sleep(time.Duration(slowMetricSleep.Load()))
	return metrics.Result{Value: 1}
}

// TestTimedOutRunHoldsItsWorker: a method abandoned at time_limit that computes on without
// checking its context keeps its worker until it returns, so no later run computes beside it
// (before, with one worker, the next runs shared the CPU with it and timed out falsely).
func TestTimedOutRunHoldsItsWorker(t *testing.T) {
	spec := strings.Replace(hookSpec, "replicates = 10", "replicates = 2\ntime_limit = \"100ms\"", 1)
	s, err := experiments.Parse([]byte(spec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	var active, most, calls atomic.Int32
	hookFn.Store(func(ctx context.Context) {
		n := active.Add(1)
		defer active.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if calls.Add(1) == 1 {
			time.Sleep(400 * time.Millisecond) // ignores ctx, as pram's matrix did
		}
	})
	defer hookFn.Store(func(context.Context) {})
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Timeouts != 1 || sum.Done != 8 {
		t.Errorf("%d timeouts of %d runs, want 1 of 8", sum.Timeouts, sum.Done)
	}
	if most.Load() != 1 {
		t.Errorf("%d methods computed at once on one worker: the abandoned run did not hold its worker", most.Load())
	}
}

// TestTimeLimitCoversMeasures: a measure running past time_limit gives the run status timeout
// (before, prl ran 5.9 s under a 1 s limit and was recorded ok).
func TestTimeLimitCoversMeasures(t *testing.T) {
	spec := strings.Replace(hookSpec, "replicates = 10", "replicates = 1\ntime_limit = \"100ms\"", 1)
	spec = strings.Replace(spec, `metrics = ["sse_sst"]`, `metrics = ["sse_sst", "test_slow"]`, 1)
	s, err := experiments.Parse([]byte(spec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	slowMetricSleep.Store(int64(300 * time.Millisecond))
	defer slowMetricSleep.Store(0)
	out := t.TempDir()
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Timeouts != sum.Done || sum.Done != 4 {
		t.Fatalf("%d timeouts of %d runs, want every run timed out by its measure", sum.Timeouts, sum.Done)
	}
	tab, err := resultsdir.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	if msg := tab.Rows[0][tab.Col("error")]; !strings.Contains(msg, "by the measures") {
		t.Errorf("error %q does not say the measures ran out of time", msg)
	}
	// A measure within the limit: ok.
	slowMetricSleep.Store(0)
	sum, err = experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir(), Workers: 2})
	if err != nil || sum.Timeouts != 0 {
		t.Errorf("fast measures: %d timeouts, %v", sum.Timeouts, err)
	}
}

// TestResumeRetriesTimeouts: a resume runs the runs recorded with status timeout again, like
// missing ones, unless Options.KeepTimeouts (run --keep-timeouts) is set.
func TestResumeRetriesTimeouts(t *testing.T) {
	spec := strings.Replace(hookSpec, "replicates = 10", "replicates = 2\ntime_limit = \"100ms\"", 1)
	spec = strings.Replace(spec, `metrics = ["sse_sst"]`, `metrics = ["sse_sst", "test_slow"]`, 1)
	s, err := experiments.Parse([]byte(spec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	slowMetricSleep.Store(int64(300 * time.Millisecond))
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 2})
	slowMetricSleep.Store(0)
	if err != nil || sum.Timeouts != 8 {
		t.Fatalf("first run: %d timeouts, %v", sum.Timeouts, err)
	}
	sum, err = experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 2, KeepTimeouts: true})
	if err != nil || sum.Skipped != 8 || sum.Done != 0 {
		t.Fatalf("KeepTimeouts: %+v, %v", sum, err)
	}
	sum, err = experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 2})
	if err != nil || sum.Skipped != 0 || sum.Done != 8 || sum.Timeouts != 0 {
		t.Fatalf("resume: %+v, %v; want the 8 timed-out runs run again", sum, err)
	}
	tab, err := resultsdir.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 8 {
		t.Fatalf("%d rows after the retry, want 8 (one per run)", len(tab.Rows))
	}
	for _, r := range tab.Rows {
		if st := r[tab.Col("status")]; st != experiments.StatusOK {
			t.Errorf("run %s: status %s", r[0], st)
		}
	}
}
