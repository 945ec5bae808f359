package main

import (
	"strings"
	"testing"
)

// TestListExperiments: every bundled spec is listed with its study, the name first (the
// Makefile's reproduce target reads the first column).
func TestListExperiments(t *testing.T) {
	out, e, code := sdcbench(t, t.TempDir(), "list", "experiments")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if h := strings.Fields(lines[0]); len(h) < 2 || h[0] != "NAME" || h[1] != "STUDY" {
		t.Fatalf("header %q", lines[0])
	}
	study := map[string]string{}
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) >= 2 {
			study[f[0]] = f[1]
		}
	}
	for exp, want := range map[string]string{"quickstart": "quickstart", "tiny": "quickstart", "dfo-benchmarks": "dfo",
		"perturbative-categorical": "perturbative", "dp-audit": "audit", "microagg-classics": "microagg-classics"} {
		if study[exp] != want {
			t.Errorf("%s: study %q, want %q", exp, study[exp], want)
		}
	}
}
