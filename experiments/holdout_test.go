package experiments_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

const holdoutSpec = `
name = "holdout-test"
seed = 3
datasets = ["census"]
metrics = ["sse_sst", "inference", "linkability", "singling_out"]
holdout = %s
[metric_options]
aux = ["FICA", "FEDTAX"]
secret = "PTOTVAL"
attacks = 100
[[methods]]
name = "mdav"
grid = {k = [3, 10]}
`

// TestHoldout: a run protects 80% of census, the attacks see the other 20% as their control
// set, and the results do not depend on the number of workers.
func TestHoldout(t *testing.T) {
	s, err := experiments.Parse([]byte(strings.Replace(holdoutSpec, "%s", "0.2", 1)), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	var rows [2][]string
	for i, workers := range []int{1, 2} {
		dir := t.TempDir()
		if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: workers}); err != nil {
			t.Fatal(err)
		}
		rows[i] = rowsNoTiming(t, dir)
	}
	if strings.Join(rows[0], "\n") != strings.Join(rows[1], "\n") {
		t.Fatalf("results depend on the number of workers:\n%v\n%v", rows[0], rows[1])
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) []string {
		j := tab.Col(name)
		var out []string
		for _, r := range tab.Rows {
			out = append(out, r[j])
		}
		return out
	}
	n, ctl, inf := col("inference_n_attacks"), col("inference_control"), col("inference")
	for i := range n {
		// 216 held-out rows of 1080: 100 attacks, and a control rate.
		if n[i] != "100" || ctl[i] == "NaN" || ctl[i] == "" {
			t.Errorf("row %d: inference_n_attacks %q, inference_control %q", i, n[i], ctl[i])
		}
	}
	for _, v := range inf {
		if r, err := strconv.ParseFloat(v, 64); err != nil || !(r > -1 && r < 1) {
			t.Errorf("inference risk %q outside (−1, 1)", v)
		}
	}
}

func TestHoldoutBadSpec(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{strings.Replace(holdoutSpec, "%s", "0.7", 1), "holdout: must be in (0, 0.5]"},
		{strings.Replace(holdoutSpec, "%s", "0", 1), "holdout: must be in (0, 0.5]"},
		{strings.Replace(strings.Replace(holdoutSpec, "holdout = %s\n", "", 1), `"singling_out"]`, `"singling_out", "membership"]`, 1), "membership needs held-out records"},
		{strings.Replace(strings.Replace(holdoutSpec, "%s", "0.2", 1), `aux = ["FICA", "FEDTAX"]`, "", 1), "needs the attacker's auxiliary columns"},
		{strings.Replace(strings.Replace(holdoutSpec, "%s", "0.2", 1), `"FEDTAX"`, `"NOPE"`, 1), `no column "NOPE"`},
		{strings.Replace(strings.Replace(holdoutSpec, "%s", "0.2", 1), `attacks = 100`, `attacks = 0`, 1), "metric_options.attacks"},
	} {
		_, err := experiments.Parse([]byte(c.spec), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("error %v, want one line containing %q", err, c.want)
		}
	}
}
