package perturbative_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/studies/perturbative"
)

// TestCategoricalReport runs the study's spec with 8 PRAM replicates instead of 100 and checks that
// every exact target holds and the PRAM and sdcMicro sections report agreement.
func TestCategoricalReport(t *testing.T) {
	b, err := os.ReadFile("perturbative-categorical.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := experiments.Parse([]byte(strings.ReplaceAll(string(b), "replicates = 100", "replicates = 8")), "pc.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	c, err := perturbative.Report(&out, tab)
	if err != nil {
		t.Fatal(err)
	}
	if c.Fail != 0 || c.Missing != 0 || c.Exact+c.Within != len(perturbative.Targets())+1 {
		t.Errorf("verdicts %+v for %d targets\n%s", c, len(perturbative.Targets())+1, out.String())
	}
	words := map[string]int{}
	for _, v := range c.Rows {
		words[v.Verdict]++
	}
	// 38 exact checks (section 1) + 3 sdcMicro exact; PRAM: 2 checks + 2 comparisons; 11 study numbers.
	if words[perturbative.Exact] != len(perturbative.Targets())+1+3 || words[perturbative.Tolerance] != 4 ||
		words[perturbative.NotPossible] != len(perturbative.Categorical()) || words[perturbative.NotReproduced] != 0 {
		t.Errorf("verdict words %v", words)
	}
	for _, w := range []string{"same records", "agrees to 2.2e-16", "not reproducible (confidential data)", "agrees (\\|z\\| ≤ 4)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("report lacks %q", w)
		}
	}
	if strings.Contains(out.String(), "**fails**") || strings.Contains(out.String(), "**differs**") {
		t.Errorf("a PRAM check fails:\n%s", out.String())
	}
}
