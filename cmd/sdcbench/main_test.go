package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sdcbench-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "sdcbench")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sdcbench runs the binary in dir and returns stdout, stderr and the exit code.
func sdcbench(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestProtectEval(t *testing.T) {
	dir := t.TempDir()
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=3", "--dataset", "census",
		"--out", "m.csv", "--groups", "g.csv"); code != 0 {
		t.Fatalf("protect: %s", e)
	}
	out, e, code := sdcbench(t, dir, "eval", "--dataset", "census", "--masked", "m.csv", "--metrics", "sse_sst")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(out, "sse_sst,")), 64)
	if code != 0 || err != nil || math.Round(v*1e4)/1e4 != 5.6922 {
		t.Fatalf("eval: %q %q, want sse_sst,5.6922…", out, e)
	}
	g, _ := os.ReadFile(filepath.Join(dir, "g.csv"))
	if n := strings.Count(string(g), "\n"); n != 1081 {
		t.Fatalf("groups file has %d lines, want header + 1080", n)
	}
	// Same through --in with a file.
	os.WriteFile(filepath.Join(dir, "x.csv"), []byte("a,b\n1,2\n2,1\n3,3\n4,5\n5,4\n6,6\n"), 0o644)
	if _, e, code := sdcbench(t, dir, "protect", "--method", "noise_additive", "--in", "x.csv", "--out", "n.csv", "--seed", "5"); code != 0 {
		t.Fatalf("protect --in: %s", e)
	}
	if out, _, _ := sdcbench(t, dir, "eval", "--orig", "x.csv", "--masked", "n.csv", "--metrics", "il1s,dld"); !strings.Contains(out, "il1s,") || !strings.Contains(out, "dld,") {
		t.Fatalf("eval --orig: %q", out)
	}
}

// TestBadInput: every error is one to three lines on stderr naming what is wrong, a non-zero
// exit, and no output file left behind (issue 2, item 8).
func TestBadInput(t *testing.T) {
	files := map[string]string{
		"ragged.csv":  "a,b\n1,2\n3\n4,5\n",
		"text.csv":    "a,b\n1,2\n3,x7\n4,5\n",
		"nan.csv":     "a,b\n1,2\nNaN,4\n4,5\n5,6\n6,7\n7,8\n8,9\n",
		"inf.csv":     "a,b\n1,2\n3,Inf\n4,5\n",
		"empty.csv":   "",
		"header.csv":  "a,b\n",
		"dup.csv":     "a,a\n1,2\n3,4\n",
		"const.csv":   "a,b\n1,7\n2,7\n3,7\n4,7\n5,7\n6,7\n",
		"small.csv":   "a,b\n1,2\n2,3\n3,1\n4,4\n5,5\n",
		"good.csv":    "a,b\n1,2\n2,3\n3,1\n4,4\n5,5\n6,6\n7,7\n",
		"masked3.csv": "a,b\n1,2\n",
	}
	for _, c := range []struct {
		name    string
		args    []string
		mention []string
	}{
		{"ragged rows", []string{"--in", "ragged.csv"}, []string{"ragged.csv:3", "fields"}},
		{"text in a numeric column", []string{"--in", "text.csv"}, []string{"text.csv:3", `"b"`, `"x7"`, "not a number"}},
		// mdav aggregates missing values as sdcMicro does; vmdav refuses them in one line
		{"NaN", []string{"--method", "vmdav", "--in", "nan.csv"}, []string{`vmdav: column "a" has 1 missing value`, "ma_mdav"}},
		{"Inf", []string{"--in", "inf.csv"}, []string{"inf.csv:3", `"b"`}},
		{"empty file", []string{"--in", "empty.csv"}, []string{"empty.csv", "empty file"}},
		{"header only", []string{"--in", "header.csv"}, []string{"header.csv", "no data rows"}},
		{"duplicate column names", []string{"--in", "dup.csv"}, []string{"dup.csv", `"a"`, "duplicate"}},
		{"constant column", []string{"--in", "const.csv"}, []string{"const.csv", `"b"`, "constant"}},
		{"fewer than 2k rows", []string{"--in", "small.csv"}, []string{"small.csv", "5 rows", "2k = 6"}},
		{"k < 2", []string{"--in", "good.csv", "--param", "k=1"}, []string{"k=", "[2, +inf)"}},
		{"non-integer k", []string{"--in", "good.csv", "--param", "k=2.5"}, []string{"k=", "integer"}},
		{"unknown parameter", []string{"--in", "good.csv", "--param", "kk=3"}, []string{"kk", "unknown parameter"}},
		{"unknown dataset", []string{"--dataset", "nope"}, []string{"nope", "census"}},
		{"missing file", []string{"--in", "missing.csv"}, []string{"missing.csv", "no such file"}},
		{"unknown method", []string{"--method", "nope", "--dataset", "census"}, []string{"nope", "mdav"}},
		{"both inputs", []string{"--in", "good.csv", "--dataset", "census"}, []string{"--dataset", "not both"}},
		{"unknown flag", []string{"--dataset", "census", "--colour", "red"}, []string{"colour"}},
	} {
		dir := t.TempDir()
		for name, content := range files {
			os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
		}
		args := []string{"protect", "--method", "mdav", "--out", "out.csv"}
		if c.args[0] == "--method" {
			args = []string{"protect", "--out", "out.csv"}
		}
		args = append(args, c.args...)
		_, stderr, code := sdcbench(t, dir, args...)
		checkError(t, c.name, stderr, code, c.mention)
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Errorf("%s: out.csv left behind", c.name)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != len(files) {
			t.Errorf("%s: %d files in the folder, want %d (a temporary file was left behind?)", c.name, len(ents), len(files))
		}
	}
	// eval errors
	dir := t.TempDir()
	for name, content := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	for _, c := range []struct {
		name    string
		args    []string
		mention []string
	}{
		{"unknown metric", []string{"eval", "--orig", "good.csv", "--masked", "good.csv", "--metrics", "sse_sst,nope"}, []string{"nope", "sse_sst"}},
		{"row count mismatch", []string{"eval", "--orig", "good.csv", "--masked", "masked3.csv", "--metrics", "il1s"}, []string{"masked3.csv", "1 rows", "7"}},
		{"masked lacks a column", []string{"eval", "--orig", "good.csv", "--masked", "dup.csv", "--metrics", "il1s"}, []string{"dup.csv"}},
		{"unknown command", []string{"frobnicate"}, []string{"frobnicate"}},
		{"list what", []string{"list", "things"}, []string{"things"}},
		{"run without spec", []string{"run"}, []string{"SPEC"}},
		{"run unknown spec", []string{"run", "nope"}, []string{"nope", "quickstart"}},
		{"bad shard", []string{"run", "--shard", "4/3", "tiny"}, []string{"shard", "1 ≤ i ≤ n"}},
		{"merge nothing", []string{"merge", "--out", "x"}, []string{"merge"}},
		{"slurm no shards", []string{"slurm", "tiny"}, []string{"--shards"}},
	} {
		_, stderr, code := sdcbench(t, dir, c.args...)
		checkError(t, c.name, stderr, code, c.mention)
	}
}

func checkError(t *testing.T, name, stderr string, code int, mention []string) {
	t.Helper()
	if code == 0 {
		t.Errorf("%s: exit status 0", name)
	}
	lines := strings.Count(strings.TrimRight(stderr, "\n"), "\n") + 1
	if stderr == "" || lines > 3 {
		t.Errorf("%s: %d lines on stderr, want 1 to 3:\n%s", name, lines, stderr)
	}
	for _, m := range mention {
		if !strings.Contains(stderr, m) {
			t.Errorf("%s: stderr %q does not mention %q", name, strings.TrimSpace(stderr), m)
		}
	}
}

func TestListAndSlurm(t *testing.T) {
	dir := t.TempDir()
	for _, what := range []string{"datasets", "methods", "metrics", "experiments"} {
		out, e, code := sdcbench(t, dir, "list", what)
		if code != 0 || out == "" {
			t.Errorf("list %s: %q %q", what, out, e)
		}
	}
	out, _, code := sdcbench(t, dir, "slurm", "--shards", "4", "tiny")
	if code != 0 || !strings.Contains(out, "--array=1-4") || !strings.Contains(out, `--dependency="afterany:`) ||
		!strings.Contains(out, "SLURM_ARRAY_TASK_ID") || !strings.Contains(out, `"$SDCBENCH" merge`) {
		t.Errorf("slurm script:\n%s", out)
	}
	// slurm reads the grid, not the data: a dataset file absent here (on the cluster's storage)
	// is no error, and the shards are counted against the runs; run needs the file.
	os.WriteFile(filepath.Join(dir, "far.toml"), []byte(`name = "far"
replicates = 3
datasets = [{path = "/cluster/scratch/survey.csv", label = "survey", keep = ["id"]}]
metrics = ["sse_sst"]
[[methods]]
name = "noise_additive"
`), 0o644)
	out, e, code := sdcbench(t, dir, "slurm", "--shards", "3", "far.toml")
	if code != 0 || !strings.Contains(out, "--array=1-3") {
		t.Errorf("slurm without the data file: exit %d, %s\n%s", code, e, out)
	}
	_, e, code = sdcbench(t, dir, "slurm", "--shards", "4", "far.toml")
	checkError(t, "slurm: more shards than runs", e, code, []string{"--shards 4", "3 runs"})
	_, e, code = sdcbench(t, dir, "run", "--quiet", "--out", "r", "far.toml")
	checkError(t, "run without the data file", e, code, []string{"survey.csv"})
}

func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--out", "r", "tiny"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	for _, f := range []string{"runs.csv", "manifest.json", "REPORT.md"} {
		if _, err := os.Stat(filepath.Join(dir, "r", f)); err != nil {
			t.Errorf("%s missing", f)
		}
	}
}

// TestStatsWilcoxon: the depression example of R's ?wilcox.test,
// wilcox.test(x, y, paired = TRUE): V = 40, p-value = 0.03906.
func TestStatsWilcoxon(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "xy.csv"), []byte("x,y\n1.83,0.878\n0.50,0.647\n1.62,0.598\n2.48,2.05\n1.68,1.06\n1.88,1.29\n1.55,1.06\n3.06,3.14\n1.30,1.29\n"), 0o644)
	out, e, code := sdcbench(t, dir, "stats", "wilcoxon", "--paired", "xy.csv")
	if code != 0 {
		t.Fatalf("stats wilcoxon: %s", e)
	}
	var res struct {
		Statistic float64 `json:"statistic"`
		PValue    float64 `json:"p_value"`
		Method    string  `json:"method"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Statistic != 40 || math.Abs(res.PValue-0.0390625) > 1e-9 || !strings.Contains(res.Method, "signed rank") {
		t.Fatalf("got %+v", res)
	}
	// wilcox.test(x, y, paired = TRUE, conf.int = TRUE): 0.46000000000000008 [0.010000000000000009, 0.78600000000000003]
	out, e, code = sdcbench(t, dir, "stats", "wilcoxon", "--paired", "--conf-int", "xy.csv")
	if code != 0 {
		t.Fatalf("stats wilcoxon --conf-int: %s", e)
	}
	var ci struct {
		Estimate float64    `json:"estimate"`
		ConfInt  [2]float64 `json:"conf_int"`
	}
	if err := json.Unmarshal([]byte(out), &ci); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ci.Estimate != 0.46000000000000008 || ci.ConfInt != [2]float64{0.010000000000000009, 0.78600000000000003} {
		t.Errorf("--conf-int: got %+v", ci)
	}
	_, stderr, code := sdcbench(t, dir, "stats", "wilcoxon", "missing.csv")
	checkError(t, "stats on a missing file", stderr, code, []string{"missing.csv"})
}

// TestAnalyze: run writes the analysis; analyze rewrites it from runs.csv alone.
func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--out", "r", "tiny"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	for _, f := range []string{"summary.csv", "wilcoxon.csv", "best.csv", "wins.csv", "gaps.csv", "friedman.csv"} {
		os.Remove(filepath.Join(dir, "r", f))
	}
	if _, e, code := sdcbench(t, dir, "analyze", "--quiet", "r"); code != 0 {
		t.Fatalf("analyze: %s", e)
	}
	for _, f := range []string{"summary.csv", "wilcoxon.csv", "best.csv", "wins.csv", "gaps.csv", "friedman.csv", "REPORT.md", "plots/box_sse_sst.png"} {
		if st, err := os.Stat(filepath.Join(dir, "r", f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, "r", "REPORT.md"))
	if !strings.Contains(string(report), "## Means per dataset") || !strings.Contains(string(report), "| mdav | k=3") {
		t.Errorf("REPORT.md lacks the per-dataset means")
	}
	_, stderr, code := sdcbench(t, dir, "analyze", "nowhere")
	checkError(t, "analyze a missing folder", stderr, code, []string{"nowhere"})
}

// TestMergeReport: after merge, REPORT.md is the analysis's report, as after a run on one
// machine (the same sections); run --no-analyze leaves the runner's summary instead.
func TestMergeReport(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--quiet", "--out", "r", "tiny"},
		{"run", "--quiet", "--out", "s1", "--shard", "1/2", "tiny"},
		{"run", "--quiet", "--out", "s2", "--shard", "2/2", "tiny"},
		{"merge", "--out", "m", "s1", "s2"},
		{"run", "--quiet", "--no-analyze", "--out", "n", "tiny"},
	} {
		if _, e, code := sdcbench(t, dir, args...); code != 0 {
			t.Fatalf("%v: %s", args, e)
		}
	}
	for _, shard := range []string{"s1", "s2"} {
		if _, err := os.Stat(filepath.Join(dir, shard, "REPORT.md")); !os.IsNotExist(err) {
			t.Errorf("shard %s has a REPORT.md", shard)
		}
	}
	headings := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(dir, name, "REPORT.md"))
		if err != nil {
			t.Fatal(err)
		}
		var hs []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "#") {
				hs = append(hs, l)
			}
		}
		return hs
	}
	run, merged := headings("r"), headings("m")
	if len(run) == 0 || run[0] != "# tiny: analysis" || strings.Join(run, "\n") != strings.Join(merged, "\n") {
		t.Errorf("REPORT.md after merge has sections\n%s\nafter run\n%s", strings.Join(merged, "\n"), strings.Join(run, "\n"))
	}
	if n := headings("n"); len(n) == 0 || n[0] != "# tiny" {
		t.Errorf("run --no-analyze: REPORT.md sections %v, want the summary", n)
	}
}
