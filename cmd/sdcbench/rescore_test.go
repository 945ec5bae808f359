package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestRescoreCommand: run --keep-releases, then rescore adds a measure to runs.csv and to the
// analysis (summary.csv, and the original's row: mae of the original is 0), records it in manifest.json, and refuses it a second time; a folder
// run without --keep-releases is refused with the way forward.
func TestRescoreCommand(t *testing.T) {
	dir := t.TempDir()
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--keep-releases", "--out", "r", "tiny"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	if _, e, code := sdcbench(t, dir, "rescore", "--metrics", "mae", "r"); code != 0 {
		t.Fatalf("rescore: %s", e)
	}
	runs, err := resultsdir.ReadRuns(filepath.Join(dir, "r"))
	if err != nil {
		t.Fatal(err)
	}
	if c := runs.Col("mae"); c < 0 || runs.Rows[0][c] == "" {
		t.Errorf("runs.csv after rescore: %q", runs.Header)
	}
	summary, err := os.ReadFile(filepath.Join(dir, "r", "summary.csv"))
	if err != nil || !strings.Contains(string(summary), "mae") {
		t.Errorf("summary.csv does not analyse mae (err %v)", err)
	}
	if orig, err := resultsdir.ReadTable(filepath.Join(dir, "r", "original.csv")); err != nil || orig.Col("mae") < 0 || orig.Rows[0][orig.Col("mae")] != "0" {
		t.Errorf("original.csv does not measure mae on the original (err %v)", err)
	}
	man, err := resultsdir.ReadManifest(filepath.Join(dir, "r"))
	if err != nil || len(man.Rescored) != 1 || man.Rescored[0].Metrics[0] != "mae" {
		t.Errorf("manifest rescored %+v (err %v)", man.Rescored, err)
	}
	_, e, code := sdcbench(t, dir, "rescore", "--metrics", "mae", "r")
	checkError(t, "rescore twice", e, code, []string{"metric mae is already in"})
	_, e, code = sdcbench(t, dir, "rescore", "r")
	checkError(t, "no --metrics", e, code, []string{"--metrics"})
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--no-analyze", "--out", "plain", "tiny"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	_, e, code = sdcbench(t, dir, "rescore", "--metrics", "mae", "plain")
	checkError(t, "no releases", e, code, []string{"no stored releases", "--keep-releases"})
}
