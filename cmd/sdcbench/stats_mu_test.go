package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatsWilcoxonMu: `stats wilcoxon --mu V` is R's wilcox.test(x, mu = V): ten replicates of
// 0.846 against a deterministic 0.0091 give V = 55 and p = 0.0019041950430043902 (ties: the
// normal approximation), with the rank-biserial r = 1; --mu and --paired exclude each other.
func TestStatsWilcoxonMu(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.csv"), []byte("x\n"+strings.Repeat("0.846\n", 10)), 0o644)
	out, e, code := sdcbench(t, dir, "stats", "wilcoxon", "--mu", "0.0091", "--conf-int", "x.csv")
	if code != 0 {
		t.Fatalf("stats wilcoxon --mu: %s", e)
	}
	var res struct {
		Statistic float64 `json:"statistic"`
		PValue    float64 `json:"p_value"`
		R         float64 `json:"r"`
		Estimate  float64 `json:"estimate"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Statistic != 55 || math.Abs(res.PValue-0.0019041950430043902) > 1e-15 || res.R != 1 || res.Estimate != 0.846 {
		t.Fatalf("got %+v", res)
	}
	if _, e, code := sdcbench(t, dir, "stats", "wilcoxon", "--mu", "1", "--paired", "x.csv"); code == 0 || !strings.Contains(e, "exclude") {
		t.Errorf("--mu with --paired: exit %d %q", code, e)
	}
}
