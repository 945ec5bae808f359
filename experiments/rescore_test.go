package experiments_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// rescoreSpec is a small grid with a partitioning method (mdav: stored labels), a noise method
// and held-out rows (the control set rescore must rebuild), measured by metrics.
func rescoreSpec(t *testing.T, dir, metrics, extra string) *experiments.Spec {
	t.Helper()
	text := `name = "rescore"
seed = 11
replicates = 2
datasets = ["tarragona"]
metrics = [` + metrics + `]
` + extra + `
[[methods]]
name = "mdav"
[methods.grid]
k = [3]
[[methods]]
name = "noise_additive"
[methods.grid]
noise_pct = [20]
`
	path := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := experiments.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// auxOption gives linkability its attacker's columns.
const auxOption = "\n[metric_options]\naux = \"FIXED.ASSETS,CURRENT.ASSETS\""

// TestRescoreEqualsFreshRun runs a spec with metric sse_sst and stored releases, rescores the
// folder with dld (which reads mdav's partition), il1s and linkability (which reads the
// held-out rows), and compares every row with a fresh run of the spec measuring all four:
// equal but for the seconds. The folder's runs.csv is gzipped first, as a large one is.
func TestRescoreEqualsFreshRun(t *testing.T) {
	for _, holdout := range []string{"", "holdout = 0.2"} {
		t.Run(holdout, func(t *testing.T) {
			tmp := t.TempDir()
			ctx := context.Background()
			kept := filepath.Join(tmp, "kept")
			s := rescoreSpec(t, t.TempDir(), `"sse_sst"`, holdout+"\nkeep_releases = true"+auxOption)
			if _, err := experiments.Execute(ctx, s, experiments.Options{Out: kept, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			for _, r := range s.Expand() {
				if _, err := os.Stat(resultsdir.ReleasePath(kept, r.ID)); err != nil {
					t.Errorf("run %s: no stored release: %v", r.ID, err)
				}
			}
			gzipRuns(t, kept) // as a finished large folder holds it
			rec, err := experiments.Rescore(ctx, kept, []string{"dld", "il1s", "linkability"})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rec.Metrics, []string{"dld", "il1s", "linkability"}) || rec.Tool != experiments.Version {
				t.Errorf("rescore record %+v", rec)
			}
			fresh := filepath.Join(tmp, "fresh")
			f := rescoreSpec(t, t.TempDir(), `"sse_sst", "dld", "il1s", "linkability"`, holdout+auxOption)
			if _, err := experiments.Execute(ctx, f, experiments.Options{Out: fresh, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(kept, resultsdir.RunsFileGz)); err == nil {
				t.Error("runs.csv.gz left beside the rewritten runs.csv")
			}
			got, want := rowsNoTiming(t, kept), rowsNoTiming(t, fresh)
			if !slices.Equal(got, want) {
				t.Errorf("rescored rows differ from a fresh run's:\n got %q\nwant %q", got, want)
			}
			tab, err := resultsdir.ReadRuns(kept)
			if err != nil {
				t.Fatal(err)
			}
			if ft, _ := resultsdir.ReadRuns(fresh); !slices.Equal(tab.Header, ft.Header) {
				t.Errorf("header %q, a fresh run's %q", tab.Header, ft.Header)
			}
			man, err := resultsdir.ReadManifest(kept)
			if err != nil {
				t.Fatal(err)
			}
			if len(man.Rescored) != 1 || !slices.Equal(man.RescoredMetrics(), []string{"dld", "il1s", "linkability"}) || man.MetricVersions["dld"] != 1 {
				t.Errorf("manifest records rescored %+v, metric versions %v", man.Rescored, man.MetricVersions)
			}
			// A second rescore adds to the first.
			if _, err := experiments.Rescore(ctx, kept, []string{"mae"}); err != nil {
				t.Fatal(err)
			}
			if tab, _ := resultsdir.ReadRuns(kept); tab.Col("mae") < 0 || tab.Col("dld") < 0 {
				t.Errorf("after a second rescore runs.csv has %q", tab.Header)
			}
		})
	}
}

// TestKeepReleasesKeepsHash checks that keep_releases changes neither the spec's hash nor its
// runs' IDs and seeds, so a folder run without it resumes with it and vice versa.
func TestKeepReleasesKeepsHash(t *testing.T) {
	a := rescoreSpec(t, t.TempDir(), `"sse_sst"`, "")
	b := rescoreSpec(t, t.TempDir(), `"sse_sst"`, "keep_releases = true")
	if a.Hash != b.Hash {
		t.Errorf("hash %s without keep_releases, %s with", a.Hash, b.Hash)
	}
	ra, rb := a.Expand(), b.Expand()
	for i := range ra {
		if ra[i].ID != rb[i].ID || ra[i].Seed != rb[i].Seed {
			t.Errorf("run %d: %s/%d vs %s/%d", i, ra[i].ID, ra[i].Seed, rb[i].ID, rb[i].Seed)
		}
	}
}

// TestRescoreRefuses checks each refusal of Rescore, and that it leaves runs.csv as it was.
func TestRescoreRefuses(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	kept, plain := filepath.Join(tmp, "kept"), filepath.Join(tmp, "plain")
	s := rescoreSpec(t, t.TempDir(), `"sse_sst"`, "")
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: plain, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: kept, Workers: 2, KeepReleases: true}); err != nil {
		t.Fatal(err)
	}
	id := s.Expand()[1].ID
	before := rowsNoTiming(t, kept)
	for _, c := range []struct {
		name, dir string
		ids       []string
		damage    func()
		want      string
	}{
		{"no releases", plain, []string{"il1s"}, nil, "holds no stored releases"},
		{"unknown", kept, []string{"il1s", "no_such"}, nil, `unknown metric "no_such"`},
		{"present", kept, []string{"sse_sst"}, nil, "metric sse_sst is already in"},
		{"twice", kept, []string{"il1s", "il1s"}, nil, "given twice"},
		{"options", kept, []string{"linkability"}, nil, "metric linkability needs the attacker's auxiliary columns"},
		{"diagnostics", kept, []string{"imp"}, nil, "metric imp reads the method's diagnostics"},
		{"missing", kept, []string{"il1s"}, func() { os.Remove(resultsdir.ReleasePath(kept, id)) }, "run " + id + ": stored release"},
		{"corrupt", kept, []string{"il1s"}, func() {
			if err := os.WriteFile(resultsdir.ReleasePath(kept, id), []byte("\x1f\x8b\x08\x00garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "run " + id + ": stored release " + resultsdir.ReleasePath(kept, id)},
	} {
		if c.damage != nil {
			c.damage()
		}
		_, err := experiments.Rescore(ctx, c.dir, c.ids)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if got := rowsNoTiming(t, kept); !slices.Equal(got, before) {
			t.Errorf("%s: runs.csv changed", c.name)
		}
	}
	// An interrupted run's folder is not finished.
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	part := filepath.Join(tmp, "part")
	if _, err := experiments.Execute(stopped, s, experiments.Options{Out: part, Workers: 1, KeepReleases: true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: error %v", err)
	}
	if _, err := experiments.Rescore(ctx, part, []string{"il1s"}); err == nil || !strings.Contains(err.Error(), "is not finished") {
		t.Errorf("unfinished folder: error %v", err)
	}
}

// TestRescoreMergedShards: merge carries the shards' stored releases into the merged folder,
// which then rescores to the values of a fresh single run.
func TestRescoreMergedShards(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	s := rescoreSpec(t, t.TempDir(), `"sse_sst"`, "keep_releases = true")
	var shards []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(tmp, "shard", string(rune('0'+i)))
		if _, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 1, Shard: experiments.Shard{I: i, N: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(tmp, "merged")
	if err := experiments.Merge(merged, shards, false); err != nil {
		t.Fatal(err)
	}
	if _, err := experiments.Rescore(ctx, merged, []string{"il1s"}); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(tmp, "fresh")
	f := rescoreSpec(t, t.TempDir(), `"sse_sst", "il1s"`, "")
	if _, err := experiments.Execute(ctx, f, experiments.Options{Out: fresh, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := rowsNoTiming(t, merged), rowsNoTiming(t, fresh); !slices.Equal(got, want) {
		t.Errorf("rescored merged rows differ from a fresh run's:\n got %q\nwant %q", got, want)
	}
}

// TestRescoreTimeLimit: the spec's time_limit bounds the new measures of each run; a run over
// it stops the rescore with an error naming the limit, and runs.csv is left as it was.
func TestRescoreTimeLimit(t *testing.T) {
	ctx := context.Background()
	kept := filepath.Join(t.TempDir(), "kept")
	s := rescoreSpec(t, t.TempDir(), `"sse_sst"`, `keep_releases = true
time_limit = "2s"`)
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: kept, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	before := rowsNoTiming(t, kept)
	defer ctxMetricFor.Store(ctxMetricFor.Load())
	ctxMetricFor.Store(int64(20 * time.Second))
	t0 := time.Now()
	_, err := experiments.Rescore(ctx, kept, []string{"test_slow_ctx"})
	if err == nil || !strings.Contains(err.Error(), "time limit 2s exceeded by the measures") {
		t.Errorf("error %v, want the time limit's", err)
	}
	if d := time.Since(t0); d > 15*time.Second {
		t.Errorf("rescore took %s with a 2s limit", d)
	}
	if got := rowsNoTiming(t, kept); !slices.Equal(got, before) {
		t.Error("runs.csv changed")
	}
}

// TestRescoreRefusesLinkedReleases: a releases/ that is a symbolic link (to releases of
// another folder, say) is refused, naming it.
func TestRescoreRefusesLinkedReleases(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	kept := filepath.Join(tmp, "kept")
	s := rescoreSpec(t, t.TempDir(), `"sse_sst"`, "keep_releases = true")
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: kept, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	rd := filepath.Join(kept, resultsdir.ReleasesDir)
	if err := os.Rename(rd, filepath.Join(tmp, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(tmp, "elsewhere"), rd); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, err := experiments.Rescore(ctx, kept, []string{"il1s"})
	if err == nil || !strings.Contains(err.Error(), rd+" is not a folder") {
		t.Errorf("error %v, want one naming %s", err, rd)
	}
}

// gzipRuns replaces dir/runs.csv by runs.csv.gz.
func gzipRuns(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, resultsdir.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, resultsdir.RunsFileGz), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, resultsdir.RunsFile)); err != nil {
		t.Fatal(err)
	}
}
