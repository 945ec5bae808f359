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

func TestBundledSpecsParse(t *testing.T) {
	for _, name := range []string{"tiny", "quickstart"} {
		if _, err := experiments.Load(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := experiments.Load("no-such-spec"); err == nil || !strings.Contains(err.Error(), "quickstart") {
		t.Errorf("unknown spec: %v", err)
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
