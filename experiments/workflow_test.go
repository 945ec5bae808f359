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

// TestMergeRelativeDatasetPath: a spec whose dataset path is relative, run in shards from the
// spec's folder (the Slurm workflow for one's own data) and merged from another working
// directory, merges: the path is resolved against the spec's folder recorded in the manifest,
// not against the shard folder.
func TestMergeRelativeDatasetPath(t *testing.T) {
	dir := t.TempDir()
	// two runs, one per shard (more shards than runs are refused: TestShardsBeyondRuns)
	writeSpec(t, dir, strings.Replace(ownSpec, "grid.k = 3", "grid.k = [2, 3]", 1))
	t.Chdir(dir)
	s, err := experiments.Load("own.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := 1; i <= 2; i++ {
		out := filepath.Join("shards", "s"+string(rune('0'+i)))
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1,
			Shard: experiments.Shard{I: i, N: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, filepath.Join(dir, out))
	}
	m, err := resultsdir.ReadManifest(shards[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.SpecDir != dir {
		t.Fatalf("manifest spec_dir %q, want %q", m.SpecDir, dir)
	}
	other := t.TempDir()
	t.Chdir(other)
	if err := experiments.Merge("merged", shards, false); err != nil {
		t.Fatalf("merge from another folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "merged", resultsdir.ManifestFile)); err != nil {
		t.Fatal(err)
	}
}

// TestControlCharactersRefused: a dataset label or a parameter value with a control character
// (a newline tore runs.csv beyond repair) is refused when the spec is loaded, naming the key.
func TestControlCharactersRefused(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"name = \"t\"\ndatasets = [{name = \"census\", label = \"a\\nb\"}]\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n", "datasets[0].label"},
		{"name = \"t\"\ndatasets = [{name = \"census\", label = \"a\\tb\"}]\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n", "U+0009"},
		{"name = \"t\"\ndatasets = [{path = \"x\\r.csv\"}]\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n", "U+000D"},
		{"name = \"t\"\ndatasets = [\"census\"]\n[[methods]]\nname = \"mdav\"\ngrid.k = \"3\\n\"\n", "parameter k"},
	} {
		_, err := experiments.Parse([]byte(c.spec), "t.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "control character") {
			t.Errorf("%q: error %v, want one naming %q and the control character", c.spec, err, c.want)
		}
	}
}

// TestTimeLimitOverflow: a well-formed time_limit beyond time.Duration is called that, with
// the maximum (it was "must be positive"); a malformed or non-positive one keeps its message.
func TestTimeLimitOverflow(t *testing.T) {
	spec := func(tl string) []byte {
		return []byte("name = \"t\"\ndatasets = [\"census\"]\ntime_limit = \"" + tl + "\"\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n")
	}
	for tl, want := range map[string]string{
		"9999999h": "exceeds the largest time limit, 2562047h47m16.854775807s",
		"1e30s":    "must be a positive duration",
		"0s":       "must be a positive duration",
		"ten":      "must be a positive duration",
	} {
		_, err := experiments.Parse(spec(tl), "t.toml")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "time_limit") {
			t.Errorf("time_limit %q: error %v, want %q", tl, err, want)
		}
	}
	if _, err := experiments.Parse(spec("2562047h"), "t.toml"); err != nil {
		t.Errorf("time_limit 2562047h: %v", err)
	}
}

// TestCompressedDatasetPath: a spec dataset path naming a gzip file is called gzip-compressed.
func TestCompressedDatasetPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.csv.gz"), []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(spec, []byte("name = \"t\"\ndatasets = [{path = \"d.csv.gz\"}]\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := experiments.Load(spec, nil); err == nil || !strings.Contains(err.Error(), "d.csv.gz: gzip-compressed: decompress it first") {
		t.Errorf("gzip dataset path: %v", err)
	}
}
