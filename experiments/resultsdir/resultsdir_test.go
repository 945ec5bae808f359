package resultsdir

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRunsRoundTrip: a runs table written plain or, above 5 MB, gzipped reads back equal,
// and the writer never leaves both copies.
func TestRunsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	small := &Table{Header: []string{"run_id", "dataset", "status"}, Rows: [][]string{{"a", "x,y", "ok"}, {"b", "\"q\"", "error"}}}
	if err := WriteTable(filepath.Join(dir, RunsFile), small); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRuns(dir)
	if err != nil || !reflect.DeepEqual(got, small) {
		t.Fatalf("plain round trip: %+v, %v", got, err)
	}
	big := &Table{Header: small.Header}
	for i := 0; i*40 <= gzipAbove; i++ {
		big.Rows = append(big.Rows, []string{strings.Repeat("0123456789", 3), "census", "ok"})
	}
	if err := WriteTable(filepath.Join(dir, RunsFile), big); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, RunsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("plain runs.csv kept beside runs.csv.gz")
	}
	if got, err = ReadRuns(dir); err != nil || !reflect.DeepEqual(got, big) {
		t.Fatalf("gzip round trip: %d rows, %v", len(got.Rows), err)
	}
	// small data replaces a stale .gz
	if err := WriteTable(filepath.Join(dir, RunsFile), small); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, RunsFileGz)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("stale runs.csv.gz kept")
	}
	if _, err := ReadRuns(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing runs.csv: error %v, want os.ErrNotExist", err)
	}
}

// TestTornLine: a killed writer's last line without a newline is ignored by readers and
// repaired by the appender, which also unpacks a gzipped runs.csv to append to it.
func TestTornLine(t *testing.T) {
	dir := t.TempDir()
	header := []string{"run_id", "v"}
	os.WriteFile(filepath.Join(dir, RunsFile), []byte("run_id,v\nr1,1\nr2,"), 0o644)
	tab, err := ReadRuns(dir)
	if err != nil || len(tab.Rows) != 1 {
		t.Fatalf("torn line read: %+v, %v", tab, err)
	}
	a, done, err := OpenAppender(dir, header)
	if err != nil {
		t.Fatal(err)
	}
	if !done["r1"] || done["r2"] {
		t.Errorf("done = %v, want r1 only", done)
	}
	if err := a.Append([]string{"r2", "2"}, "r2", [][]string{{"1", "0.5", "0.6", "0.01"}}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if err := Normalize(dir, map[string]int{"r1": 1, "r2": 0}); err != nil {
		t.Fatal(err)
	}
	tab, _ = ReadRuns(dir)
	if want := [][]string{{"r2", "2"}, {"r1", "1"}}; !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("normalized rows %v, want %v", tab.Rows, want)
	}
	tr, err := ReadTable(filepath.Join(dir, TracesFile))
	if err != nil || !reflect.DeepEqual(tr.Header, TracesHeader()) || len(tr.Rows) != 1 || tr.Rows[0][0] != "r2" {
		t.Errorf("traces %+v, %v", tr, err)
	}
	if _, _, err := OpenAppender(dir, []string{"run_id", "w"}); !errors.Is(err, ErrOtherColumns) {
		t.Errorf("other header: error %v, want ErrOtherColumns", err)
	}
}

// TestManifestRoundTrip: a manifest reads back equal, and one without the newer fields (no
// reports) is written without them.
func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Name: "x", SpecHash: "abc", Spec: "name = \"x\"\n", Tool: "0.1.0", GoVersion: "go1",
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), CPUs: 2, OS: "linux", Arch: "amd64",
		Runs: 3, Complete: true, MetricVersions: map[string]int{"il1": 1}, Reports: []string{"X.md"}}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("manifest round trip: %+v, %v", got, err)
	}
	m.Reports = nil
	WriteManifest(dir, m)
	data, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	if bytes.Contains(data, []byte("reports")) || bytes.Contains(data, []byte("finished")) || !bytes.HasSuffix(data, []byte("}\n")) {
		t.Errorf("manifest without reports:\n%s", data)
	}
	if _, err := ReadManifest(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing manifest: error %v, want os.ErrNotExist", err)
	}
	a, b := &Manifest{MetricVersions: map[string]int{"il1": 1}}, &Manifest{MetricVersions: map[string]int{"il1": 2}}
	if SameDefinitions(a, b) == nil || SameDefinitions(a, &Manifest{}) != nil {
		t.Error("SameDefinitions")
	}
}

// TestVerdicts: verdicts.csv round-trips, the vocabulary rejects unknown verdicts and sources
// and empty items on parse, read and write, and no rows means no file.
func TestVerdicts(t *testing.T) {
	for _, v := range Verdicts() {
		if got, err := ParseVerdict(string(v)); err != nil || got != v {
			t.Errorf("ParseVerdict(%q) = %q, %v", v, got, err)
		}
	}
	for _, s := range []string{"", "Exact", "probably", "reproduced"} {
		if _, err := ParseVerdict(s); err == nil || !strings.Contains(err.Error(), "unknown verdict") {
			t.Errorf("ParseVerdict(%q): error %v", s, err)
		}
	}
	dir := t.TempDir()
	rows := []VerdictRow{{"A study", SourceStudy, "Table 1", "cell, a", Exact}, {"A study", SourceReference, "Table 2", "cell b", NotPossible}}
	if err := WriteVerdicts(dir, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadVerdicts(dir)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("verdicts round trip: %+v, %v", got, err)
	}
	if err := WriteVerdicts(dir, []VerdictRow{{"A", SourceStudy, "T", "i", "probably"}}); err == nil {
		t.Error("an unknown verdict was written")
	}
	for _, c := range []struct {
		row  VerdictRow
		want string
	}{
		{VerdictRow{"A", "", "T", "i", Exact}, `unknown verdict source ""`},
		{VerdictRow{"A", "sdcMicro", "T", "i", Exact}, `unknown verdict source "sdcMicro"`},
		{VerdictRow{"A", SourceStudy, "T", "", Exact}, "a verdict without an item"},
	} {
		if err := WriteVerdicts(dir, []VerdictRow{rows[0], c.row}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v written: error %v, want %q", c.row, err, c.want)
		}
	}
	if got, err := ReadVerdicts(dir); err != nil || !reflect.DeepEqual(got, rows) {
		t.Errorf("a refused write changed the file: %+v, %v", got, err)
	}
	for _, c := range []struct{ csv, want string }{
		{"study,source,table,item,verdict\nA,study,T,i,probably\n", `"probably"`},
		{"study,source,table,item,verdict\nA,ours,T,i,exact\n", `unknown verdict source "ours"`},
		{"study,source,table,item,verdict\nA,study,T,,exact\n", "a verdict without an item"},
		{"study,table,item,verdict\nA,T,i,exact\n", "want columns study, source, table, item, verdict"},
	} {
		os.WriteFile(filepath.Join(dir, VerdictsFile), []byte(c.csv), 0o644)
		if _, err := ReadVerdicts(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q read: error %v, want %q", c.csv, err, c.want)
		}
	}
	if err := WriteVerdicts(dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadVerdicts(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no verdicts: error %v, want os.ErrNotExist", err)
	}
}

// TestStudyReport: the Markdown files a study report writes are recorded in the manifest and
// come back as companion reports; other files are not; its verdicts carry the study.
func TestStudyReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteManifest(dir, &Manifest{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("hand-written"), 0o644)
	os.WriteFile(filepath.Join(dir, "OLD.md"), []byte("left alone"), 0o644)
	err := WriteStudyReport(dir, "A study", func() ([]VerdictRow, []string, error) {
		os.WriteFile(filepath.Join(dir, "STUDY.md"), []byte("report"), 0o644)
		os.WriteFile(filepath.Join(dir, "figure.csv"), []byte("not a report"), 0o644)
		return []VerdictRow{{Source: SourceStudy, Table: "T", Item: "i", Verdict: Pattern}}, []string{"STUDY.md"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := CompanionReports(dir); !reflect.DeepEqual(got, []string{"STUDY.md"}) {
		t.Errorf("companion reports %v, want [STUDY.md]", got)
	}
	if v, _ := ReadVerdicts(dir); len(v) != 1 || v[0].Study != "A study" {
		t.Errorf("verdicts %+v", v)
	}
	if err := RecordReports(dir, "reanalysis.md", "STUDY.md"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "reanalysis.md"), nil, 0o644)
	if got, _ := CompanionReports(dir); !reflect.DeepEqual(got, []string{"STUDY.md", "reanalysis.md"}) {
		t.Errorf("companion reports %v", got)
	}
	os.Remove(filepath.Join(dir, "STUDY.md"))
	if got, _ := CompanionReports(dir); !reflect.DeepEqual(got, []string{"reanalysis.md"}) {
		t.Errorf("companion reports after removing STUDY.md: %v", got)
	}
	if err := WriteStudyReport(dir, "A study", func() ([]VerdictRow, []string, error) { return nil, nil, errors.New("boom") }); err == nil {
		t.Error("a failing study report gave no error")
	}
}
