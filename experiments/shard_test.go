package experiments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// TestShardsBeyondRuns: run --shard i/n with n above the grid's number of runs is refused,
// naming the number of runs (it was accepted and ran nothing); n equal to the runs is fine.
func TestShardsBeyondRuns(t *testing.T) {
	s, err := experiments.Parse([]byte(strings.Replace(hookSpec, "replicates = 10", "replicates = 1", 1)), "hook.toml")
	if err != nil {
		t.Fatal(err)
	}
	runs := len(s.Expand()) // 2 datasets × 2 values of x
	for _, c := range []struct {
		shard experiments.Shard
		ok    bool
	}{
		{experiments.Shard{I: 1, N: runs + 1}, false},
		{experiments.Shard{I: 3, N: 100000000}, false},
		{experiments.Shard{I: 2, N: runs}, true},
	} {
		_, err := experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir(), Workers: 1, Shard: c.shard})
		if c.ok && err != nil {
			t.Errorf("--shard %v: %v", c.shard, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "the 4 runs")) {
			t.Errorf("--shard %v: err = %v, want a refusal naming the 4 runs", c.shard, err)
		}
	}
}

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
