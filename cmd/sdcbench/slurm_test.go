package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSlurmCluster submits the script of `sdcbench slurm` to a real Slurm cluster and checks
// that the merged runs equal a local run of the same spec, apart from the seconds column. It
// first cancels one array task: the merge job must still run (afterany), refuse the
// incomplete shards and say to submit again; the second submission must resume and complete.
//
// It runs only when SDCBENCH_SLURM=1 (make test-slurm starts a one-node cluster with
// scripts/slurm-single-node.sh and sets it); the cluster's nodes must see this machine's
// temporary folder (true on one node).
func TestSlurmCluster(t *testing.T) {
	if os.Getenv("SDCBENCH_SLURM") != "1" {
		t.Skip("set SDCBENCH_SLURM=1 to submit jobs to the Slurm cluster (make test-slurm)")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatal("SDCBENCH_SLURM=1 but sbatch is not on PATH")
	}
	dir := t.TempDir()
	// A spec path with a space and shell characters: quoting must keep it one word.
	specDir := filepath.Join(dir, "spec dir")
	if err := os.Mkdir(specDir, 0o755); err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(specDir, "a;echo INJECTED;.toml")
	spec := `name = "slurmtest"
seed = 11
replicates = 2
datasets = ["census", "tarragona"]
metrics = ["sse_sst", "il1s", "dld"]
[[methods]]
name = "mdav"
grid = { k = [3, 5] }
[[methods]]
name = "noise_additive"
grid = { noise_pct = [10, 50] }
`
	if err := os.WriteFile(specPath, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res dir", "slurmtest")
	script, e, code := sdcbench(t, dir, "slurm", "--shards", "3", "--cpus-per-task", "1", "--time", "10:00",
		"--out", out, specPath)
	if code != 0 {
		t.Fatalf("slurm: %s", e)
	}
	scriptPath := filepath.Join(dir, "submit.sh")
	if err := os.WriteFile(scriptPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	submit := func(args ...string) (arrayID, mergeID string, stdout string) {
		t.Helper()
		cmd := exec.Command("bash", append([]string{scriptPath}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SDCBENCH="+binary)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("submit %v: %v\n%s", args, err, b)
		}
		m := regexp.MustCompile(`submitted array job (\d+) \(3 shards\) and merge job (\d+)`).FindStringSubmatch(string(b))
		if len(args) == 0 && m == nil {
			t.Fatalf("submit: unexpected output %q", b)
		}
		if m == nil {
			return "", "", string(b)
		}
		return m[1], m[2], string(b)
	}
	if _, _, o := submit("--test-only"); !strings.Contains(o, "to start at") {
		t.Fatalf("--test-only: %q", o)
	}

	// 1. Held submission, one array task cancelled: the merge job runs anyway and refuses.
	os.Setenv("SBATCH_HOLD", "1")
	arr, mrg, o := submit()
	os.Unsetenv("SBATCH_HOLD")
	if strings.Contains(o, "INJECTED") {
		t.Fatalf("the spec path was run as a command: %q", o)
	}
	scontrol(t, "release", arr+"_1")
	scontrol(t, "release", arr+"_3")
	if b, err := exec.Command("scancel", arr+"_2").CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, b)
	}
	scontrol(t, "release", mrg)
	waitJobs(t, arr, mrg)
	log, err := os.ReadFile(filepath.Join(out, "logs", "merge-"+mrg+".out"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "submit the same script again") {
		t.Fatalf("merge log after a cancelled shard: %s", log)
	}
	for _, i := range []string{"1", "3"} {
		if _, err := os.Stat(filepath.Join(out, "logs", "shard-"+arr+"_"+i+".out")); err != nil {
			t.Fatalf("log named by %%A_%%a missing: %v", err)
		}
	}

	// 2. Submit again: shards 1 and 3 are resumed (nothing to do), shard 2 runs, merge succeeds.
	arr2, mrg2, _ := submit()
	waitJobs(t, arr2, mrg2)
	if log, _ := os.ReadFile(filepath.Join(out, "logs", "merge-"+mrg2+".out")); bytes.Contains(log, []byte("incomplete")) {
		t.Fatalf("second merge: %s", log)
	}
	if _, err := os.Stat(filepath.Join(out, "logs", "shard-"+arr+"_1.out")); err != nil {
		t.Fatal("the first submission's logs were overwritten")
	}
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--no-analyze", "--out", "local", specPath); code != 0 {
		t.Fatalf("local run: %s", e)
	}
	got, want := readRunsNoSeconds(t, filepath.Join(out, "runs.csv")), readRunsNoSeconds(t, filepath.Join(dir, "local", "runs.csv"))
	if len(got) != 17 || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("merged Slurm runs (%d rows) differ from the local run (%d rows)", len(got), len(want))
	}
	if _, err := os.Stat(filepath.Join(out, "REPORT.md")); err != nil {
		t.Fatalf("the merge job did not analyze: %v", err)
	}
}

// TestSlurmScalingStudy shards a small scaling study (generated data, profile columns, one
// worker per task) over the cluster: the merged runs.csv must equal a local run's but for the
// timing and memory columns, the profile columns must be filled, and the merge must write the
// study's SCALING.md and plot. Like TestSlurmCluster it runs only with SDCBENCH_SLURM=1.
func TestSlurmScalingStudy(t *testing.T) {
	if os.Getenv("SDCBENCH_SLURM") != "1" {
		t.Skip("set SDCBENCH_SLURM=1 to submit jobs to the Slurm cluster (make test-slurm)")
	}
	dir := t.TempDir()
	specPath := filepath.Join(dir, "scaling-slurmtest.toml")
	spec := `name = "scaling-slurmtest"
seed = 18
replicates = 1
profile = true
datasets = ["normal_d3_n2000", "normal_d3_n5000", "normal_d3_n10000"]
metrics = ["dbrl", "dld", "id_rank"]
[[methods]]
name = "mdav"
grid = { k = [3] }
[[methods]]
name = "noise_additive"
grid = { noise_pct = [10] }
`
	if err := os.WriteFile(specPath, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "scaling-slurmtest")
	script, e, code := sdcbench(t, dir, "slurm", "--shards", "2", "--cpus-per-task", "1", "--time", "10:00",
		"--out", out, specPath)
	if code != 0 {
		t.Fatalf("slurm: %s", e)
	}
	scriptPath := filepath.Join(dir, "submit.sh")
	if err := os.WriteFile(scriptPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", scriptPath)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SDCBENCH="+binary)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, b)
	}
	m := regexp.MustCompile(`submitted array job (\d+) \(2 shards\) and merge job (\d+)`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("submit: unexpected output %q", b)
	}
	waitJobs(t, m[1], m[2])
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--no-analyze", "--workers", "1", "--out", "local", specPath); code != 0 {
		t.Fatalf("local run: %s", e)
	}
	timing := func(col string) bool {
		return col == "seconds" || strings.HasSuffix(col, "_seconds") || col == "peak_heap_mb"
	}
	got, want := readRunsWithout(t, filepath.Join(out, "runs.csv"), timing), readRunsWithout(t, filepath.Join(dir, "local", "runs.csv"), timing)
	if len(got) != 7 || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("merged Slurm runs (%d rows) differ from the local run (%d rows)", len(got), len(want))
	}
	full := readRunsWithout(t, filepath.Join(out, "runs.csv"), func(string) bool { return false })
	for _, col := range []string{"cpu_seconds", "peak_heap_mb", "dld_seconds"} {
		c := slices.Index(full[0], col)
		if c < 0 {
			t.Fatalf("merged runs.csv has no %s column", col)
		}
		for _, r := range full[1:] {
			if r[c] == "" || r[c] == "NaN" {
				t.Fatalf("%s empty in a Slurm run (one worker per task): %v", col, r)
			}
		}
	}
	for _, f := range []string{"SCALING.md", filepath.Join("plots", "scaling.png")} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatalf("the merge did not write the scaling report: %v", err)
		}
	}
}

// scontrol runs scontrol with args.
func scontrol(t *testing.T, args ...string) {
	t.Helper()
	if b, err := exec.Command("scontrol", args...).CombinedOutput(); err != nil {
		t.Fatalf("scontrol %v: %v %s", args, err, b)
	}
}

// waitJobs waits until none of the jobs is in the queue (3 minutes at most).
func waitJobs(t *testing.T, ids ...string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		b, err := exec.Command("squeue", "-h", "-j", strings.Join(ids, ","), "-o", "%i %T %r").CombinedOutput()
		if err == nil && strings.TrimSpace(string(b)) == "" || err != nil && bytes.Contains(b, []byte("Invalid job id")) {
			return
		}
		time.Sleep(time.Second)
	}
	b, _ := exec.Command("squeue", "-j", strings.Join(ids, ","), "-o", "%i %T %r").CombinedOutput()
	t.Fatalf("jobs %v still queued after 3 minutes:\n%s", ids, b)
}

// readRunsNoSeconds reads a runs.csv without its seconds column.
func readRunsNoSeconds(t *testing.T, path string) [][]string {
	t.Helper()
	recs := readRunsWithout(t, path, func(col string) bool { return col == "seconds" })
	if len(recs) > 0 && len(recs[0]) == 0 {
		t.Fatalf("%s: no columns", path)
	}
	return recs
}

// readRunsWithout reads a runs.csv without the columns drop selects.
func readRunsWithout(t *testing.T, path string, drop func(col string) bool) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var keep []int
	for c, col := range recs[0] {
		if !drop(col) {
			keep = append(keep, c)
		}
	}
	for i, r := range recs {
		row := make([]string, len(keep))
		for j, c := range keep {
			row[j] = r[c]
		}
		recs[i] = row
	}
	return recs
}
