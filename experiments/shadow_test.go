package experiments_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

const membershipSpec = `
name = "membership-test"
seed = 5
datasets = ["census"]
metrics = ["membership"]
holdout = 0.5
[metric_options]
attacks = 200
mia_shadows = 2
mia_fpr = 0.05
[[methods]]
name = "noise_additive"
grid = {noise_pct = [1, 200]}
`

// TestMembershipShadows: the runner makes the membership attack's shadow releases by running
// the method on held-out rows; a release with 1% noise gives its records away, one with
// 200% noise much less; the results do not depend on the number of workers.
func TestMembershipShadows(t *testing.T) {
	s, err := experiments.Parse([]byte(membershipSpec), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	var rows [2][]string
	var dir string
	for i, workers := range []int{1, 2} {
		dir = t.TempDir()
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: workers}); err != nil {
			t.Fatal(err)
		}
		rows[i] = rowsNoTiming(t, dir)
	}
	if strings.Join(rows[0], "\n") != strings.Join(rows[1], "\n") {
		t.Fatalf("results depend on the number of workers:\n%v\n%v", rows[0], rows[1])
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	tpr := map[string]float64{}
	for _, r := range tab.Rows {
		get := func(col string) float64 {
			v, err := strconv.ParseFloat(r[tab.Col(col)], 64)
			if err != nil {
				t.Fatalf("%s = %q: %v (error %q)", col, r[tab.Col(col)], err, r[tab.Col("error")])
			}
			return v
		}
		if get("membership_shadows") != 2 || get("membership_n_members") != 200 {
			t.Errorf("shadows %v, members %v: want 2 and 200", get("membership_shadows"), get("membership_n_members"))
		}
		tpr[r[tab.Col("param_noise_pct")]] = get("membership")
	}
	t.Logf("TPR at 5%% FPR: %v", tpr)
	if !(tpr["1"] > 0.9 && tpr["200"] < 0.5) {
		t.Errorf("TPR at 5%% FPR: noise 1%% %v, 200%% %v: want > 0.9 and < 0.5", tpr["1"], tpr["200"])
	}
}

// TestMembershipShadowsSplit: a method that finds its dataset's X/Y split by name (IPSO)
// makes its shadow releases too: the shadow rows keep the dataset's name.
func TestMembershipShadowsSplit(t *testing.T) {
	spec := strings.NewReplacer(`"census"`, `"census_s1"`, `name = "noise_additive"
grid = {noise_pct = [1, 200]}`, `name = "ipso_a"`).Replace(membershipSpec)
	s, err := experiments.Parse([]byte(spec), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if v := r[tab.Col("membership_shadows")]; v != "2" {
			t.Errorf("%s: membership_shadows %q, want 2 (membership %q)", r[tab.Col("method")], v, r[tab.Col("membership")])
		}
	}
}
