package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAnalyzeBaseline runs the tiny grid into two folders and compares the second against the
// first without re-running it; then it checks the refusals: a changed metric version, a changed
// dataset, and a folder without versions.
func TestAnalyzeBaseline(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{"old", "new"} {
		if _, e, code := sdcbench(t, dir, "run", "--quiet", "--out", out, "tiny"); code != 0 {
			t.Fatalf("run %s: %s", out, e)
		}
	}
	if _, e, code := sdcbench(t, dir, "analyze", "--quiet", "--no-plots", "--baseline", "old", "new"); code != 0 {
		t.Fatalf("analyze --baseline: %s", e)
	}
	f, err := os.Open(filepath.Join(dir, "new", "baseline-old", "wilcoxon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// 4 new × 4 old configurations × 3 metrics, each pairing new with old on the 2 datasets.
	if len(recs) != 1+4*4*3 {
		t.Fatalf("%d test rows, want 48", len(recs)-1)
	}
	h := recs[0]
	col := func(name string) int {
		for j, c := range h {
			if c == name {
				return j
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	a, b, n, p := col("config_a"), col("config_b"), col("n_b"), col("p_value")
	sameCfg := 0
	for _, r := range recs[1:] {
		if strings.Contains(r[a], "from=old") == strings.Contains(r[b], "from=old") {
			t.Errorf("pair within one folder: %s vs %s", r[a], r[b])
		}
		if r[n] != "2" {
			t.Errorf("%s vs %s: %s pairs, want the 2 shared datasets", r[a], r[b], r[n])
		}
		// Identical runs (same seed, same code): the same configuration does not differ.
		if strings.TrimSuffix(r[a], " from=old") == strings.TrimSuffix(r[b], " from=new") ||
			strings.TrimSuffix(r[a], " from=new") == strings.TrimSuffix(r[b], " from=old") {
			sameCfg++
			if r[p] != "NaN" && r[p] != "1" {
				t.Errorf("%s vs %s: p = %s on identical runs", r[a], r[b], r[p])
			}
		}
	}
	if sameCfg != 12 {
		t.Errorf("%d same-configuration pairs, want 12", sameCfg)
	}
	if _, err := os.Stat(filepath.Join(dir, "new", "baseline-old", "REPORT.md")); err != nil {
		t.Error(err)
	}

	// Refusals: edit the old manifest.
	manPath := filepath.Join(dir, "old", "manifest.json")
	orig, _ := os.ReadFile(manPath)
	for _, tc := range []struct {
		name, from, to string
		args           []string
		want           []string
	}{
		{"metric version", `"dld": 1`, `"dld": 2`, nil, []string{"metric dld is version 2", "not comparable"}},
		{"dataset hash", `"census": "`, `"census": "00`, nil, []string{"dataset census has content hash", "not comparable"}},
		{"unversioned", `"metric_versions"`, `"old_metric_versions"`, nil, []string{"records no metric versions", "--trust-unversioned"}},
	} {
		text := strings.Replace(string(orig), tc.from, tc.to, 1)
		if text == string(orig) {
			t.Fatalf("%s: %q not in manifest.json", tc.name, tc.from)
		}
		os.WriteFile(manPath, []byte(text), 0o644)
		_, stderr, code := sdcbench(t, dir, "analyze", "--quiet", "--no-plots", "--baseline", "old", "new")
		checkError(t, "baseline with a changed "+tc.name, stderr, code, tc.want)
	}
	// On trust, the unversioned folder is compared.
	if _, e, code := sdcbench(t, dir, "analyze", "--quiet", "--no-plots", "--trust-unversioned", "--baseline", "old", "new"); code != 0 {
		t.Errorf("--trust-unversioned: %s", e)
	}
}

// TestPseudoReplicationEndToEnd is the case of issue 13 run for real: mdav against pca on census
// and tarragona, k ∈ {3, 5}, five replicates. Both methods are deterministic, so the five
// replicates are one run each; the test rests on the 4 (dataset, k) blocks and its exact p-value
// cannot go below 2/2⁴ = 0.125 (the old analysis reported p ≈ 2e-6 from 20 "pairs").
func TestPseudoReplicationEndToEnd(t *testing.T) {
	dir := t.TempDir()
	spec := `name = "pseudo"
seed = 13
replicates = 5
datasets = ["census", "tarragona"]
metrics = ["sse_sst", "dld"]
[[methods]]
name = "mdav"
[methods.grid]
k = [3, 5]
[[methods]]
name = "pca"
[methods.grid]
k = [3, 5]
`
	os.WriteFile(filepath.Join(dir, "pseudo.toml"), []byte(spec), 0o644)
	if _, e, code := sdcbench(t, dir, "run", "--quiet", "--out", "r", "pseudo.toml"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	f, err := os.Open(filepath.Join(dir, "r", "wilcoxon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) < 2 {
		t.Fatalf("wilcoxon.csv: %v", err)
	}
	idx := map[string]int{}
	for j, h := range recs[0] {
		idx[h] = j
	}
	for _, r := range recs[1:] {
		if r[idx["config_a"]] != "mdav" || r[idx["config_b"]] != "pca" {
			t.Fatalf("unexpected pair %v", r)
		}
		p, err := strconv.ParseFloat(r[idx["p_value"]], 64)
		if r[idx["n_b"]] != "4" || err != nil || !(p >= 0.125) {
			t.Errorf("%s: n=%s p=%s, want 4 blocks and p ≥ 0.125", r[idx["metric"]], r[idx["n_b"]], r[idx["p_value"]])
		}
		t.Logf("%s: mdav vs pca n=%s p=%s shift %s [%s, %s]", r[idx["metric"]], r[idx["n_b"]], r[idx["p_value"]],
			r[idx["estimate"]], r[idx["ci_low"]], r[idx["ci_high"]])
	}
}
