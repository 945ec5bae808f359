package experiments

import (
	"context"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	_ "github.com/sdcbench/sdcbench/methods/perturb"
)

// TestProtectedColumnsMeasured: a method that passes predictors through (Release.Columns) is
// measured on its protected columns only.
func TestProtectedColumnsMeasured(t *testing.T) {
	spec := `name = "protected"
seed = 1
replicates = 1
datasets = [{name = "census", columns = ["AFNLWGT", "AGI", "EMCONTRB", "FEDTAX"]}]
metrics = ["marg_kept"]
[[methods]]
name = "shuffle_ds"
[methods.grid]
preds = "FEDTAX"
[[methods]]
name = "revmap(noise_additive)"
`
	s, err := Parse([]byte(spec), "protected.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, Options{Out: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"shuffle_ds": "3", "revmap(noise_additive)": "4"}
	for _, row := range tab.Rows {
		m := row[tab.Col("method")]
		if got := row[tab.Col("marg_kept")]; got != want[m] || row[tab.Col("status")] != StatusOK {
			t.Errorf("%s: marg_kept %s (status %s %s), want %s", m, got, row[tab.Col("status")], row[tab.Col("error")], want[m])
		}
	}
}
