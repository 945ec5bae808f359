package main

import (
	"strings"
	"testing"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"100·SSE/SST (Morais (2022) Valores Próprios; metrics.md §2.7)", "100·SSE/SST (Morais (2022) Valores Próprios)"},
		{"Beta-Binomial synthesizer (Abowd & Vilhuber 2008; DP study Alg. 2): M copies", "Beta-Binomial synthesizer (Abowd & Vilhuber 2008; DP study Alg. 2): M copies"},
		{"sse_sst (docs/metrics.md §2.1)", "sse_sst"},
		{"x (y) z", "x (y) z"},
		{"(sse_sst + dld)/2 (MAGGA study mean(IL1, DLD); metrics.md §6.4)", "(sse_sst + dld)/2 (MAGGA study mean(IL1, DLD))"},
	} {
		if got := plain(c.in); got != c.want {
			t.Errorf("plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestListGrouped: methods by family and metrics by kind, each with a "use when" line; a
// misspelled name gets a suggestion.
func TestListGrouped(t *testing.T) {
	dir := t.TempDir()
	out, _, code := sdcbench(t, dir, "list", "methods")
	if code != 0 || !strings.Contains(out, "== Microaggregation: use when") || !strings.Contains(out, "== Perturbation: use when") {
		t.Errorf("list methods:\n%s", out)
	}
	out, _, _ = sdcbench(t, dir, "list", "metrics")
	risk := strings.Index(out, "== Disclosure risk: use when")
	next := strings.Index(out, "== Combined")
	if risk < 0 || next < risk || !strings.Contains(out[risk:next], "\nsingling_out ") || strings.Contains(out, "§") {
		t.Errorf("list metrics: no risk group holding singling_out, or a § reference:\n%s", out)
	}
	for _, c := range [][]string{{"list", "metric"}, {"protect", "--method", "mdva", "--dataset", "census", "--out", "x.csv"},
		{"eval", "--dataset", "census", "--masked", "x.csv", "--metrics", "sse_ssst"}} {
		_, e, code := sdcbench(t, dir, c...)
		checkError(t, strings.Join(c, " "), e, code, []string{"did you mean"})
	}
}
