package analysis

import (
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// TestAnalysisTableCheckedAtLoad: the [analysis] table of a spec is validated when the spec
// is loaded, before any run (a typo used to surface after the whole grid), and alpha = 0 or
// alpha ≥ 1 written in the spec is an error naming the value (0 silently became 0.05).
func TestAnalysisTableCheckedAtLoad(t *testing.T) {
	const base = "name = \"t\"\ndatasets = [\"census\"]\nmetrics = [\"sse_sst\"]\n[[methods]]\nname = \"mdav\"\ngrid.k = 3\n"
	if _, err := experiments.Parse([]byte(base+"[analysis]\nalpha = 0.01\n"), "t.toml"); err != nil {
		t.Fatalf("valid [analysis]: %v", err)
	}
	for _, c := range []struct{ table, want string }{
		{"[analysis]\nalpah = 0.01\n", "alpah"},
		{"[analysis]\nalpha = 0\n", "have 0"},
		{"[analysis]\nalpha = 1.5\n", "have 1.5"},
		{"[analysis]\nalpha = -0.1\n", "have -0.1"},
		{"[analysis]\ntest = \"t-test\"\n", "t-test"},
	} {
		_, err := experiments.Parse([]byte(base+c.table), "t.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.toml") {
			t.Errorf("%q: error %v, want one naming t.toml and %q", c.table, err, c.want)
		}
	}
}
