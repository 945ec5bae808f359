package dp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

// TestVerdictKinds checks that checks of published constants (seedBand) are counted apart from
// the verdicts of our runs (band, check).
func TestVerdictKinds(t *testing.T) {
	r := &report{}
	r.seedBand(0.31, 0.30, 0.02, false) // seed vs spec: within
	r.seedBand(0.50, 0.30, 0.02, true)  // seed vs spec: predicted miss
	r.bandRef("x", 0.305, 0.30, 0.02)   // ours: within
	r.check("y", true)                  // ours: pattern
	r.constVerdict("exact")
	if r.verdicts["within tolerance"] != 1 || r.verdicts["pattern"] != 1 || len(r.verdicts) != 2 {
		t.Errorf("run verdicts %v, want within tolerance 1, pattern 1", r.verdicts)
	}
	if r.constVerdicts["within tolerance"] != 1 || r.constVerdicts["expected miss confirmed"] != 1 || r.constVerdicts["exact"] != 1 {
		t.Errorf("published-constant verdicts %v", r.constVerdicts)
	}
}

// TestE10Claims regenerates the E10 report from the committed runs and checks that it makes no
// claim without code behind it (issue 14 item 13) and counts Table 4.2 as published constants.
func TestE10Claims(t *testing.T) {
	src := filepath.Join("..", "..", "results", "dp-e10", "runs.csv")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("no committed dp-e10 runs: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, "dp-e10", nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "DP.md"))
	if err != nil {
		t.Fatal(err)
	}
	rep := string(b)
	for _, bad := range []string{"re-implementation", "Python", "the same as ours"} {
		if strings.Contains(rep, bad) {
			t.Errorf("DP.md claims %q, which no code backs", bad)
		}
	}
	summary := rep[strings.Index(rep, "## Verdict summary"):]
	consts := summary[strings.Index(summary, "Published-constant checks"):]
	if !strings.Contains(consts, "- exact: 8") || strings.Contains(summary[:len(summary)-len(consts)], "- exact:") {
		t.Errorf("Table 4.2's 8 exact cells must be counted as published-constant checks only:\n%s", summary)
	}
}

// TestCommittedVerdicts regenerates every committed dp-eN report into a scratch folder and
// checks that each verdict names its cell or claim, that no (table, item) is counted twice, and
// the counts per source of dp-e2 (issue 24: its 8 ESS cells were counted once per estimator).
func TestCommittedVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the committed dp-eN runs")
	}
	for i := 1; i <= 10; i++ {
		name := "dp-e" + itoa(i)
		src := filepath.Join("..", "..", "results", name)
		dir := t.TempDir()
		found := false
		for _, f := range []string{"runs.csv", "runs.csv.gz"} {
			data, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
			found = true
		}
		if !found {
			t.Logf("%s: no committed runs", name)
			continue
		}
		var tally studies.Tally
		if err := Write(dir, name, &tally); err != nil {
			t.Fatal(err)
		}
		seen := map[[2]string]bool{}
		src2 := map[resultsdir.Source]int{}
		for _, v := range tally.Rows() {
			if v.Item == "" {
				t.Errorf("%s: %s: a verdict without an item", name, v.Table)
			}
			k := [2]string{v.Table, v.Item}
			if seen[k] {
				t.Errorf("%s: %s / %s counted twice", name, v.Table, v.Item)
			}
			seen[k] = true
			src2[v.Source]++
		}
		if name == "dp-e2" && (src2[resultsdir.SourceReference] != 24 || src2[resultsdir.SourceStudy] != 11) {
			t.Errorf("dp-e2: %v verdicts per source, want 24 reference (Tables 3.1-3.2 against the spec) and 11 study (8 ESS cells, 3 claims)", src2)
		}
	}
}
