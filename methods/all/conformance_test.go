package all_test

import (
	"path/filepath"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/methods/methodtest"
)

// candidates returns the small datasets the conformance checks try, in order: the first 60
// census records (small), two DP tables, testdata's first 300 records with five of its keys as
// categories (the categorical methods), and census_s1 (the synthesizers need a registered X/Y
// split).
func candidates(t *testing.T) (small *datasets.Dataset, all []*datasets.Dataset) {
	t.Helper()
	census, err := datasets.Load("census")
	if err != nil {
		t.Fatal(err)
	}
	small = datasets.New("census60", census.Names, 60, census.P, census.Data[:60*census.P])
	all = append(all, small)
	for _, name := range []string{"dp_bin_n100_x30", "dp_cat4_n100"} {
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, d)
	}
	td, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"urbrur", "roof", "walls", "water", "sex"}
	tdk, err := td.Select(keys)
	if err != nil {
		t.Fatal(err)
	}
	tdk = datasets.New("testdata300", tdk.Names, 300, tdk.P, tdk.Data[:300*tdk.P])
	if tdk, err = tdk.Categorize(keys); err != nil {
		t.Fatal(err)
	}
	all = append(all, tdk)
	s1, err := datasets.Load("census_s1")
	if err != nil {
		t.Fatal(err)
	}
	return small, append(all, s1)
}

// TestConformance runs methodtest.Check on every registered method, on the first of a few
// small datasets it accepts: a new method is checked without editing this test.
func TestConformance(t *testing.T) {
	small, candidates := candidates(t)
	// external reads its release from a file: give it one (the dataset itself).
	dir := t.TempDir()
	if err := datasets.WriteFile(filepath.Join(dir, "census60.csv"), small); err != nil {
		t.Fatal(err)
	}
	// Every other method runs with the parameters its Info.Example declares (defaults when nil).
	example := map[string]map[string]string{"external": {"pattern": filepath.Join(dir, "{dataset}.csv")}}
	for _, in := range methods.List() {
		if in.Name == "test_hook" {
			continue
		}
		m, _ := methods.Lookup(in.Name)
		raw := in.Example
		if e, ok := example[in.Name]; ok {
			raw = e
		}
		t.Run(in.Name, func(t *testing.T) {
			p, err := in.Resolve(raw)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range candidates {
				if v, ok := m.(methods.Validator); ok && v.Validate(d, p) != nil {
					continue
				}
				methodtest.Check(t, m, raw, d)
				return
			}
			t.Errorf("no conformance dataset is accepted by %s: add one to this test", in.Name)
		})
	}
}
