package perturbative

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

// TestVerdictSources regenerates the report of the committed sdcMicro agreement folder and checks
// that its verdicts are filed as reference checks (issue 24; the study-source rows are pinned by
// verdicts_test.go).
func TestVerdictSources(t *testing.T) {
	src := filepath.Join("..", "..", "results", "perturbative-sdcmicro")
	if _, err := os.Stat(filepath.Join(src, "agreement.csv")); err != nil {
		t.Skipf("no committed sdcMicro agreement: %v", err)
	}
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
		}
	}
	var tally studies.Tally
	if err := (reporter{}).Write(dir, "perturbative-sdcmicro", &tally); err != nil {
		t.Fatal(err)
	}
	if len(tally.Rows()) == 0 {
		t.Fatal("no verdicts")
	}
	for _, v := range tally.Rows() {
		if v.Source != resultsdir.SourceReference {
			t.Errorf("%s / %s: source %q, want reference", v.Table, v.Item, v.Source)
		}
	}
}
