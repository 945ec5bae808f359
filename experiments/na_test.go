package experiments_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
)

// TestSpecNATokens: a dataset entry's na lists the file's missing-value tokens. With "." among
// them the column with "." cells is numeric with missing values, which mdav aggregates
// (sdcMicro's rule) and noise_additive keeps; without, "." is text and mdav refuses the column.
// na on a registered dataset is an error.
func TestSpecNATokens(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,x,y\n")
	for i := 0; i < 30; i++ {
		x := fmt.Sprintf("%d.5", (i*7)%23)
		if i%6 == 0 {
			x = "."
		}
		fmt.Fprintf(&b, "%d,%s,%d\n", i, x, (i*11)%17)
	}
	path := filepath.Join(dir, "dots.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := func(entry string) string {
		return fmt.Sprintf(`name = "dots"
seed = 1
datasets = [{path = %q, label = "dots", keep = ["id"]%s}]
metrics = ["n_suppressed"]
[[methods]]
name = "mdav"
[[methods]]
name = "noise_additive"
`, path, entry)
	}
	s, err := experiments.Parse([]byte(spec(`, na = [".", "NA", ""]`)), "dots.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = experiments.Execute(t.Context(), s, experiments.Options{Out: filepath.Join(dir, "out"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := os.ReadFile(filepath.Join(dir, "out", "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(runs), "\n"); n != 3 {
		t.Errorf("runs.csv has %d lines, want a header and 2 runs:\n%s", n, runs)
	}
	if n := strings.Count(string(runs), ",ok,"); n != 2 {
		t.Errorf("%d runs ok, want 2:\n%s", n, runs)
	}
	s, err = experiments.Parse([]byte(spec("")), "dots.toml")
	if err == nil {
		_, err = experiments.Execute(t.Context(), s, experiments.Options{Out: filepath.Join(dir, "out2"), Workers: 1})
	}
	if err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("without na, the column of \".\" cells is text: want an error naming x, got %v", err)
	}
	_, err = experiments.Parse([]byte(`name = "t"
seed = 1
datasets = [{name = "tarragona", na = ["."]}]
metrics = ["sse_sst"]
[[methods]]
name = "mdav"
`), "t.toml")
	if err == nil || !strings.Contains(err.Error(), "na applies to a CSV file") {
		t.Errorf("na on a registered dataset: %v", err)
	}
}
