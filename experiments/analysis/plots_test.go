package analysis

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlots runs Quick (the analysis with plots) on testdata/small and checks that every figure exists
// as a non-empty PNG and SVG and that REPORT.md links it.
func TestPlots(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	var brief bytes.Buffer
	res, err := Quick(context.Background(), dir, nil, &brief)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(brief.String(), "best noise_additive noise_pct=10") {
		t.Errorf("brief:\n%s", brief.String())
	}
	report, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range res.Plots {
		kinds[strings.SplitN(f.Name, "_", 2)[0]] = true
		png, err := os.ReadFile(filepath.Join(dir, "plots", f.Name+".png"))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 1000 {
			t.Errorf("%s.png: %d bytes, err %v", f.Name, len(png), err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, "plots", f.Name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) || len(svg) < 1000 {
			t.Errorf("%s.svg: %d bytes, err %v", f.Name, len(svg), err)
		}
		if !bytes.Contains(report, []byte("plots/"+f.Name+".png")) || !bytes.Contains(report, []byte("plots/"+f.Name+".svg")) {
			t.Errorf("REPORT.md does not link %s", f.Name)
		}
	}
	for _, k := range []string{"box", "rumap", "traces", "wins", "gaps", "curve", "profile"} {
		if !kinds[k] {
			t.Errorf("no %s plot among %v", k, res.Plots)
		}
	}
}
