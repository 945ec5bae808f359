package dp

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestScenarioDatasets checks the scenario set against the registration it replaced (each
// scenario registered by name at start-up): every scenario listed once with the same Info,
// loaded under its name with the data of BinaryDataset or CategoricalDataset, and no other
// name a member.
func TestScenarioDatasets(t *testing.T) {
	want := map[string]datasets.Info{}
	data := map[string]*datasets.Dataset{}
	for _, s := range binaryScenarios {
		n, x := s[0], s[1]
		name := fmt.Sprintf("dp_bin_n%d_x%d", n, x)
		want[name] = datasets.Info{Name: name, Source: "substitute",
			Description: fmt.Sprintf("DP study binary scenario: n = %d records, x = %d ones (p = %g)", n, x, float64(x)/float64(n))}
		data[name] = BinaryDataset(name, n, x)
	}
	for _, s := range catScenarios {
		x, err := CountsFromProportions(s.p, s.n)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		names := make([]string, len(x))
		for i := range names {
			names[i] = fmt.Sprintf("c%d", i+1)
		}
		want[s.name] = datasets.Info{Name: s.name, Source: "substitute",
			Description: fmt.Sprintf("DP study categorical scenario (%s): n = %d, C = %d, p = %v, one-hot", s.desc, s.n, len(x), s.p)}
		data[s.name] = CategoricalDataset(s.name, names, x)
	}
	want["susep_collisions"] = datasets.Info{Name: "susep_collisions", Source: "original",
		Description: "SUSEP AutoSeg collisions 2015 (DP study Table 4.1): n = 107 records, 8 sex × age cells, one-hot"}
	data["susep_collisions"] = CategoricalDataset("susep_collisions", SUSEPCells(), SUSEPCounts())

	count := map[string]int{}
	for _, in := range datasets.List() {
		count[in.Name]++
		if w, ok := want[in.Name]; ok && !reflect.DeepEqual(in, w) {
			t.Errorf("listed %+v, want %+v", in, w)
		}
	}
	if len(scenarioNames()) != len(want) {
		t.Errorf("%d scenario names, want %d", len(scenarioNames()), len(want))
	}
	for name := range want {
		if count[name] != 1 {
			t.Errorf("%s listed %d times", name, count[name])
		}
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		w := data[name]
		if d.Name != name || d.N != w.N || d.P != w.P || !reflect.DeepEqual(d.Data, w.Data) || !reflect.DeepEqual(d.Names, w.Names) {
			t.Errorf("%s: loaded %s %d×%d, want the scenario's table", name, d.Name, d.N, d.P)
		}
	}
	for _, name := range []string{"dp_bin_n100_x31", "dp_cat4_n101", "census", ""} {
		if _, _, ok := scenarioDataset(name); ok {
			t.Errorf("scenarioDataset(%q) is a scenario", name)
		}
	}
}
