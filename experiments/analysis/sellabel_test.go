package analysis

import (
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestSelectionOptionLabels: a [[methods]] entry's selection options (param_sel_*) name the
// variant even when one value occurs, so the stratified mdav is not a second "mdav k=3".
func TestSelectionOptionLabels(t *testing.T) {
	tab := &resultsdir.Table{
		Header: []string{"run_id", "dataset", "method", "param_k", "param_pd", "param_sel_strata", "param_sel_columns",
			"replicate", "seed", "sse_sst", "dld", "seconds", "status", "error"},
		Rows: [][]string{
			{"a", "d", "mdav", "3", "", "", "", "1", "1", "1.5", "30", "0.1", "ok", ""},
			{"b", "d", "mdav", "3", "", "region", "", "1", "2", "2.5", "20", "0.1", "ok", ""},
			{"c", "d", "pram", "", "0.8", "", "sex", "1", "3", "9", "5", "0.1", "ok", ""},
			{"e", "d", "pram", "", "0.8", "", "sex", "2", "4", "8", "6", "0.1", "ok", ""},
		},
	}
	runs, err := fromTable(tab, "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Config{}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mdav", "mdav sel_strata=region", "pram sel_columns=sex"}; !slices.Equal(p.Configs, want) {
		t.Errorf("labels %q, want %q", p.Configs, want)
	}
}
