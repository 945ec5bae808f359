package perturbative

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/perturb"
)

// TestAnalyticReportSmall runs a small analytic experiment end to end and checks that the
// report's verdicts hold for the exact (non-eigen) expectations.
func TestAnalyticReportSmall(t *testing.T) {
	spec := `name = "perturbative-analytic"
seed = 5
replicates = 8
datasets = [{name = "testdata", columns = ["income", "expend", "savings"]}]
metrics = ["interval_disclosure", "il1s_sum_sdc", "mse", "mae"]
[[methods]]
name = "noise_additive"
[methods.grid]
noise_pct = 5
[[methods]]
name = "restrict(noise_additive)"
[methods.grid]
noise_pct = 5
[[methods]]
name = "noise_correlated2"
`
	s, err := experiments.Parse([]byte(spec), "small.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	vs, err := WriteVerdicts(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Nine analytic checks, all of a formula (reference); the study's items that cannot be
	// reproduced are judged in perturbative-table28's folder, not here.
	count := map[string]int{}
	for _, v := range vs {
		count[v.Verdict]++
		if !v.Ref || v.Table != "analytic expectations" || v.Item == "" {
			t.Errorf("verdict %+v, want a reference verdict of the analytic expectations", v)
		}
	}
	if count["within tolerance"] != 9 || len(vs) != 9 {
		t.Errorf("verdicts %v, want 9 within tolerance", count)
	}
	b, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	rep := string(b)
	if !strings.Contains(rep, "**9 of 9 checks reproduced**") {
		i := strings.Index(rep, "checks reproduced")
		t.Errorf("report verdict line: %q", rep[max(0, i-20):min(len(rep), i+20)])
	}
	if strings.Contains(rep, "sampling correlations") || strings.Contains(rep, "Misses (") {
		t.Error("report prints a miss or its reason though every check holds")
	}
	for _, want := range []string{"## Not reproducible", "Morais (2022)", "restrict(noise_additive)", "judged once, in the verdicts of perturbative-table28"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
