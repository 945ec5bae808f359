package main

import (
	"compress/gzip"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEvalPerRecord: `eval --per-record FILE` writes one row per record whose fk, Fk, risk,
// hier_risk, SUDA score, DIS score and per-key contributions equal sdcMicro 5.8.1's on testdata
// (the values of metrics/testdata/perrecord, made by its R script); --per-record works without
// --metrics, and is refused onto an input file.
func TestEvalPerRecord(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "datasets", "data", "testdata.csv"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "rel.csv", string(src))
	args := []string{"eval", "--dataset", "testdata", "--masked", "rel.csv",
		"--keys", "urbrur,roof,walls,water,electcon,relat,sex", "--weight", "sampling_weight", "--household", "ori_hid"}
	out, e, code := sdcbench(t, dir, append(args, "--metrics", "global_risk_er", "--per-record", "risk.csv")...)
	if code != 0 || !strings.HasPrefix(out, "global_risk_er,") {
		t.Fatalf("eval --per-record: exit %d, %q %q", code, out, e)
	}
	got := readCSV(t, filepath.Join(dir, "risk.csv"))
	want := readGzCSV(t, filepath.Join("..", "..", "metrics", "testdata", "perrecord", "testdata.csv.gz"))
	if !slices.Equal(got[0][1:], want[0]) || got[0][0] != "record" || len(got) != len(want) {
		t.Fatalf("header %v (%d rows), want record + %v (%d rows)", got[0], len(got), want[0], len(want))
	}
	for i := 1; i < len(want); i++ {
		if got[i][0] != strconv.Itoa(i) {
			t.Fatalf("row %d numbered %s", i, got[i][0])
		}
		for j, w := range want[i] {
			g, _ := strconv.ParseFloat(got[i][j+1], 64)
			v, _ := strconv.ParseFloat(w, 64)
			if math.Abs(g-v) > 1e-12*max(1, math.Abs(v)) {
				t.Fatalf("record %d %s = %v, sdcMicro %v", i, want[0][j], g, v)
			}
		}
	}
	// without --metrics; no household column: no hier_risk
	if _, e, code := sdcbench(t, dir, "eval", "--dataset", "testdata", "--masked", "rel.csv", "--keys", "urbrur,roof,walls",
		"--per-record", "r2.csv"); code != 0 {
		t.Fatalf("eval --per-record without --metrics: exit %d, %q", code, e)
	}
	if h := readCSV(t, filepath.Join(dir, "r2.csv"))[0]; slices.Contains(h, "hier_risk") || len(h) != 9 {
		t.Errorf("header without --household: %v", h)
	}
	// onto an input
	if _, e, code := sdcbench(t, dir, append(args, "--per-record", "rel.csv")...); code == 0 || !strings.Contains(e, "overwrite") {
		t.Errorf("--per-record onto --masked: exit %d, %q", code, e)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "rel.csv")); string(b) != string(src) {
		t.Error("the release was overwritten")
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func readGzCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
