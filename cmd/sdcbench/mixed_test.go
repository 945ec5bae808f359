package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const mixedFile = `id,region,income,expend,sex
1,North,100,40,m
2,North,180,70,f
3,North,150,55,m
4,North,170,60,f
5,North,130,52,NA
6,North,120,45,f
7,"South, coast",300,90,f
8,"South, coast",320,99,m
9,"South, coast",310,95,f
10,"South, coast",290,85,m
11,"South, coast",330,100,f
12,"South, coast",305,92,m
`

// TestMixedProtectEval: a mixed-type file protected by mdav within strata with pass-through
// columns keeps them in place and unchanged; pram protects only its column; eval reads both.
func TestMixedProtectEval(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=3", "--in", "mine.csv",
		"--columns", "income,expend", "--keep", "id,sex", "--strata", "region", "--out", "m.csv"); code != 0 {
		t.Fatalf("protect: %s", e)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m.csv"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "id,region,income,expend,sex" || len(lines) != 13 {
		t.Fatalf("masked header %q, %d lines", lines[0], len(lines))
	}
	orig := strings.Split(strings.TrimSpace(mixedFile), "\n")
	for i := 1; i < len(lines); i++ {
		o, m := strings.Split(orig[i], ","), strings.Split(lines[i], ",")
		if m[0] != o[0] || m[len(m)-1] != o[len(o)-1] || !strings.Contains(lines[i], strings.Split(orig[i], ",")[1]) {
			t.Errorf("row %d: id/region/sex not passed through: %q vs %q", i, lines[i], orig[i])
		}
	}
	// The North stratum's groups average North records only: their incomes stay below 200.
	for i := 1; i <= 6; i++ {
		if v, err := strconv.ParseFloat(strings.Split(lines[i], ",")[2], 64); err != nil || v >= 200 {
			t.Errorf("row %d: income %v mixes strata (%v)", i, v, err)
		}
	}
	out, e, code := sdcbench(t, dir, "eval", "--orig", "mine.csv", "--masked", "m.csv", "--columns", "income,expend",
		"--keep", "id,region,sex", "--keys", "region,sex", "--metrics", "sse_sst,kanon_viol_2")
	if code != 0 || !strings.Contains(out, "kanon_viol_2,") || !strings.Contains(out, "sse_sst,") {
		t.Fatalf("eval: %q %s", out, e)
	}
	if _, e, code := sdcbench(t, dir, "protect", "--method", "pram", "--param", "matrix=0,1;1,0", "--in", "mine.csv",
		"--columns", "sex", "--keep", "id,region,income", "--out", "p.csv"); code != 0 {
		t.Fatalf("pram: %s", e)
	}
	// Every input column is released: expend, in neither --columns nor --keep, passes through
	// in place (issue 32).
	b, _ = os.ReadFile(filepath.Join(dir, "p.csv"))
	if got := strings.Split(string(b), "\n"); got[0] != "id,region,income,expend,sex" || got[1] != "1,North,100,40,f" ||
		got[5] != "5,North,130,52,NA" || got[7] != `7,"South, coast",300,90,m` {
		t.Errorf("pram with a swap matrix: %q", got[:8])
	}
	out, _, _ = sdcbench(t, dir, "eval", "--orig", "mine.csv", "--masked", "p.csv", "--columns", "sex",
		"--keep", "id,region,income", "--metrics", "pram_changed,n_suppressed")
	if !strings.Contains(out, "pram_changed,11\n") || !strings.Contains(out, "n_suppressed,0\n") {
		t.Errorf("eval of pram: %q", out)
	}
}

// TestMixedBadInput: unknown columns in --keep/--strata/--keys, a small stratum, a text
// column for a numeric method: one error line and no output file.
func TestMixedBadInput(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		mention []string
	}{
		{"unknown keep", []string{"--columns", "income", "--keep", "id,regio"}, []string{"keep", `"regio"`, "have id, region"}},
		{"unknown strata", []string{"--columns", "income", "--strata", "zone"}, []string{"strata", `"zone"`}},
		{"unknown key", []string{"--columns", "income", "--keep", "sex", "--keys", "sex,age"}, []string{"keys", `"age"`}},
		{"key dropped", []string{"--columns", "income", "--drop", "region", "--keys", "region"}, []string{"--drop region", "--keys"}},
		{"unknown dropped column", []string{"--columns", "income", "--drop", "zone"}, []string{"drop", `"zone"`, "have id, region"}},
		{"protected column dropped", []string{"--columns", "income,expend", "--drop", "expend"}, []string{"--drop expend", "--columns"}},
		{"stratum smaller than 2k", []string{"--columns", "income,expend", "--strata", "region", "--param", "k=4"}, []string{"stratum region=North", "6 rows", "2k = 8"}},
		{"text column, numeric method", []string{"--columns", "income,sex"}, []string{"mine.csv:2", `"sex"`, `"m"`, "not a number"}},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
		args := append([]string{"protect", "--method", "mdav", "--in", "mine.csv", "--out", "out.csv"}, c.args...)
		_, stderr, code := sdcbench(t, dir, args...)
		checkError(t, c.name, stderr, code, c.mention)
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%s: %d files left in the folder, want only mine.csv", c.name, len(ents))
		}
	}
}

// TestMixedSpecAndEvalErrors: a spec whose file is missing leaves no results folder; eval
// refuses a weight column that is not released.
func TestMixedSpecAndEvalErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte(`name = "bad"
datasets = [{path = "nope.csv", keep = ["id"]}]
metrics = ["sse_sst"]
[[methods]]
name = "mdav"
`), 0o644)
	_, stderr, code := sdcbench(t, dir, "run", "--out", "res", "bad.toml")
	checkError(t, "missing spec file", stderr, code, []string{"datasets[0]", "nope.csv", "no such file"})
	if _, err := os.Stat(filepath.Join(dir, "res")); err == nil {
		t.Error("missing spec file: a results folder was created")
	}
	// The masked file has no expend column: with --columns, eval passes through only the
	// original's columns that the masked file has.
	var noExpend []string
	for _, l := range strings.Split(mixedFile, "\n") {
		if f := strings.Split(l, ","); len(f) > 3 {
			noExpend = append(noExpend, strings.Join(append(f[:len(f)-2:len(f)-2], f[len(f)-1]), ","))
		}
	}
	os.WriteFile(filepath.Join(dir, "noexpend.csv"), []byte(strings.Join(noExpend, "\n")+"\n"), 0o644)
	_, stderr, code = sdcbench(t, dir, "eval", "--orig", "mine.csv", "--masked", "noexpend.csv", "--columns", "income",
		"--keep", "sex", "--keys", "sex", "--weight", "expend", "--metrics", "global_risk_er")
	checkError(t, "weight not released", stderr, code, []string{"--weight expend", "--keep"})
}
