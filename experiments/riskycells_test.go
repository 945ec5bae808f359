package experiments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestSpecRiskyCellsOptions: a spec's [metric_options] reach risky_cells (a TOML array of
// thresholds): on testdata's seven keys, released unchanged, the run records sdcMicro
// riskyCells's 5 + 87 + 456 unsafe cells for thresholds 20, 10, 5 (metrics/testdata/perrecord).
func TestSpecRiskyCellsOptions(t *testing.T) {
	spec := `name = "cells"
seed = 1
datasets = [{name = "testdata", columns = ["income"], keep = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"], keys = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]}]
metrics = ["risky_cells"]
[metric_options]
risky_cells_threshold = [20, 10, 5]
risky_cells_max_dim = 3
[[methods]]
name = "test_hook"
`
	s, err := experiments.Parse([]byte(spec), "cells.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tab, err := resultsdir.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"risky_cells": "548", "risky_cells_d1": "5", "risky_cells_d2": "87", "risky_cells_d3": "456"} {
		if got := tab.Rows[0][tab.Col(name)]; got != want {
			t.Errorf("%s = %s, want %s (row %v)", name, got, want, tab.Rows[0])
		}
	}
	if _, err := experiments.Parse([]byte(strings.Replace(spec, "risky_cells_max_dim = 3", "risky_cells_max_dim = 0", 1)), "cells.toml"); err == nil ||
		!strings.Contains(err.Error(), "risky_cells_max_dim") {
		t.Errorf("max_dim 0: %v, want an error naming the option", err)
	}
}
