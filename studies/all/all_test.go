package all_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/studies"
	_ "github.com/sdcbench/sdcbench/studies/all"
)

// TestStudies checks every registered study's folder: a README.md; at least one spec; every
// spec parses against the registered datasets, methods and metrics and is named as its file;
// every *.notes.md belongs to one of the folder's specs. (A <spec>.expected.csv is the
// analysis's; other *.expected.csv files are tables that the study's report reads.)
func TestStudies(t *testing.T) {
	all := studies.All()
	if len(all) < 10 {
		t.Fatalf("%d studies registered, want every folder of studies/", len(all))
	}
	for _, st := range all {
		if st.Citation == "" {
			t.Errorf("%s: no citation", st.Name)
		}
		if _, err := fs.Stat(st.Files, "README.md"); err != nil {
			t.Errorf("%s: %v", st.Name, err)
		}
		exps := st.Experiments()
		if len(exps) == 0 {
			t.Errorf("%s: no spec", st.Name)
		}
		for _, e := range exps {
			text, err := fs.ReadFile(st.Files, e+".toml")
			if err != nil {
				t.Fatal(err)
			}
			s, err := experiments.Parse(text, st.Name+"/"+e+".toml")
			if err != nil {
				t.Errorf("%s: %v", st.Name, err)
				continue
			}
			if s.Name != e {
				t.Errorf("%s/%s.toml: name = %q, want the file's name", st.Name, e, s.Name)
			}
			if got, ok := studies.For(e); !ok || got.Name != st.Name {
				t.Errorf("For(%s) = %s, want %s", e, got.Name, st.Name)
			}
		}
		notes, _ := fs.Glob(st.Files, "*.notes.md")
		for _, f := range notes {
			if e := strings.TrimSuffix(f, ".notes.md"); !slices.Contains(exps, e) {
				t.Errorf("%s/%s: no spec %s.toml beside it", st.Name, f, e)
			}
		}
	}
}

// TestBundled: the bundled file system serves every study's specs, and experiments.Load finds
// them by name.
func TestBundled(t *testing.T) {
	b := studies.Bundled()
	var want []string
	for _, st := range studies.All() {
		want = append(want, st.Experiments()...)
	}
	slices.Sort(want)
	if got := experiments.BundledNames(b); !slices.Equal(got, want) {
		t.Errorf("BundledNames = %v, want %v", got, want)
	}
	for _, name := range []string{"quickstart", "tiny"} {
		if _, err := experiments.Load(name, b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := fs.ReadFile(b, "microagg-classics.expected.csv"); err != nil {
		t.Error(err)
	}
	if _, err := fs.ReadFile(b, "magga-final.notes.md"); err != nil {
		t.Error(err)
	}
}
