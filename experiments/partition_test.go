package experiments_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
)

// badGroups is a test method that claims to partition with a minimum group size k but returns
// groups of the size set by its parameter size (the last group takes the remainder).
type badGroups struct{}

func (badGroups) Info() methods.Info {
	return methods.Info{Name: "test_badgroups", Description: "partition with groups of a given size", Partitions: true,
		BoundedGroups: true, Params: []methods.ParamSpec{
			{Name: "k", Kind: methods.Int, Default: "3"}, {Name: "size", Kind: methods.Int, Default: "3"}}}
}

func (badGroups) Protect(_ context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	size := p.Int("size")
	labels := make([]int32, d.N)
	for i := range labels {
		labels[i] = int32(min(i/size, d.N/size-1))
	}
	return &methods.Release{Masked: d.Clone(), Labels: labels}, nil
}

func init() { methods.Register(badGroups{}) }

// TestPartitionChecked: groups below k or above 2k−1 fail the run with a clear error; a valid
// partition passes.
func TestPartitionChecked(t *testing.T) {
	spec := `name = "groups"
seed = 1
datasets = ["iris"]
metrics = ["sse_sst"]
[[methods]]
name = "test_badgroups"
[methods.grid]
size = [2, 3, 6]
`
	s, err := experiments.Parse([]byte(spec), "groups.toml")
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
	want := map[string]string{"2": "fewer than k = 3", "3": "", "6": "more than 2k−1 = 5"}
	sizeCol, st, msg := tab.Col("param_size"), tab.Col("status"), tab.Col("error")
	for _, r := range tab.Rows {
		w := want[r[sizeCol]]
		if w == "" && r[st] != "ok" || w != "" && (r[st] == "ok" || !strings.Contains(r[msg], w)) {
			t.Errorf("size %s: status %s error %q, want %q", r[sizeCol], r[st], r[msg], w)
		}
	}
}
