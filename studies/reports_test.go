package studies

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// fake is the report of the study "fake", whose folder holds the spec fake-one.toml; it
// records two verdicts.
type fake struct{}

const fakeCitation = "A. Author (2000), a study, MSc dissertation"

func (fake) Write(dir, _ string, t *Tally) error {
	t.Add("Table 1", "cell a", Exact)
	t.Check("Table 2", "claim b", false)
	t.AddRef("Table 2", "sdcMicro cell", Tolerance)
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
	if got := tl.AddRef("T", "r", Exact); got != Exact {
		t.Errorf("AddRef returned %q", got)
	}
	if got := tl.CheckRef("T", "s", false); got != NotReproduced {
		t.Errorf("CheckRef(false) = %q, want %q", got, NotReproduced)
	}
	want := []resultsdir.Source{resultsdir.SourceStudy, resultsdir.SourceStudy, resultsdir.SourceStudy, resultsdir.SourceReference, resultsdir.SourceReference}
	if len(tl.Rows()) != len(want) {
		t.Fatalf("%d rows, want %d", len(tl.Rows()), len(want))
	}
	for i, r := range tl.Rows() {
		if r.Source != want[i] {
			t.Errorf("row %d (%s): source %q, want %q", i, r.Item, r.Source, want[i])
		}
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
		"table,item,source,verdict\nTable 1,cell c,study,within tolerance\nTable 1,cell d,study,not reproduced\n")
	writeFile(t, filepath.Join(root, "plain", "manifest.json"), `{"name": "plain"}`)
	writeFile(t, filepath.Join(root, "plain", "seed_comparison.csv"), "table,item,source,verdict\nsdcMicro mdav,census k=3,reference,exact\n")
	// a second folder of the same study judges claim b again, and an item of its own
	writeFile(t, filepath.Join(root, "fake-two", "verdicts.csv"), "study,source,table,item,verdict\n"+
		`"`+fakeCitation+`",study,Table 2,claim b,not reproducible`+"\n"+
		`"`+fakeCitation+`",study,Table 2,claim e,pattern`+"\n")
	// a reduced CI grid is not counted
	writeFile(t, filepath.Join(root, "plain-small", "manifest.json"), `{"name": "plain-small"}`)
	writeFile(t, filepath.Join(root, "plain-small", "seed_comparison.csv"), "table,item,source,verdict\nsdcMicro mdav,census k=3,reference,not reproduced\n")

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
		got[r.Study+"|"+r.Folder+"|"+r.Table+"|"+string(r.Source)] = r.Counts
	}
	study := fakeCitation
	want := map[string]map[string]int{
		study + "|fake-one|Table 1|study":               {Exact: 1, Tolerance: 1, NotReproduced: 1},
		study + "|fake-one|Table 2|study":               {NotReproduced: 1},
		study + "|fake-one|Table 2|reference":           {Tolerance: 1},
		study + "|fake-two|Table 2|study":               {NotPossible: 1, Pattern: 1},
		GenericStudy + "|plain|sdcMicro mdav|reference": {Exact: 1},
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
	// claim b is judged in fake-one (not reproduced) and fake-two (not reproducible): counted once,
	// with the weaker verdict; 7 verdict rows, 6 distinct items.
	for _, s := range []string{"## " + study, "| [fake-one](../results/fake-one) | Table 1 | study | 1 | 1 | 0 | 1 | 0 |",
		"| [fake-one](../results/fake-one) | Table 2 | reference | 0 | 1 | 0 | 0 | 0 |",
		"| study | 1 | 1 | 1 | 1 | 1 | 5 |", "| reference | 1 | 1 | 0 | 0 | 0 | 2 |", "| all | 2 | 2 | 1 | 1 | 1 | 7 |",
		"| " + study + " | Table 2 | claim b | fake-one: not reproduced; fake-two: not reproducible | not reproducible |"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("status page lacks %q:\n%s", s, b.String())
		}
	}

	// an unknown verdict or source, or an empty item, in a folder is an error naming it
	for _, c := range []struct{ csv, want string }{
		{"table,item,source,verdict\nT,i,study,probably\n", `"probably"`},
		{"table,item,source,verdict\nT,i,sdcMicro,exact\n", `"sdcMicro"`},
		{"table,item,source,verdict\nT,,study,exact\n", "without an item"},
		{"table,item,verdict\nT,i,exact\n", "want columns table, item, source and verdict"},
	} {
		writeFile(t, filepath.Join(root, "plain", "seed_comparison.csv"), c.csv)
		if _, err = Status(root); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.csv, err, c.want)
		}
	}
	// an item filed under two sources is an error
	writeFile(t, filepath.Join(root, "plain", "seed_comparison.csv"), "table,item,source,verdict\nsdcMicro mdav,census k=3,reference,exact\n")
	writeFile(t, filepath.Join(root, "fake-two", "verdicts.csv"), "study,source,table,item,verdict\n"+
		`"`+fakeCitation+`",reference,Table 2,claim b,not reproducible`+"\n")
	if rows, err = Status(root); err != nil {
		t.Fatal(err)
	}
	if err := WriteStatus(&b, rows, "."); err == nil || !strings.Contains(err.Error(), "source study in one folder, reference in another") {
		t.Errorf("two sources: error %v", err)
	}
}
