package experiments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
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
