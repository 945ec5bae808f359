package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/releasereport"
)

func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func readReport(t *testing.T, path string) *releasereport.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r releasereport.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}

// TestProtectReport: protect --report writes the HTML and the JSON report of the release; the
// JSON names the files with their SHA-256, and its risk, linkage and loss equal what eval
// measures on the same two files; the page holds the same numbers; --report-external leaves
// out the per-combination counts and nothing else.
func TestProtectReport(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
	args := []string{"protect", "--method", "mdav", "--param", "k=3", "--in", "mine.csv", "--columns", "income,expend",
		"--keys", "region,sex", "--drop", "id", "--seed", "5", "--out", "m.csv", "--quiet"}
	if _, e, code := sdcbench(t, dir, append(args, "--report", "r.html", "--report", "r.json")...); code != 0 {
		t.Fatalf("protect --report: %s", e)
	}
	r := readReport(t, filepath.Join(dir, "r.json"))
	if r.Input.Path != "mine.csv" || r.Input.SHA256 != sha256File(t, filepath.Join(dir, "mine.csv")) ||
		r.Output.Path != "m.csv" || r.Output.SHA256 != sha256File(t, filepath.Join(dir, "m.csv")) {
		t.Errorf("files: input %+v, output %+v", r.Input, r.Output)
	}
	if r.Seed != 5 || r.Method.Name != "mdav" || r.Variant != "internal" || r.Tool.Name != "sdcbench" || r.Tool.Version == "" ||
		!strings.Contains(r.Command, "--report r.json") {
		t.Errorf("header: seed %d, method %q, variant %q, tool %+v, command %q", r.Seed, r.Method.Name, r.Variant, r.Tool, r.Command)
	}
	roles := map[string]string{}
	for _, c := range r.Columns {
		roles[c.Name] = strings.Join(c.Roles, "+")
	}
	want := map[string]string{"id": "dropped", "region": "passed through+key", "income": "protected", "expend": "protected", "sex": "passed through+key"}
	for c, w := range want {
		if roles[c] != w {
			t.Errorf("column %s: roles %q, want %q", c, roles[c], w)
		}
	}
	// eval on the same files measures the same numbers.
	eval := func(masked, columns, keep, ids string) map[string]float64 {
		t.Helper()
		return evalValues(t, dir, "--orig", "mine.csv", "--masked", masked, "--columns", columns,
			"--keep", keep, "--keys", "region,sex", "--metrics", ids)
	}
	var ids []string
	for _, m := range r.Risk.Measures {
		ids = append(ids, m.ID)
	}
	list := strings.Join(ids, ",")
	before := eval("mine.csv", "income,expend", "region,sex", list)
	after := eval("m.csv", "income,expend", "region,sex", list+",dbrl,dld,interval_disclosure,il1s,sse_sst,eigen_sdc")
	same := func(what string, got releasereport.Num, want float64) {
		if g := float64(got); g != want && !(math.IsNaN(g) && math.IsNaN(want)) {
			t.Errorf("%s: report %v, eval %v", what, g, want)
		}
	}
	for _, m := range r.Risk.Measures {
		same(m.ID+" before", m.Before, before[m.ID])
		same(m.ID+" after", m.After, after[m.ID])
	}
	for _, m := range append(r.Linkage, r.Loss...) {
		if v, ok := after[m.ID]; ok {
			same(m.ID, m.After, v)
		}
	}
	// The page shows the JSON's numbers (the package's tests check every number; here one
	// cell of each section, as written by the command).
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	for key, v := range map[string]releasereport.Num{
		"/risk/measures/0/after": r.Risk.Measures[0].After, "/linkage/0/after": r.Linkage[0].After, "/loss/0/after": r.Loss[0].After,
	} {
		raw, _ := releasereport.Value(v)
		if !regexp.MustCompile(`data-key="` + key + `" data-value="` + regexp.QuoteMeta(raw) + `"`).Match(page) {
			t.Errorf("the page lacks %s = %s", key, raw)
		}
	}
	if r.Risk.Highest == nil || r.Frequencies == nil {
		t.Errorf("the internal report lacks the per-combination counts")
	}

	// --report-external: the same report without the per-combination counts.
	if _, e, code := sdcbench(t, dir, append(args, "--out", "m2.csv", "--report", "x.json", "--report-external")...); code != 0 {
		t.Fatalf("protect --report-external: %s", e)
	}
	x := readReport(t, filepath.Join(dir, "x.json"))
	if x.Variant != "external" || x.Risk.Highest != nil || x.Frequencies != nil {
		t.Errorf("external report: variant %q, highest %v, frequencies %v", x.Variant, x.Risk.Highest, x.Frequencies)
	}
	for i, m := range x.Risk.Measures {
		if m != r.Risk.Measures[i] && !(math.IsNaN(float64(m.After)) && math.IsNaN(float64(r.Risk.Measures[i].After))) {
			t.Errorf("external %s = %+v, internal %+v", m.ID, m, r.Risk.Measures[i])
		}
	}
}

// TestProtectReportRefused: a report path with another extension, or naming the input, the
// release or another report, and --report-external alone are usage errors, before anything is
// written.
func TestProtectReportRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
	os.WriteFile(filepath.Join(dir, "data.htm"), []byte(mixedFile), 0o644) // a CSV file with a report's extension
	base := []string{"protect", "--method", "mdav", "--in", "mine.csv", "--columns", "income,expend", "--out", "m.csv"}
	for _, c := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"extension", []string{"--report", "r.txt"}, `"r.txt": the report's extension picks its format: .html (or .htm) or .json`},
		{"input", []string{"--in", "data.htm", "--report", "data.htm"}, "--report data.htm is also --in"},
		{"twice", []string{"--report", "./r.html", "--report", "r.html"}, "--report r.html is given twice"},
		{"release", []string{"--out", "m.json", "--report", "m.json"}, "--report m.json is also --out"},
		{"external alone", []string{"--report-external"}, "--report-external needs --report FILE.html or FILE.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, e, code := sdcbench(t, dir, append(base, c.extra...)...)
			if code != 2 || !strings.Contains(e, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, e, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "m.csv")); err == nil {
				t.Errorf("the release was written although the command was refused")
			}
		})
	}
}
