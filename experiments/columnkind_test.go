package experiments

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	_ "github.com/sdcbench/sdcbench/methods/categorical"
	_ "github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestMeasuresOnlyWhereTheyApply: PRAM of a categorical column leaves the numeric measures
// il1s and dld empty, with the reason in the row, and measures pram_changed; a numeric release
// is measured as metrics.Evaluate measures it (docs/metrics.md §0.6).
func TestMeasuresOnlyWhereTheyApply(t *testing.T) {
	spec := `name = "kinds"
seed = 1
replicates = 1
datasets = [{name = "testdata", label = "roof", columns = ["roof"], keep = ["urbrur"]},
            {name = "testdata", label = "income", columns = ["expend", "income", "savings"]}]
metrics = ["il1s", "dld", "pram_changed"]
[[methods]]
name = "pram"
datasets = ["roof"]
[methods.grid]
pd = 0.75
[[methods]]
name = "mdav"
datasets = ["income"]
[methods.grid]
k = 3
`
	s, err := Parse([]byte(spec), "kinds.toml")
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
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	for _, row := range tab.Rows {
		cell := func(c string) string { return row[tab.Col(c)] }
		if cell("status") != StatusOK {
			t.Fatalf("%s: status %s %s", cell("method"), cell("status"), cell("error"))
		}
		switch cell("method") {
		case "pram":
			if cell("il1s") != "" || cell("dld") != "" {
				t.Errorf("pram of roof: il1s %q, dld %q, want empty cells", cell("il1s"), cell("dld"))
			}
			want := "il1s measures numeric columns; roof is categorical; dld measures numeric columns; roof is categorical"
			if cell("error") != want {
				t.Errorf("pram of roof: note %q, want %q", cell("error"), want)
			}
			if v, err := strconv.ParseFloat(cell("pram_changed"), 64); err != nil || !(v > 0) {
				t.Errorf("pram of roof: pram_changed %q, want a positive count", cell("pram_changed"))
			}
		case "mdav":
			want := "pram_changed measures categorical columns; expend, income, savings are numeric"
			if cell("error") != want || cell("pram_changed") != "" {
				t.Errorf("mdav: note %q, pram_changed %q; want note %q and an empty pram_changed", cell("error"), cell("pram_changed"), want)
			}
			// the release is deterministic: measure it again outside the runner
			pr, err := s.Prepared("income", "mdav")
			if err != nil {
				t.Fatal(err)
			}
			rel, _, err := pr.Protect(context.Background(), s.runs[1].method, s.runs[1].Params, nil)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := metrics.Evaluate(pr.Protected, rel.Masked, "il1s", "dld")
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"il1s", "dld"} {
				got, _ := strconv.ParseFloat(cell(id), 64)
				if got != vals[id] || math.IsNaN(got) {
					t.Errorf("mdav: %s = %s, want %v", id, cell(id), vals[id])
				}
			}
		}
	}
}
