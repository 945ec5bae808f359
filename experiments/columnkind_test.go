package experiments

import (
	"context"
	"math"
	"strconv"
	"strings"
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

// TestOriginals: the unprotected original measured from a results folder's manifest: loss 0,
// its linkage risk, measures that do not apply empty with their note; a dataset that changed
// since the runs is not measured.
func TestOriginals(t *testing.T) {
	spec := `name = "orig"
seed = 1
replicates = 1
datasets = [{name = "testdata", label = "roof", columns = ["roof"], keep = ["urbrur"], keys = ["urbrur", "roof"]},
            {name = "testdata", label = "income", columns = ["expend", "income", "savings"]}]
metrics = ["il1s", "sse_sst", "pram_changed", "kanon_viol_2"]
[[methods]]
name = "mdav"
datasets = ["income"]
`
	s, err := Parse([]byte(spec), "orig.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.MetricColumns(); strings.Join(got, ",") != "il1s,sse_sst,pram_changed,pram_changed_pct,kanon_viol_2,kanon_viol_2_pct" {
		t.Errorf("MetricColumns = %v", got)
	}
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, Options{Out: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	man, err := resultsdir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	origs, notes, err := Originals(dir, man)
	if err != nil || len(notes) > 0 {
		t.Fatalf("Originals: %v, notes %v", err, notes)
	}
	// kanon_viol_2: records unique on the keys (default: every released column)
	singles := func(label string, keys ...string) (string, string) {
		d, _ := s.Dataset(label)
		count := map[string]int{}
		keyOf := func(i int) string {
			var k string
			for _, c := range keys {
				k += strconv.FormatFloat(d.At(i, d.ColIndex(c)), 'g', -1, 64) + " "
			}
			return k
		}
		for i := 0; i < d.N; i++ {
			count[keyOf(i)]++
		}
		n := 0
		for i := 0; i < d.N; i++ {
			if count[keyOf(i)] == 1 {
				n++
			}
		}
		return strconv.Itoa(n), formatFloat(100 * float64(n) / float64(d.N))
	}
	rn, rp := singles("roof", "urbrur", "roof")
	in, ip := singles("income", "expend", "income", "savings")
	want := []Original{
		{Dataset: "roof", Values: []string{"", "", "0", "0", rn, rp},
			Note: "il1s measures numeric columns; roof is categorical; sse_sst measures numeric columns; roof is categorical"},
		{Dataset: "income", Values: []string{"0", "0", "", "", in, ip},
			Note: "pram_changed measures categorical columns; expend, income, savings are numeric"},
	}
	if len(origs) != len(want) {
		t.Fatalf("%d originals, want %d", len(origs), len(want))
	}
	for i, o := range origs {
		if o.Dataset != want[i].Dataset || strings.Join(o.Values, ",") != strings.Join(want[i].Values, ",") || o.Note != want[i].Note || o.Err != "" {
			t.Errorf("original %d = %+v, want %+v", i, o, want[i])
		}
	}
	man.DatasetHashes["income"] = "changed"
	origs, _, err = Originals(dir, man)
	if err != nil || origs[1].Err == "" || origs[1].Values != nil {
		t.Errorf("a changed dataset: %+v, %v; want an Err and no values", origs[1], err)
	}
}

// TestOriginalWithSelectionOptions: with a [[methods]] entry's selection option (an extra
// param_sel_* column in runs.csv), the original's values still line up with the metric columns:
// loss 0, identity risk 100 %.
func TestOriginalWithSelectionOptions(t *testing.T) {
	spec := `name = "origsel"
seed = 1
replicates = 1
datasets = [{name = "testdata", label = "income", columns = ["expend", "income", "savings"], keep = ["urbrur"]}]
metrics = ["il1s", "sse_sst", "interval_disclosure"]
[[methods]]
name = "mdav"
[[methods]]
name = "mdav"
strata = "urbrur"
`
	s, err := Parse([]byte(spec), "origsel.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.MetricColumns(), ","); got != "il1s,sse_sst,interval_disclosure" {
		t.Fatalf("MetricColumns = %s", got)
	}
	o, err := s.EvaluateOriginal("income")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0", "0", "100"}; strings.Join(o.Values, ",") != strings.Join(want, ",") {
		t.Errorf("original values %v, want %v", o.Values, want)
	}
}
