package experiments_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestSeeds is issue 14 item 2: seeds are uint64; a negative seed is refused, not wrapped; a
// seed ≥ 2^63 (beyond TOML's signed integers) is accepted as a decimal string.
func TestSeeds(t *testing.T) {
	neg := strings.Replace(hookSpec, "seed = 3", "seed = -1", 1)
	if _, err := experiments.Parse([]byte(neg), "neg.toml"); err == nil || !strings.Contains(err.Error(), "≥ 0") {
		t.Errorf("seed = -1: %v", err)
	}
	big := strings.Replace(hookSpec, "seed = 3", `seed = "18446744073709551615"`, 1)
	s, err := experiments.Parse([]byte(big), "big.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Expand()[0]
	if uint64(s.Seed) != 1<<64-1 || r.Seed != experiments.RunSeed(1<<64-1, r.ID) {
		t.Errorf("seed 2^64−1: spec %d, run seed not derived from it", s.Seed)
	}
	for _, bad := range []string{`seed = "18446744073709551616"`, `seed = "-5"`, `seed = "x"`, `seed = 1.5`} {
		if _, err := experiments.Parse([]byte(strings.Replace(hookSpec, "seed = 3", bad, 1)), "bad.toml"); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestDuplicateMethods is issue 14 item 5: two [[methods]] entries that produce the same runs
// are refused at parse time, naming both.
func TestDuplicateMethods(t *testing.T) {
	spec := hookSpec + "[[methods]]\nname = \"test_hook\"\n[methods.grid]\nx = [2, 3]\n"
	_, err := experiments.Parse([]byte(spec), "dup.toml")
	if err == nil || !strings.Contains(err.Error(), "methods[1]") || !strings.Contains(err.Error(), "methods[0]") {
		t.Fatalf("duplicate runs: %v", err)
	}
	ok := hookSpec + "[[methods]]\nname = \"test_hook\"\n[methods.grid]\nx = [3, 4]\n"
	if _, err := experiments.Parse([]byte(ok), "ok.toml"); err != nil {
		t.Errorf("distinct entries: %v", err)
	}
}

// TestGridLimit is issue 14 item 7: a grid above MaxRuns is refused before it is expanded (a
// grid of 10^12 runs would need terabytes), with a message that names the limit.
func TestGridLimit(t *testing.T) {
	list := "[" + strings.Repeat("1,", 999) + "1]"
	// 10^3 × 10^3 × 10^3 parameter sets × 2 datasets × 10 replicates: counted, never built.
	spec := strings.Replace(hookSpec, "x = [1, 2]", "x = "+list+"\ny = "+list+"\nz = "+list, 1)
	_, err := experiments.Parse([]byte(spec), "huge.toml")
	if err == nil || !strings.Contains(err.Error(), "500000") {
		t.Fatalf("a 2·10^10-run grid: %v", err)
	}
	// Replicates alone can exceed it too.
	spec = strings.Replace(hookSpec, "replicates = 10", "replicates = 300000", 1)
	if _, err := experiments.Parse([]byte(spec), "reps.toml"); err == nil || !strings.Contains(err.Error(), "500000") {
		t.Errorf("1.2·10^6 runs by replicates: %v", err)
	}
}

// TestFolderDoesNotHideSpec is issue 14 item 8: a folder named like a bundled spec (for
// instance the results of an earlier run in the working directory) does not hide the spec;
// a regular file of that name still wins.
func TestFolderDoesNotHideSpec(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("tiny", 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := experiments.Load("tiny", bundled)
	if err != nil || s.Name != "tiny" {
		t.Fatalf("Load(tiny) beside a folder tiny: %v", err)
	}
	if err := os.WriteFile("quickstart", []byte(strings.Replace(hookSpec, `name = "hook"`, `name = "mine"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := experiments.Load("quickstart", bundled); err != nil || s.Name != "mine" {
		t.Errorf("a file named quickstart: %v", err)
	}
	if _, err := experiments.Load("./tiny", bundled); err == nil {
		t.Error("./tiny, a folder, loaded as a spec")
	}
}

// TestMergeRefuses is issue 14 item 4: merge takes the run lock of --out and refuses a folder
// that holds another experiment's results unless fresh is set.
func TestMergeRefuses(t *testing.T) {
	tmp := t.TempDir()
	ctx := context.Background()
	s := tiny(t)
	var shards []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(tmp, "shard"+string(rune('0'+i)))
		if _, err := experiments.Execute(ctx, s, experiments.Options{Out: dir, Workers: 2, Shard: experiments.Shard{I: i, N: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	other, err := experiments.Parse([]byte(hookSpec), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	otherDir := filepath.Join(tmp, "other")
	if _, err := experiments.Execute(ctx, other, experiments.Options{Out: otherDir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(otherDir, resultsdir.RunsFile))
	err = experiments.Merge(otherDir, shards, false)
	if err == nil || !strings.Contains(err.Error(), `spec "hook"`) || !strings.Contains(err.Error(), "--fresh") {
		t.Fatalf("merge into another experiment's folder: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(otherDir, resultsdir.RunsFile)); string(after) != string(before) {
		t.Fatal("the refused merge changed the folder")
	}
	if err := experiments.Merge(otherDir, shards, true); err != nil {
		t.Fatalf("--fresh: %v", err)
	}
	// Merging again into the same experiment's folder is fine.
	if err := experiments.Merge(otherDir, shards, false); err != nil {
		t.Fatalf("re-merge: %v", err)
	}
	// A folder in use by a run is refused: hold its lock as a running Execute would.
	busy := filepath.Join(tmp, "busy")
	release := experiments.HoldLockForTest(t, busy)
	if err := experiments.Merge(busy, shards, false); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("merge into a locked folder: %v", err)
	}
	release()
}
