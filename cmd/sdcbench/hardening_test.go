package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelpExitsZero is issue 14 item 8: -h and --help print the usage and succeed, for every
// subcommand (and stats --help is help, not an unknown test).
func TestHelpExitsZero(t *testing.T) {
	dir := t.TempDir()
	for _, name := range commandNames() {
		for _, h := range []string{"-h", "--help"} {
			_, e, code := sdcbench(t, dir, name, h)
			if code != 0 || !strings.Contains(e, "usage: sdcbench") {
				t.Errorf("%s %s: exit %d, %q", name, h, code, e)
			}
		}
	}
	for _, args := range [][]string{{"stats", "wilcoxon", "-h"}, {"stats", "adjust", "--help"}, {"--help"}, {"help"}} {
		if _, e, code := sdcbench(t, dir, args...); code != 0 {
			t.Errorf("%v: exit %d, %q", args, code, e)
		}
	}
}

// TestProtectGroupsIsOut is issue 14 item 5: --groups naming the --out file is refused before
// anything is written.
func TestProtectGroupsIsOut(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"m.csv", "./m.csv", filepath.Join(dir, "m.csv")} {
		_, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--dataset", "census", "--out", "m.csv", "--groups", g)
		checkError(t, "groups = out ("+g+")", e, code, []string{"--groups", "same file"})
	}
	if _, err := os.Stat(filepath.Join(dir, "m.csv")); err == nil {
		t.Error("m.csv written")
	}
}

// TestEdgeInputsCLI: issue 14 items 1–3 through the command line.
func TestEdgeInputsCLI(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := 0; i < 30; i++ {
		b.WriteString(strings.Join([]string{ftoa(1.7e308 - float64(i)*3e306), ftoa(float64(i*i%7) * 1e200)}, ",") + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "huge.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, e, code := sdcbench(t, dir, "eval", "--orig", "huge.csv", "--masked", "huge.csv", "--metrics", "sse_sst,dld,il1s")
	if code != 0 || out != "sse_sst,0\ndld,100\nil1s,0\n" {
		t.Errorf("eval of a 1e308 table against itself: %q %q", out, e)
	}
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", "huge.csv", "--out", "m.csv"); code != 0 {
		t.Errorf("mdav on 1e308 values: %s", e)
	}
	if out, e, code := sdcbench(t, dir, "eval", "--orig", "huge.csv", "--masked", "m.csv", "--metrics", "sse_sst"); code != 0 ||
		strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Errorf("eval of the mdav release: %q %q", out, e)
	}
	_, e, code = sdcbench(t, dir, "protect", "--method", "noise_additive", "--param", "noise_pct=400", "--in", "huge.csv", "--out", "n.csv")
	checkError(t, "overflowing noise", e, code, []string{"overflows", `column "a"`})
	_, e, code = sdcbench(t, dir, "protect", "--method", "noise_additive", "--param", "noise_pct=Inf", "--in", "huge.csv", "--out", "n.csv")
	checkError(t, "noise_pct=Inf", e, code, []string{"noise_pct", "finite"})
	_, e, code = sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=99999999999999999999", "--in", "huge.csv", "--out", "n.csv")
	checkError(t, "k=1e20", e, code, []string{"k=", "too large"})
	_, e, code = sdcbench(t, dir, "protect", "--method", "mdav", "--seed", "-1", "--in", "huge.csv", "--out", "n.csv")
	checkError(t, "seed -1", e, code, []string{"seed"})
	if _, e, code := sdcbench(t, dir, "protect", "--method", "noise_additive", "--seed", "18446744073709551615", "--in", "huge.csv", "--out", "n2.csv", "--param", "noise_pct=1"); code != 0 {
		t.Errorf("seed 2^64−1: %s", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.csv")); err == nil {
		t.Error("a refused release was written")
	}
	long := "a\n" + strings.Repeat("1", 2_000_000) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "long.csv"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	_, e, code = sdcbench(t, dir, "protect", "--method", "mdav", "--in", "long.csv", "--out", "n.csv")
	checkError(t, "2 MB field", e, code, []string{"long.csv", "float64 range", "(2000000 bytes)"})
	if len(e) > 300 {
		t.Errorf("2 MB field: a %d-byte error", len(e))
	}
}

// TestSIGTERM is issue 14 item 8: SIGTERM (what Slurm sends at a time limit) stops a run as
// gracefully as ^C: the finished runs stay recorded and the message says how to resume.
func TestSIGTERM(t *testing.T) {
	dir := t.TempDir()
	spec := "name = \"long\"\nseed = 1\nreplicates = 20000\ndatasets = [\"census\"]\nmetrics = [\"sse_sst\"]\n[[methods]]\nname = \"mdav\"\n"
	if err := os.WriteFile(filepath.Join(dir, "long.toml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "run", "--quiet", "--workers", "1", "--out", "r", "long.toml")
	cmd.Dir = dir
	var e strings.Builder
	cmd.Stderr = &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "r", "runs.csv")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(runs); strings.Count(string(b), "\n") >= 3 {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("after SIGTERM: %v (want exit status 1, not a kill), stderr %q", err, e.String())
	}
	if !strings.Contains(e.String(), "interrupted") || !strings.Contains(e.String(), "resume") {
		t.Errorf("after SIGTERM: %q", e.String())
	}
	b, _ := os.ReadFile(runs)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Error("runs.csv torn")
	}
}

// TestSlurmScript is issue 14 items 9–11: resources from flags, a --test-only mode, afterany,
// logs that a re-submission does not overwrite, quoted paths and "jobid;cluster".
func TestSlurmScript(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "a;echo X;.toml")
	tiny := "name = \"t\"\nseed = 1\ndatasets = [\"census\"]\nmetrics = [\"sse_sst\"]\n[[methods]]\nname = \"mdav\"\ngrid.k = [3, 4, 5]\n"
	if err := os.WriteFile(spec, []byte(tiny), 0o644); err != nil {
		t.Fatal(err)
	}
	out, e, code := sdcbench(t, dir, "slurm", "--shards", "3", "--cpus-per-task", "2", "--time", "1-02:00:00",
		"--partition", "short", "--mem", "4G", "--out", "my results/t", spec)
	if code != 0 {
		t.Fatal(e)
	}
	for _, want := range []string{"#SBATCH --cpus-per-task=2", "#SBATCH --time=1-02:00:00", "#SBATCH --partition=short",
		"#SBATCH --mem=4G", "--test-only", `--dependency="afterany:${jid}"`, "shard-%A_%a.out", "jid=${jid%%;*}",
		"OUT='my results/t'", "SPEC='" + spec + "'", `"$SPEC"`, "submit the same script again"} {
		if !strings.Contains(out, want) {
			t.Errorf("script lacks %q", want)
		}
	}
	if strings.Contains(out, "afterok") || strings.Contains(out, "shard-%a.out") {
		t.Error("script still uses afterok or per-task logs that a re-submission overwrites")
	}
	// bash -n: the script parses; and the quoted spec path never runs "echo X".
	check := exec.Command("bash", "-n")
	check.Stdin = strings.NewReader(out)
	if b, err := check.CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v %s", err, b)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"cpus 0", []string{"--cpus-per-task", "0"}, "--cpus-per-task"},
		{"bad time", []string{"--time", "a day"}, "--time"},
		{"bad partition", []string{"--partition", "a b"}, "--partition"},
		{"bad mem", []string{"--mem", "lots"}, "--mem"},
	} {
		_, e, code := sdcbench(t, dir, append(append([]string{"slurm", "--shards", "2"}, c.args...), spec)...)
		checkError(t, c.name, e, code, []string{c.want})
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
