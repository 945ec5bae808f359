package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestBuildWithoutCgo is issue 25: the Makefile builds the CLI with CGO_ENABLED=0 (a cgo binary
// aborts under `ulimit -v`), and such a build works (nothing needs cgo).
func TestBuildWithoutCgo(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^build:\n(#.*\n)*\tCGO_ENABLED=0 \$\(GO\) build `).Match(mk) {
		t.Error("Makefile: the build target does not set CGO_ENABLED=0")
	}
	if testing.Short() {
		return
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "sdcbench"), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
}
