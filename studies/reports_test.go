package studies

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// fake is the report of the study "fake", whose folder holds the spec fake-one.toml; it
// records two verdicts.
type fake struct{}

const fakeCitation = "A. Author (2000), a study, MSc dissertation"

func (fake) Write(dir, _ string, t *Tally) error {
	t.Add("Table 1", "cell a", Exact)
	t.Check("Table 2", "claim b", false)
	return os.WriteFile(filepath.Join(dir, "FAKE.md"), []byte("# fake\n"), 0o644)
}

func init() {
	Register(Study{Name: "fake", Citation: fakeCitation, Report: fake{},
		Files: fstest.MapFS{"fake-one.toml": {Data: []byte("name = \"fake-one\"\n")}, "README.md": {}}})
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	if got := tl.Add("T", "i", Tolerance); got != Tolerance {
		t.Errorf("Add returned %q", got)
	}
	if got := tl.Check("T", "j", true); got != Pattern {
		t.Errorf("Check(true) = %q, want %q", got, Pattern)
	}
	if got := tl.Check("T", "k", false); got != NotReproduced {
		t.Errorf("Check(false) = %q, want %q", got, NotReproduced)
	}
	if len(tl.Rows()) != 3 {
		t.Errorf("%d rows, want 3", len(tl.Rows()))
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown verdict did not panic")
		}
	}()
	tl.Add("T", "x", "reproduced-ish")
}

func TestWriteAndStatus(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "fake-one", "manifest.json"), `{"name": "fake-one"}`)
	writeFile(t, filepath.Join(root, "fake-one", "seed_comparison.csv"),
		"table,item,verdict\nTable 1,cell c,within tolerance\nTable 1,cell d,not reproduced\n")
	writeFile(t, filepath.Join(root, "plain", "manifest.json"), `{"name": "plain"}`)
	writeFile(t, filepath.Join(root, "plain", "seed_comparison.csv"), "table,item,verdict\nsdcMicro mdav,census k=3,exact\n")
	// a reduced CI grid is not counted
	writeFile(t, filepath.Join(root, "plain-small", "manifest.json"), `{"name": "plain-small"}`)
	writeFile(t, filepath.Join(root, "plain-small", "seed_comparison.csv"), "table,item,verdict\nsdcMicro mdav,census k=3,not reproduced\n")

	name, err := Write(filepath.Join(root, "fake-one"))
	if err != nil || name != "fake" {
		t.Fatalf("Write = %q, %v", name, err)
	}
	if _, err := Write(filepath.Join(root, "plain")); !errors.Is(err, ErrNoReporter) {
		t.Errorf("Write(plain) error %v, want ErrNoReporter", err)
	}
	if _, err := os.Stat(filepath.Join(root, "fake-one", "FAKE.md")); err != nil {
		t.Error(err)
	}

	rows, err := Status(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]int{}
	for _, r := range rows {
		got[r.Study+"|"+r.Folder+"|"+r.Table] = r.Counts
	}
	study := fakeCitation
	want := map[string]map[string]int{
		study + "|fake-one|Table 1":           {Exact: 1, Tolerance: 1, NotReproduced: 1},
		study + "|fake-one|Table 2":           {NotReproduced: 1},
		GenericStudy + "|plain|sdcMicro mdav": {Exact: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("status rows %v, want %v", got, want)
	}
	for k, w := range want {
		for v, n := range w {
			if got[k][v] != n {
				t.Errorf("%s: %s = %d, want %d", k, v, got[k][v], n)
			}
		}
	}
	var b strings.Builder
	if err := WriteStatus(&b, rows, "../results"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"## " + study, "| [fake-one](../results/fake-one) | Table 1 | 1 | 1 | 0 | 1 | 0 |", "- exact: 2", "- not reproduced: 2"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("status page lacks %q:\n%s", s, b.String())
		}
	}

	// an unknown verdict in a folder is an error naming it
	writeFile(t, filepath.Join(root, "plain", "seed_comparison.csv"), "table,item,verdict\nT,i,probably\n")
	rows, err = Status(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteStatus(&b, rows, "."); err == nil || !strings.Contains(err.Error(), `"probably"`) {
		t.Errorf("unknown verdict: error %v", err)
	}
}
