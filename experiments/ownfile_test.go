package experiments_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// mixedCSV is a small mixed-type file: an id, a text region, two numbers, a text key.
const mixedCSV = `id,region,income,expend,sex
1,North,100,40,m
2,North,180,70,f
3,North,150,55,m
4,North,170,60,f
5,North,130,52,m
6,North,120,45,f
7,South,300,90,f
8,South,320,99,m
9,South,310,95,f
10,South,290,85,m
11,South,330,100,f
12,South,305,92,m
`

func writeSpec(t *testing.T, dir, spec string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "mine.csv"), []byte(mixedCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "own.toml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const ownSpec = `name = "own"
datasets = [{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "sex"], strata = "region", keys = ["region", "sex"]}]
metrics = ["sse_sst", "kanon_viol_2"]
[[methods]]
name = "mdav"
grid.k = 3
`

// TestSpecFileDataset: a dataset entry with a path is read relative to the spec, its hash
// goes in manifest.json, strata and keys reach the methods and metrics, and a resume refuses
// a changed file.
func TestSpecFileDataset(t *testing.T) {
	dir := t.TempDir()
	path := writeSpec(t, dir, ownSpec)
	s, err := experiments.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res")
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: out, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	m, err := resultsdir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if h := m.Inputs["mine"]; len(h) != 64 {
		t.Fatalf("manifest inputs %v, want the file's SHA-256 under mine", m.Inputs)
	}
	tab, err := resultsdir.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	row := tab.Rows[0]
	if st := row[tab.Col("status")]; st != "ok" {
		t.Fatalf("run status %s: %s", st, row[tab.Col("error")])
	}
	// Keys region × sex: every combination of the 12 records occurs 3 times.
	if v := row[tab.Col("kanon_viol_2")]; v != "0" {
		t.Errorf("kanon_viol_2 = %s, want 0", v)
	}
	pr, err := s.Prepared("mine", "mdav")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pr.Full.Names, ","); got != "id,region,income,expend,sex" {
		t.Errorf("released columns %s", got)
	}
	if got := strings.Join(pr.Strata(), ","); got != "region=North,region=South" {
		t.Errorf("strata %s", got)
	}
	// Change the file: the resume is refused, naming the dataset.
	os.WriteFile(filepath.Join(dir, "data", "mine.csv"), []byte(strings.Replace(mixedCSV, "100,40", "101,40", 1)), 0o644)
	s2, err := experiments.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = experiments.Execute(context.Background(), s2, experiments.Options{Out: out, Workers: 1})
	if err == nil || !strings.Contains(err.Error(), `dataset "mine" changed`) {
		t.Fatalf("resume with a changed file: %v", err)
	}
}

// TestSpecFileErrors: one clear error per bad entry, naming the key and the column or file.
func TestSpecFileErrors(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		want           []string
	}{
		{"missing file", "data/mine.csv", "data/nope.csv", []string{"datasets[0]", "nope.csv", "no such file"}},
		{"unknown keep column", `keep = ["id", "sex"]`, `keep = ["id", "sexx"]`, []string{"keep", `"sexx"`}},
		{"unknown strata column", `strata = "region"`, `strata = "regio"`, []string{"strata", `"regio"`}},
		{"unknown key", `keys = ["region", "sex"]`, `keys = ["region", "age"]`, []string{"keys", `"age"`}},
		{"stratum smaller than 2k", "grid.k = 3", "grid.k = 4", []string{"stratum region=North", "6 rows", "2k = 8"}},
		{"text column protected by a numeric method", `columns = ["income", "expend"], keep = ["id", "sex"]`, `columns = ["income", "sex"], keep = ["id"]`, []string{`"sex"`, "categorical"}},
		{"name and path", `path = "data/mine.csv"`, `path = "data/mine.csv", name = "iris"`, []string{"not both"}},
	} {
		dir := t.TempDir()
		path := writeSpec(t, dir, strings.Replace(ownSpec, c.from, c.to, 1))
		_, err := experiments.Load(path, nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error %q lacks %q (or is not one line)", c.name, err, w)
			}
		}
	}
}
