package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// selCSV has an id, a text stratum, two incomes, a text key and a weight.
const selCSV = `id,region,income,expend,sex,w
1,North,100,40,m,2
2,North,180,70,f,5
3,North,150,55,m,3
4,North,170,60,f,2
5,North,130,52,m,4
6,North,120,45,f,3
7,South,140,58,f,1
8,South,160,66,m,2
9,South,125,41,f,6
10,South,175,72,m,3
11,South,110,47,f,2
12,South,190,69,m,4
`

// parseSel writes selCSV as data/mine.csv beside a spec with the given text and parses it.
func parseSel(t *testing.T, spec string) (*Spec, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "mine.csv"), []byte(selCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sel.toml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return Parse([]byte(spec), path)
}

func selSpec(dataset string, entries ...string) string {
	return "name = \"sel\"\nseed = 7\nreplicates = 1\nmetrics = [\"sse_sst\"]\ndatasets = [" + dataset + "]\n" +
		strings.Join(entries, "\n")
}

func TestMethodEntrySelection(t *testing.T) {
	const ds = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"]}`
	for _, c := range []struct {
		name, dataset, entry    string
		full, protected, strata []string
	}{
		{"no options: the dataset entry's", ds, "[[methods]]\nname = \"mdav\"\ngrid = {k = 3}",
			[]string{"id", "region", "income", "expend", "sex"}, []string{"income", "expend"}, nil},
		{"strata", ds, "[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}",
			[]string{"id", "region", "income", "expend", "sex"}, []string{"income", "expend"}, []string{"region=North", "region=South"}},
		{"columns: the rest passes through", ds, "[[methods]]\nname = \"pram\"\ncolumns = [\"sex\"]",
			[]string{"id", "region", "income", "expend", "sex"}, []string{"sex"}, nil},
		{"columns and keep", ds, "[[methods]]\nname = \"mdav\"\ncolumns = [\"income\"]\nkeep = [\"sex\"]\ngrid = {k = 3}",
			[]string{"income", "sex"}, []string{"income"}, nil},
		{"keep = [] drops the passed-through columns", ds, "[[methods]]\nname = \"mdav\"\nkeep = []\ngrid = {k = 3}",
			[]string{"income", "expend"}, []string{"income", "expend"}, nil},
		{"another strata column: the dataset's passes through",
			`{path = "data/mine.csv", label = "mine", keep = ["id", "sex"], strata = "region"}`,
			"[[methods]]\nname = \"mdav\"\nstrata = \"sex\"\ngrid = {k = 3}",
			[]string{"id", "region", "income", "expend", "sex", "w"}, []string{"income", "expend", "w"}, []string{"sex=f", "sex=m"}},
		{"strata on a dataset that protects every column but the kept",
			`{path = "data/mine.csv", label = "mine", keep = ["id", "sex"]}`,
			"[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}",
			[]string{"id", "region", "income", "expend", "sex", "w"}, []string{"income", "expend", "w"}, []string{"region=North", "region=South"}},
	} {
		s, err := parseSel(t, selSpec(c.dataset, c.entry))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		pr, _, err := s.runPrepared(s.runs[0])
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(pr.Full.Names, c.full) || !slices.Equal(pr.Protected.Names, c.protected) || !slices.Equal(pr.Strata(), c.strata) {
			t.Errorf("%s: released %v, protected %v, strata %v; want %v, %v, %v", c.name,
				pr.Full.Names, pr.Protected.Names, pr.Strata(), c.full, c.protected, c.strata)
		}
	}
}

func TestMethodEntrySelectionErrors(t *testing.T) {
	const ds = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex", "w"], keys = ["sex"], weight = "w"}`
	plain := "[[methods]]\nname = \"mdav\"\ngrid = {k = 3}"
	for _, c := range []struct {
		name, dataset, entry string
		mention              []string
	}{
		{"empty strata", ds, "[[methods]]\nname = \"mdav\"\nstrata = \"\"", []string{"methods[0].strata", "empty"}},
		{"empty columns", ds, "[[methods]]\nname = \"mdav\"\ncolumns = []", []string{"methods[0].columns", "empty list"}},
		{"a + in a column name", ds, "[[methods]]\nname = \"mdav\"\ncolumns = [\"a+b\"]", []string{"methods[0].columns[0]", `"+"`}},
		{"unknown strata column", ds, "[[methods]]\nname = \"mdav\"\nstrata = \"nope\"", []string{"methods[0]", "on dataset mine", "strata", `"nope"`}},
		{"strata column protected", ds, "[[methods]]\nname = \"mdav\"\nstrata = \"income\"", []string{"methods[0]", "income", "also protected"}},
		{"key not released", ds, "[[methods]]\nname = \"mdav\"\nkeep = [\"w\"]", []string{"methods[0]", `key "sex"`}},
		{"weight not released", ds, "[[methods]]\nname = \"mdav\"\nkeep = [\"sex\"]", []string{"methods[0]", `"w"`, "not released"}},
		{"categorical column to a numeric method", ds, "[[methods]]\nname = \"mdav\"\ncolumns = [\"income\", \"sex\"]", []string{"methods[0]", `"sex"`, "categorical"}},
		{"the dataset's strata set again", `{path = "data/mine.csv", label = "mine", keep = ["id", "sex"], strata = "region"}`,
			plain + "\n[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}", []string{"methods[1]", "same configuration as methods[0]"}},
		{"the dataset's columns named again", ds,
			plain + "\n[[methods]]\nname = \"mdav\"\ncolumns = [\"income\", \"expend\"]\ngrid = {k = 3}", []string{"methods[1]", "same configuration as methods[0]"}},
	} {
		_, err := parseSel(t, selSpec(c.dataset, c.entry))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, m)
			}
		}
	}
}

// TestMethodEntryRunIDs checks that selection options enter the run IDs, seeds, runs.csv
// columns and the spec hash of their own entries only: a spec without them keeps its IDs.
func TestMethodEntryRunIDs(t *testing.T) {
	const ds = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"]}`
	plain := "[[methods]]\nname = \"mdav\"\ngrid = {k = 3}"
	strat := "[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}"
	pram := "[[methods]]\nname = \"pram\"\ncolumns = [\"sex\", \"region\"]"
	a, err := parseSel(t, selSpec(ds, plain))
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseSel(t, selSpec(ds, plain, strat, pram))
	if err != nil {
		t.Fatal(err)
	}
	id := func(text string) string {
		sum := sha256.Sum256([]byte(text))
		return hex.EncodeToString(sum[:8])
	}
	wantPlain := id("dataset=mine;method=mdav;params=k=3,standardize=zscore;replicate=1")
	if a.runs[0].ID != wantPlain || b.runs[0].ID != wantPlain || a.runs[0].Seed != b.runs[0].Seed {
		t.Errorf("plain run: IDs %s and %s, seeds %d and %d; want ID %s in both and equal seeds",
			a.runs[0].ID, b.runs[0].ID, a.runs[0].Seed, b.runs[0].Seed, wantPlain)
	}
	if w := id("dataset=mine;method=mdav;params=k=3,standardize=zscore;sel_strata=region;replicate=1"); b.runs[1].ID != w {
		t.Errorf("stratified run ID %s, want %s", b.runs[1].ID, w)
	}
	if w := id("dataset=mine;method=pram;params=pd=0.8,alpha=0.5,matrix=,strata=,strata_matrix=global;sel_columns=sex+region;replicate=1"); b.runs[2].ID != w {
		t.Errorf("pram run ID %s, want %s", b.runs[2].ID, w)
	}
	if h := a.Header(); slices.ContainsFunc(h, func(c string) bool { return strings.HasPrefix(c, "param_sel_") }) {
		t.Errorf("header without options %v has a param_sel_ column", h)
	}
	h := b.Header()
	i, j := slices.Index(h, "param_sel_strata"), slices.Index(h, "param_sel_columns")
	if i < 0 || j != i+1 || h[j+1] != "replicate" || slices.Contains(h, "param_sel_keep") {
		t.Errorf("header %v: want param_sel_strata, param_sel_columns before replicate, no param_sel_keep", h)
	}
	c, err := parseSel(t, selSpec(ds, plain, strings.Replace(strat, `"region"`, `"sex"`, 1), pram))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash == b.Hash || b.Hash == c.Hash {
		t.Errorf("hashes %s, %s, %s: the options must change the spec hash", a.Hash, b.Hash, c.Hash)
	}
}

// TestMethodEntryStrataRun runs a stratified and a plain mdav in one spec: the stratified
// run's row equals that of a spec whose dataset entry sets the same strata, and the plain
// run's row equals that of the spec without the stratified entry.
func TestMethodEntryStrataRun(t *testing.T) {
	const ds = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"]}`
	const dsStrata = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"], strata = "region"}`
	plain := "[[methods]]\nname = \"mdav\"\ngrid = {k = 3}"
	strat := "[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}"
	run := func(spec string) *resultsdir.Table {
		t.Helper()
		s, err := parseSel(t, spec)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "res")
		if _, err := Execute(context.Background(), s, Options{Out: out, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		tab, err := resultsdir.ReadRuns(out)
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	both := run(selSpec(ds, plain, strat))
	alone := run(selSpec(ds, plain))
	byData := run(selSpec(dsStrata, plain))
	val := func(tab *resultsdir.Table, row int, col string) string { return tab.Rows[row][tab.Col(col)] }
	if len(both.Rows) != 2 || val(both, 0, "param_sel_strata") != "" || val(both, 1, "param_sel_strata") != "region" {
		t.Fatalf("runs %v: want a plain and a stratified row", both.Rows)
	}
	for r := range 2 {
		if st := val(both, r, "status"); st != "ok" {
			t.Fatalf("row %d: %s %s", r, st, val(both, r, "error"))
		}
	}
	if g, w := val(both, 0, "sse_sst"), val(alone, 0, "sse_sst"); g != w {
		t.Errorf("plain mdav beside the stratified: sse_sst %s, alone %s", g, w)
	}
	if g, w := val(both, 1, "sse_sst"), val(byData, 0, "sse_sst"); g != w || g == val(both, 0, "sse_sst") {
		t.Errorf("stratified mdav (method entry) sse_sst %s, by the dataset entry %s, plain %s: want the first two equal and unlike the third",
			g, w, val(both, 0, "sse_sst"))
	}
}

// TestPreparedShared checks that entries with one selection and column kind share one
// resolved copy of a dataset (issue 25: not one per method).
func TestPreparedShared(t *testing.T) {
	const ds = `{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"]}`
	s, err := parseSel(t, selSpec(ds,
		"[[methods]]\nname = \"mdav\"\ngrid = {k = 3}",
		"[[methods]]\nname = \"noise_additive\"",
		"[[methods]]\nname = \"rankswap\"",
		"[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}",
		"[[methods]]\nname = \"pram\"\ncolumns = [\"sex\"]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.prepared) != 3 {
		t.Errorf("%d resolved selections, want 3 (plain numeric, stratified, PRAM's)", len(s.prepared))
	}
	a, _ := s.Prepared("mine", "mdav")
	b, _ := s.Prepared("mine", "noise_additive")
	c, _ := s.Prepared("mine", "rankswap")
	if a != b || b != c || a == nil {
		t.Errorf("numeric methods on one selection do not share it: %p %p %p", a, b, c)
	}
}

// TestParseGrid checks that the grid is expanded without reading the data: a missing file is
// no error, and runs, IDs, seeds and hash equal Parse's.
func TestParseGrid(t *testing.T) {
	spec := selSpec(`{path = "data/mine.csv", label = "mine", columns = ["income", "expend"], keep = ["id", "region", "sex"]}`,
		"[[methods]]\nname = \"mdav\"\ngrid = {k = [3, 4]}", "[[methods]]\nname = \"mdav\"\nstrata = \"region\"\ngrid = {k = 3}",
		"[[methods]]\nname = \"noise_additive\"\nreplicates = 3")
	full, err := parseSel(t, spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGrid([]byte(spec), filepath.Join(t.TempDir(), "nowhere", "sel.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if g.NumRuns() != 6 || g.Hash != full.Hash {
		t.Errorf("ParseGrid: %d runs, hash %s; want 6 and Parse's %s", g.NumRuns(), g.Hash, full.Hash)
	}
	for i, r := range g.runs {
		if r.ID != full.runs[i].ID || r.Seed != full.runs[i].Seed {
			t.Errorf("run %d: %s/%d, Parse gives %s/%d", i, r.ID, r.Seed, full.runs[i].ID, full.runs[i].Seed)
		}
	}
	if _, err := Parse([]byte(spec), filepath.Join(t.TempDir(), "sel.toml")); err == nil {
		t.Errorf("Parse accepted a spec whose data file is missing")
	}
	if _, err := ParseGrid([]byte(strings.Replace(spec, `"mdav"`, `"nope"`, 1)), "sel.toml"); err == nil {
		t.Errorf("ParseGrid accepted an unknown method")
	}
	if _, err := Execute(context.Background(), g, Options{Out: filepath.Join(t.TempDir(), "res")}); err == nil || !strings.Contains(err.Error(), "ParseGrid") {
		t.Errorf("Execute of a grid without data: %v", err)
	}
}

// TestExampleMethodOptions parses examples/method-options: two mdav variants, noise and PRAM of
// one key share the dataset; PRAM's release is the dataset entry's.
func TestExampleMethodOptions(t *testing.T) {
	s, err := Load(filepath.Join("..", "examples", "method-options", "spec.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Header()
	if !slices.Contains(h, "param_sel_strata") || !slices.Contains(h, "param_sel_columns") || s.NumRuns() != 2+2+10+5 {
		t.Errorf("header %v, %d runs", h, s.NumRuns())
	}
	pr, err := s.Prepared("survey", "pram")
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := s.Prepared("survey", "mdav")
	if !slices.Equal(pr.Protected.Names, []string{"walls"}) || !slices.Equal(pr.Full.Names, plain.Full.Names) {
		t.Errorf("pram protects %v and releases %v; mdav releases %v", pr.Protected.Names, pr.Full.Names, plain.Full.Names)
	}
}
