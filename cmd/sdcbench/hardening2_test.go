package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStatsEdgeFiles is issue 25 ("Hangs, crashes…"): a header-only file is a clear error (no
// panic) for every stats test, duplicate column names are refused naming them, and the warnings
// of a test are printed on stderr.
func TestStatsEdgeFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "xy.csv", "x,y\n")
	writeFile(t, dir, "ab.csv", "a,b\n")
	writeFile(t, dir, "p.csv", "p\n")
	writeFile(t, dir, "dup.csv", "x,y,x\n1,2,3\n4,5,6\n")
	writeFile(t, dir, "small.csv", "x,y\n1,2\n4,5\n")
	for _, args := range [][]string{{"wilcoxon", "xy.csv"}, {"wilcoxon", "--paired", "xy.csv"},
		{"friedman", "ab.csv"}, {"adjust", "p.csv"}} {
		_, e, code := sdcbench(t, dir, append([]string{"stats"}, args...)...)
		checkError(t, strings.Join(args, " "), e, code, []string{args[len(args)-1], "no data rows"})
	}
	_, e, code := sdcbench(t, dir, "stats", "wilcoxon", "dup.csv")
	checkError(t, "duplicate", e, code, []string{"dup.csv", "duplicate column", `"x"`})
	out, e, code := sdcbench(t, dir, "stats", "wilcoxon", "small.csv")
	if code != 0 || !strings.Contains(e, "warning: too few observations") || !strings.Contains(out, "too few") {
		t.Errorf("warnings: exit %d, stderr %q", code, e)
	}
}

// TestInputSizeCaps is issue 25: `protect --in /dev/zero` and a single-line CSV longer than
// datasets.MaxRecordBytes end in an error naming the file and the limit, not out of memory.
func TestInputSizeCaps(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "line.csv", "a,b\n"+strings.Repeat("1", 17<<20)+",2\n")
	for _, in := range []string{"line.csv", "/dev/zero"} {
		if _, err := os.Stat(filepath.Join(dir, in)); in == "/dev/zero" && err != nil {
			if _, err := os.Stat(in); err != nil {
				continue
			}
		}
		_, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", in, "--out", "m.csv")
		checkError(t, in, e, code, []string{in, "longer than 16 MiB"})
	}
	_, e, code := sdcbench(t, dir, "stats", "wilcoxon", "line.csv")
	checkError(t, "stats", e, code, []string{"line.csv", "longer than 16 MiB"})
}
