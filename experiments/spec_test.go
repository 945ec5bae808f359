package experiments_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
)

func TestParseErrors(t *testing.T) {
	base := hookSpec
	for _, c := range []struct {
		name, spec string
		mention    []string
	}{
		{"unknown key", "colour = 1\n" + base, []string{"colour", "unknown key"}},
		{"unknown dataset", strings.Replace(base, `"ruspini"`, `"nope"`, 1), []string{"datasets[1]", "nope"}},
		{"unknown metric", strings.Replace(base, `"sse_sst"`, `"nope"`, 1), []string{"metrics[0]", "nope"}},
		{"unknown method", strings.Replace(base, `"test_hook"`, `"nope"`, 1), []string{"methods[0].name", "nope"}},
		{"unknown parameter", strings.Replace(base, "x = [1, 2]", "y = [1]", 1), []string{"unknown parameter", `"y"`}},
		{"wrong type", strings.Replace(base, "x = [1, 2]", `x = ["a"]`, 1), []string{"x=", "not a number"}},
		{"non-integer", strings.Replace(base, "x = [1, 2]", "x = [1.5]", 1), []string{"integer"}},
		{"empty grid list", strings.Replace(base, "x = [1, 2]", "x = []", 1), []string{"grid.x", "empty"}},
		{"zero replicates", strings.Replace(base, "replicates = 10", "replicates = 0", 1), []string{"replicates"}},
		{"no name", strings.Replace(base, `name = "hook"`, `name = ""`, 1), []string{"name"}},
		{"bad time limit", "time_limit = \"soon\"\n" + base, []string{"time_limit"}},
		{"no methods", "name = \"a\"\ndatasets = [\"iris\"]\n", []string{"methods"}},
		{"toml syntax", "name = \n", []string{"hook.toml"}},
		{"dataset table: unknown key", strings.Replace(base, `"ruspini"`, `{name = "ruspini", colour = 1}`, 1), []string{"datasets[1].colour"}},
		{"dataset table: unknown column", strings.Replace(base, `"ruspini"`, `{name = "ruspini", drop = ["z"]}`, 1), []string{"datasets[1].drop", `"z"`}},
		{"dataset listed twice", strings.Replace(base, `"ruspini"`, `"iris"`, 1), []string{"datasets[1]", "twice"}},
		{"constant column", `name = "a"
datasets = ["testdata"]
[[methods]]
name = "mdav"
`, []string{"sampling_weight", "constant"}},
		{"k too large for the data", `name = "a"
datasets = ["ruspini"]
[[methods]]
name = "mdav"
[methods.grid]
k = [50]
`, []string{"ruspini", "2k"}},
		{"k < 2", `name = "a"
datasets = ["iris"]
[[methods]]
name = "mdav"
[methods.grid]
k = [1]
`, []string{"k=", "[2, +inf)"}},
	} {
		_, err := experiments.Parse([]byte(c.spec), "hook.toml")
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var se *experiments.SpecError
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *SpecError", c.name, err)
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: %q does not mention %q", c.name, err, m)
			}
		}
	}
}

// TestLoadBundled: a name without a path loads <name>.toml from the bundled file system (with
// or without ".toml"); an unknown name lists the bundled ones; nil bundles nothing.
func TestLoadBundled(t *testing.T) {
	for _, name := range []string{"tiny", "tiny.toml"} {
		if s, err := experiments.Load(name, bundled); err != nil || s.Name != "tiny" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := experiments.Load("no-such-spec", bundled); err == nil || !strings.Contains(err.Error(), "tiny") {
		t.Errorf("unknown spec: %v", err)
	}
	if _, err := experiments.Load("tiny", nil); err == nil {
		t.Error("tiny loaded with no bundled specs")
	}
	if got := experiments.BundledNames(bundled); len(got) != 1 || got[0] != "tiny" {
		t.Errorf("BundledNames = %v", got)
	}
}

// FuzzParse checks that the spec parser never panics and that every accepted spec expands
// to a grid with unique run IDs.
func FuzzParse(f *testing.F) {
	f.Add(hookSpec)
	f.Add("name = \"a\"\ndatasets = [\"iris\"]\n[[methods]]\nname = \"mdav\"\n[methods.grid]\nk = [2, 3]\n")
	f.Add("name = \"b\"\nreplicates = 2\ndatasets = [\"iris\"]\n[[methods]]\nname = \"noise_additive\"\n[[methods.sets]]\nnoise_pct = 5\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := experiments.Parse([]byte(text), "fuzz.toml")
		if err != nil {
			return
		}
		ids := map[string]bool{}
		for _, r := range s.Expand() {
			if ids[r.ID] {
				t.Fatalf("duplicate run ID %s", r.ID)
			}
			ids[r.ID] = true
		}
	})
}

// TestDatasetEntries: the table form selects or drops columns under a label.
func TestDatasetEntries(t *testing.T) {
	s, err := experiments.Parse([]byte(`name = "a"
datasets = [{name = "testdata", drop = ["sampling_weight"]}, {name = "iris", label = "iris2", columns = ["Petal.Width", "Sepal.Length"]}, "iris"]
[[methods]]
name = "mdav"
`), "a.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.DatasetLabels(); strings.Join(got, ",") != "testdata,iris2,iris" {
		t.Fatalf("labels %v", got)
	}
	td, _ := s.Dataset("testdata")
	i2, _ := s.Dataset("iris2")
	if td.P != 14 || i2.P != 2 || i2.Names[0] != "Petal.Width" || i2.Name != "iris2" {
		t.Fatalf("testdata %d columns, iris2 %v", td.P, i2.Names)
	}
	if len(s.Expand()) != 3 {
		t.Fatalf("%d runs", len(s.Expand()))
	}
}

// TestHashIgnoresAnalysis: comments, the description and [analysis] do not change the hash that
// guards resume; the grid does.
func TestHashIgnoresAnalysis(t *testing.T) {
	a, _ := experiments.Parse([]byte(hookSpec), "a.toml")
	b, _ := experiments.Parse([]byte("# a comment\ndescription = \"x\"\n"+hookSpec+"\n[analysis]\nalpha = 0.01\n"), "b.toml")
	c, _ := experiments.Parse([]byte(strings.Replace(hookSpec, "x = [1, 2]", "x = [1, 3]", 1)), "c.toml")
	if a.Hash != b.Hash {
		t.Error("hash changed with comments, description or [analysis]")
	}
	if a.Hash == c.Hash {
		t.Error("hash did not change with the grid")
	}
}
