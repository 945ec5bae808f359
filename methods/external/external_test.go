package external_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestSDCMicroRelease: sdcMicro 5.8.1's MDAV releases (examples/external-sdcmicro) score the
// published SSE/SST values and equal sdcbench's own mdav on every metric of the example.
func TestSDCMicroRelease(t *testing.T) {
	for ds, want := range map[string]float64{"census": 5.6922, "tarragona": 16.9326} {
		d, _ := datasets.Load(ds)
		pattern := filepath.Join("..", "..", "examples", "external-sdcmicro", "masked", "{dataset}.csv")
		ext, err := methods.Apply(context.Background(), "external", d, methods.Set{"pattern": pattern}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, _ := methods.Apply(context.Background(), "mdav", d, methods.Set{"k": 3}, nil)
		ids := []string{"sse_sst", "il1s", "dld", "interval_disclosure", "dbrl"}
		ve, _ := metrics.Evaluate(d, ext.Masked, ids...)
		vo, _ := metrics.Evaluate(d, ours.Masked, ids...)
		if math.Round(ve["sse_sst"]*1e4)/1e4 != want {
			t.Errorf("%s: sdcMicro sse_sst %v, want %v", ds, ve["sse_sst"], want)
		}
		for _, id := range ids {
			if math.Abs(ve[id]-vo[id]) > 1e-9 {
				t.Errorf("%s: %s sdcMicro %v, sdcbench %v", ds, id, ve[id], vo[id])
			}
		}
	}
}

// TestBadRelease: a missing file, a missing column and a wrong row count are one-line spec
// errors naming the file, before anything runs.
func TestBadRelease(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "short.csv"), []byte("a,b\n1,2\n"), 0o644)
	d, _ := datasets.Load("census")
	var b strings.Builder
	datasets.WriteCSV(&b, d)
	os.WriteFile(filepath.Join(dir, "census.csv"), []byte(strings.Join(strings.Split(b.String(), "\n")[:100], "\n")+"\n"), 0o644)
	for _, c := range []struct{ pattern, want string }{
		{filepath.Join(dir, "nope-{dataset}.csv"), "nope-census.csv"},
		{filepath.Join(dir, "short.csv"), "AFNLWGT"},
		{filepath.Join(dir, "{dataset}.csv"), "has 99 rows, dataset census has 1080"},
		{"", "pattern is empty"},
	} {
		spec := `name = "x"
datasets = ["census"]
metrics = ["sse_sst"]
[[methods]]
name = "external"
grid = {pattern = "` + filepath.ToSlash(c.pattern) + `"}
`
		_, err := experiments.Parse([]byte(spec), "x.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("pattern %q: error %v, want one line containing %q", c.pattern, err, c.want)
		}
	}
}

// TestExampleSpec: the example's spec parses from the repository root (its files exist and
// have the datasets' shape).
func TestExampleSpec(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	s, err := experiments.Load("examples/external-sdcmicro/spec.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.NumRuns(); n != 24 {
		t.Errorf("%d runs, want 24", n)
	}
}
