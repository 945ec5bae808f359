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
