package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReanalysis: a previous table in which one pair was significant gives a reanalysis.md that
// lists that pair as lost, with both p-values and sizes.
func TestReanalysis(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Plots = Bool(false)
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	// Pretend the previous analysis found mdav k=3 vs mdav k=5 significant on 6 pairs.
	w := filepath.Join(dir, "wilcoxon.csv")
	data, _ := os.ReadFile(w)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "sse_sst,mdav k=3,mdav k=5,") {
			f := strings.Split(l, ",")
			f[5], f[10], f[11] = "6", "0.03125", "0.1875"
			lines[i] = strings.Join(f, ",")
		}
	}
	os.WriteFile(w, []byte(strings.Join(lines, "\n")), 0o644)
	prev, err := ReadPrevious(dir)
	if err != nil || prev == nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WriteReanalysis(dir, prev); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "reanalysis.md"))
	for _, want := range []string{
		"| sse_sst | 6 | 3 → 3 | 1 → 0 | 0 → 0 |",
		"Pairs significant before and not now: 1.",
		"| sse_sst | mdav k=3 | mdav k=5 | 0.03125 (n=6) | 0.25 (n=3) |",
		"Pairs not significant before and significant now: none.",
		"too few blocks to ever reach p < 0.05",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("reanalysis.md lacks %q:\n%s", want, got)
		}
	}
}
