package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEvalAttack: eval with a control file and metric options prints the attack's columns;
// a missing aux option and a bad value are one-line errors.
func TestEvalAttack(t *testing.T) {
	dir := t.TempDir()
	writeHoldout(t, dir, "")
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", "o.csv", "--out", "m.csv"); code != 0 {
		t.Fatal(e)
	}
	out, e, code := sdcbench(t, dir, "eval", "--orig", "o.csv", "--masked", "m.csv", "--metrics", "inference,linkability",
		"--control", "c.csv", "--metric-opt", "aux=a", "--metric-opt", "attacks=10")
	if code != 0 {
		t.Fatal(e)
	}
	for _, col := range []string{"inference,", "inference_ci_low,", "inference_control,", "linkability_n_attacks,10"} {
		if !strings.Contains(out, col) || strings.Contains(out, "inference_control,NaN") {
			t.Errorf("eval output lacks %q or has no control rate:\n%s", col, out)
		}
	}
	_, e, code = sdcbench(t, dir, "eval", "--orig", "o.csv", "--masked", "m.csv", "--metrics", "inference")
	checkError(t, "no aux", e, code, []string{"auxiliary columns", "aux"})
	_, e, code = sdcbench(t, dir, "eval", "--orig", "o.csv", "--masked", "m.csv", "--metrics", "inference", "--metric-opt", "aux=zz")
	checkError(t, "unknown aux", e, code, []string{`no column "zz"`})
}

// TestEvalControlNA: the control file is read like the original, with eval's --na tokens
// (it was read strictly, so a "." cell stopped eval).
func TestEvalControlNA(t *testing.T) {
	dir := t.TempDir()
	writeHoldout(t, dir, "3,.,4\n")
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", "o.csv", "--out", "m.csv"); code != 0 {
		t.Fatal(e)
	}
	args := []string{"eval", "--orig", "o.csv", "--masked", "m.csv", "--metrics", "inference",
		"--control", "c.csv", "--metric-opt", "aux=a", "--metric-opt", "attacks=10"}
	if _, e, code := sdcbench(t, dir, args...); code == 0 || !strings.Contains(e, "c.csv") {
		t.Errorf("a \".\" cell without --na: exit %d, %s", code, e)
	}
	out, e, code := sdcbench(t, dir, append(args, "--na", ".")...)
	if code != 0 || !strings.Contains(out, "inference_control,") || strings.Contains(out, "inference_control,NaN") {
		t.Errorf("--na . with a missing control cell: exit %d, %s\n%s", code, e, out)
	}
}

// writeHoldout writes dir/o.csv and dir/c.csv: 40 records of three numeric columns, every fourth
// held out into the control file, which ends with extra (further control rows).
func writeHoldout(t *testing.T, dir, extra string) {
	t.Helper()
	var orig, ctl strings.Builder
	orig.WriteString("a,b,c\n")
	ctl.WriteString("a,b,c\n")
	for i := 0; i < 40; i++ {
		b := &orig
		if i%4 == 0 {
			b = &ctl
		}
		b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa((i * 7) % 13), strconv.Itoa((i * 5) % 11)}, ",") + "\n")
	}
	ctl.WriteString(extra)
	for name, text := range map[string]string{"o.csv": orig.String(), "c.csv": ctl.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
