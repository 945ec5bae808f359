package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAnalyzeOutWithBaseline: analyze --out elsewhere with --baseline is refused before
// anything is written (the baseline used to be dropped silently); --alpha 0 is an error.
func TestAnalyzeOutWithBaseline(t *testing.T) {
	dir := t.TempDir()
	_, e, code := sdcbench(t, dir, "analyze", "--quiet", "--out", "elsewhere", "--baseline", "old", "new")
	checkError(t, "--out with --baseline", e, code, []string{"--baseline", "--out elsewhere"})
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Error("elsewhere written")
	}
	_, e, code = sdcbench(t, dir, "analyze", "--alpha", "0", "new")
	checkError(t, "--alpha 0", e, code, []string{"--alpha", "(got 0)"})
}

// TestSlurmMoreShardsThanRuns: slurm refuses more shards than the grid has runs, naming both
// (100000000 array tasks were accepted for a small grid).
func TestSlurmMoreShardsThanRuns(t *testing.T) {
	dir := t.TempDir()
	_, e, code := sdcbench(t, dir, "slurm", "--shards", "100000000", "tiny")
	checkError(t, "--shards 100000000", e, code, []string{"--shards 100000000", "24 runs", "at most 24"})
	if _, e, code := sdcbench(t, dir, "slurm", "--shards", "24", "tiny"); code != 0 {
		t.Errorf("--shards 24 for 24 runs: %s", e)
	}
}
