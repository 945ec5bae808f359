//go:build unix

package experiments_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestResumeTruncatedRunsGz: a run resumed on a folder whose runs.csv.gz is truncated stops
// with an error naming the file, which stays; --fresh discards it and runs again.
func TestResumeTruncatedRunsGz(t *testing.T) {
	ctx := context.Background()
	s := tiny(t)
	dir := t.TempDir()
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, resultsdir.RunsFile)
	data, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	cut := z.Bytes()[:z.Len()*2/3]
	gz := filepath.Join(dir, resultsdir.RunsFileGz)
	if err := os.WriteFile(gz, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(runs)
	_, err = experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), gz) || !strings.Contains(err.Error(), "--fresh") {
		t.Fatalf("resume on a truncated runs.csv.gz: %v", err)
	}
	if b, err := os.ReadFile(gz); err != nil || !bytes.Equal(b, cut) {
		t.Fatalf("runs.csv.gz deleted or changed: %v", err)
	}
	if _, err := os.Stat(runs); err == nil {
		t.Fatal("a new runs.csv was started")
	}
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2, Fresh: true}); err != nil {
		t.Fatalf("--fresh: %v", err)
	}
}

// TestRunRefusesSymlinks: run and merge refuse a folder whose lock, runs.csv or manifest.json
// is a symbolic link, naming it; the link's target is neither created nor appended to.
func TestRunRefusesSymlinks(t *testing.T) {
	ctx := context.Background()
	s := tiny(t)
	src := t.TempDir()
	if _, err := experiments.Execute(ctx, s, experiments.Options{Out: src, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".sdcbench.lock", resultsdir.RunsFile, resultsdir.TracesFile, resultsdir.ManifestFile} {
		dir, outside := t.TempDir(), t.TempDir()
		target := filepath.Join(outside, "victim")
		link := filepath.Join(dir, name)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		_, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2})
		if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("run with a symlinked %s: %v", name, err)
		}
		if err := experiments.Merge(dir, []string{src}, false); err == nil || !strings.Contains(err.Error(), link) {
			t.Errorf("merge with a symlinked %s: %v", name, err)
		}
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("%s: the link's target was created", name)
		}
	}
}
