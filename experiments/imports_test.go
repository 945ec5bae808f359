package experiments_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestHarnessImportsNoStudy: the harness (this package and every package below it, tests
// included) imports nothing under studies/; the CLI links the studies in.
func TestHarnessImportsNoStudy(t *testing.T) {
	const module = "github.com/sdcbench/sdcbench"
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{.ImportPath}}", "./...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/experiments/analysis") {
		t.Fatalf("go list -deps ./... lacks experiments/analysis; got %d packages", len(deps))
	}
	for _, d := range deps {
		if d == module+"/studies" || strings.HasPrefix(d, module+"/studies/") {
			t.Errorf("a package under experiments/ depends on %s", d)
		}
	}
}
