package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// TestWrite runs a small audit grid (the printed rule at ε = 0.1 is not 0.1-DP) and checks the
// computed statements of AUDIT.md.
func TestWrite(t *testing.T) {
	spec := `name = "a"
seed = 1
datasets = ["dp_audit_bin_n1"]
metrics = ["audit_eps_lb"]
[[methods]]
name = "dp_audit"
grid = {eps = [0.1, 1], alpha_rule = ["mv2008", "printed"], releases = 4000}
`
	s, err := experiments.Parse([]byte(spec), "a.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "AUDIT.md"))
	for _, want := range []string{"never exceeds the claimed ε: **holds** (2 of 2 runs",
		"neighbouring pair: **holds** (4 of 4 runs)", "bb_synth, rule printed, dp_audit_bin_n1 at ε = 0.1 (pair ε 0.3412)", "in 1 of 1 runs"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("AUDIT.md lacks %q:\n%s", want, b)
		}
	}
	if err := Write(t.TempDir()); err == nil {
		t.Error("empty folder: no error")
	}
}
