package dfo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"

	_ "github.com/sdcbench/sdcbench/methods/dfo"
)

func protect(t *testing.T, d *datasets.Dataset, raw map[string]string) (*methods.Release, error) {
	t.Helper()
	m, err := methods.Lookup("dfo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		return nil, err
	}
	return m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 1)))
}

func TestMethodProtect(t *testing.T) {
	d, err := datasets.Load("iris")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := protect(t, d, map[string]string{"k": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if rel.Masked.N != d.N || rel.Masked.P != d.P || len(rel.Labels) != d.N || len(rel.Trace) == 0 {
		t.Fatalf("release shape %d×%d, %d labels, %d trace points", rel.Masked.N, rel.Masked.P, len(rel.Labels), len(rel.Trace))
	}
	sizes := microagg.GroupSizes(rel.Labels)
	if slices.Min(sizes) < 3 || slices.Max(sizes) > 5 {
		t.Errorf("group sizes %d..%d", slices.Min(sizes), slices.Max(sizes))
	}
	if dg := rel.Diag; dg.Partition == nil || dg.Partition.K != 3 || dg.Partition.Groups != len(sizes) ||
		dg.Search == nil || !dg.Search.Pattern || dg.Search.G0 < 1 || dg.Search.GBest < 1 || dg.Search.Evals < 1 {
		t.Errorf("diagnostics %+v %+v", dg.Partition, dg.Search)
	}

	// labels:FILE with MDAV's labels equals start=mdav
	z := datasets.ScalingOf(d).Apply(nil, d)
	mdav, _ := microagg.MDAV(context.Background(), z, d.N, d.P, 3, 1)
	path := filepath.Join(t.TempDir(), "start.csv")
	var b strings.Builder
	b.WriteString("label\n")
	for _, l := range mdav {
		fmt.Fprintln(&b, l)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rel2, err := protect(t, d, map[string]string{"k": "3", "start": "labels:" + path})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rel.Labels, rel2.Labels) {
		t.Errorf("start=labels:FILE with MDAV labels differs from start=mdav")
	}
	for _, start := range []string{"gsms", "fdm", "random"} {
		if _, err := protect(t, d, map[string]string{"k": "3", "start": start, "polish": "every"}); err != nil {
			t.Errorf("start=%s: %v", start, err)
		}
	}
}

func TestMethodValidation(t *testing.T) {
	d, _ := datasets.Load("iris")
	for i, raw := range []map[string]string{
		{"k": "76"},
		{"start": "nosuch"},
		{"start": "noise_additive"},
		{"start": "labels:/nonexistent/file.csv"},
		{"surrogate": "km+hm"},
		{"start": "random", "g0": "60"},
		{"gamma0": "0"},
		{"repair": "sometimes"},
		{"hm_iter": "pass"},
		{"on_fail": "retry"},
		{"f0": "mdav"},
	} {
		_, err := protect(t, d, raw)
		if err == nil {
			t.Errorf("case %d %v: no error", i, raw)
			continue
		}
		if !strings.Contains(err.Error(), "dfo") {
			t.Errorf("case %d: error %q does not name dfo", i, err)
		}
	}
}

// The hmkm method: variants that differ only in the surrogate share their random start, and
// every result is feasible and no worse than it.
func TestFixedG(t *testing.T) {
	d, _ := datasets.Load("iris")
	m, err := methods.Lookup("hmkm")
	if err != nil {
		t.Fatal(err)
	}
	var start float64
	for i, sur := range []string{"sbm-I", "sbm-II", "br-I", "br-II", "hmkm", "br+sbm-II"} {
		p, err := m.Info().Resolve(map[string]string{"k": "5", "g_pos": "0.5", "surrogate": sur, "start_seed": "3"})
		if err != nil {
			t.Fatal(err)
		}
		rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(uint64(i), 1)))
		if err != nil {
			t.Fatalf("%s: %v", sur, err)
		}
		il := rel.Diag.Search.ILStart
		if i == 0 {
			start = il
		} else if il != start {
			t.Errorf("%s: start IL %v, want the shared %v", sur, il, start)
		}
		// iris: n = 150, k = 5: G in [16, 30], g_pos 0.5 → 23
		if g := rel.Diag.Search.GBest; g != 23 {
			t.Errorf("%s: G = %v, want 23", sur, g)
		}
		if sizes := microagg.GroupSizes(rel.Labels); slices.Min(sizes) < 5 {
			t.Errorf("%s: a group of %d < k", sur, slices.Min(sizes))
		}
	}
	if p, err := m.Info().Resolve(map[string]string{"surrogate": "km+hm"}); err == nil {
		if _, err := m.Protect(context.Background(), d, p, nil); err == nil || !strings.Contains(err.Error(), "hmkm") {
			t.Errorf("bad surrogate: error %v", err)
		}
	}
}
