package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNAFlag: --na declares the missing-value tokens of protect's and eval's files. With "."
// listed, a column of numbers and "." cells is numeric with missing values: mdav aggregates it,
// the release writes its missing cells as ".", and eval reads it back; without, "." is text
// and the message says so and points to --na.
func TestNAFlag(t *testing.T) {
	dir := t.TempDir()
	in := "a,b,c\n1,2,x\n.,3,y\n4,.,x\n5,6,NA\n7,8,y\n9,1,x\n2,5,y\n"
	if err := os.WriteFile(filepath.Join(dir, "dots.csv"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	_, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", "dots.csv", "--columns", "a,b", "--keep", "c", "--out", "m.csv")
	checkError(t, "without --na", e, code, []string{"dots.csv:3", `"a"`, `"."`, "--na"})
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", "dots.csv", "--columns", "a,b", "--keep", "c",
		"--na", ".", "--out", "m.csv"); code != 0 {
		t.Fatalf("protect --na .: %s", e)
	}
	b, err := os.ReadFile(filepath.Join(dir, "m.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[2], ".,") || !strings.Contains(lines[3], ",.,") || !strings.HasSuffix(lines[4], ",NA") {
		t.Errorf("release: missing cells not written as \".\" (and the label NA kept):\n%s", b)
	}
	out, e, code := sdcbench(t, dir, "eval", "--orig", "dots.csv", "--masked", "m.csv", "--columns", "a,b", "--keep", "c",
		"--na", ".", "--metrics", "n_suppressed")
	if code != 0 || !strings.Contains(out, "n_suppressed,0\n") {
		t.Errorf("eval --na .: %q %s", out, e)
	}
}
