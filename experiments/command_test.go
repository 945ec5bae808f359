//go:build unix

package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestCommandInGrid: the command method runs in the spec's folder with each run's seed,
// replicate, dataset and grid parameter; its undeclared parameter gets a runs.csv column;
// manifest.json records its version, and a resume under another version is refused.
func TestCommandInGrid(t *testing.T) {
	dir := t.TempDir()
	script := `cp "$1" "$2"; echo "$3 $4 $5 $6" >> calls.txt`
	if err := os.WriteFile(filepath.Join(dir, "m.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := `name = "cmd"
seed = 3
replicates = 2
datasets = ["tarragona"]
metrics = ["il1s"]
[[methods]]
name = "command"
[methods.grid]
cmd = ["sh m.sh {in} {out} {seed} {replicate} {dataset} {digits}"]
digits = [1, 2]
version_cmd = "cat version.txt"
`
	file := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	setVersion := func(v string) {
		if err := os.WriteFile(filepath.Join(dir, "version.txt"), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setVersion("1.0")
	s, err := experiments.Parse([]byte(spec), file)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res")
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(tab.Header, name) }
	if col("param_digits") < 0 {
		t.Fatalf("no param_digits column in %v", tab.Header)
	}
	b, err := os.ReadFile(filepath.Join(dir, "calls.txt"))
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	var want []string
	for _, r := range tab.Rows {
		if r[col("status")] != "ok" || r[col("il1s")] != "0" {
			t.Errorf("run %v: want ok with il1s 0 (a copy)", r)
		}
		want = append(want, r[col("seed")]+" "+r[col("replicate")]+" tarragona "+r[col("param_digits")])
	}
	slices.Sort(calls)
	slices.Sort(want)
	if !slices.Equal(calls, want) {
		t.Errorf("the program saw %q, want %q", calls, want)
	}
	man, err := resultsdir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if v := man.Commands["command sh m.sh {in} {out} {seed} {replicate} {dataset} {digits}"]; v != "1.0" {
		t.Errorf("manifest commands %v", man.Commands)
	}
	// Another version of the program: the folder's rows were made by 1.0.
	setVersion("2.0")
	s2, err := experiments.Parse([]byte(spec), file)
	if err != nil {
		t.Fatal(err)
	}
	_, err = experiments.Execute(context.Background(), s2, experiments.Options{Out: out, Workers: 1})
	if err == nil || !strings.Contains(err.Error(), `version "1.0" vs "2.0"`) {
		t.Errorf("resume under another version: %v", err)
	}
}

// TestExternalPerReplicate: external's pattern takes {replicate} and {seed}, starts at the
// spec's folder, every file read is hashed into manifest.json, and a missing replicate's file
// stops the spec before anything runs.
func TestExternalPerReplicate(t *testing.T) {
	dir := t.TempDir()
	d, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "masked"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rep := 1; rep <= 2; rep++ {
		if err := datasets.WriteFile(filepath.Join(dir, "masked", fmt.Sprintf("tarragona-%d.csv", rep)), d); err != nil {
			t.Fatal(err)
		}
	}
	spec := `name = "ext"
seed = 1
replicates = 2
datasets = ["tarragona"]
metrics = ["il1s"]
[[methods]]
name = "external"
grid = {pattern = "masked/{dataset}-{replicate}.csv"}
`
	file := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := experiments.Parse([]byte(spec), file)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res")
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	man, err := resultsdir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	for rep := 1; rep <= 2; rep++ {
		f := filepath.Join(dir, "masked", fmt.Sprintf("tarragona-%d.csv", rep))
		if man.InputFiles[f] == "" {
			t.Errorf("manifest input files %v lack %s", man.InputFiles, f)
		}
	}
	three := strings.Replace(spec, "replicates = 2", "replicates = 3", 1)
	if _, err := experiments.Parse([]byte(three), file); err == nil || !strings.Contains(err.Error(), "tarragona-3.csv") {
		t.Errorf("a missing replicate file: %v", err)
	}
	bad := strings.Replace(spec, "{replicate}", "{rep}", 1)
	if _, err := experiments.Parse([]byte(bad), file); err == nil || !strings.Contains(err.Error(), "unknown placeholder {rep}") {
		t.Errorf("an unknown placeholder: %v", err)
	}
}
