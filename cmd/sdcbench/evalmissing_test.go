package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEvalMissingSdcMicro is issue 29's acceptance: eval of sdcMicro 5.8.1's MDAV (k = 3)
// release of eusilcS's nine income columns (metrics/testdata, made by
// metrics/testdata/missing_sdcmicro.R) prints sdcMicro's dUtility IL1s and 100·dRisk to
// 1e-9, and says on stderr how many cells were missing and which measures left records out.
func TestEvalMissingSdcMicro(t *testing.T) {
	dir := t.TempDir()
	gz, err := os.Open(filepath.Join("..", "..", "metrics", "testdata", "eusilcs_mdav3.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	r, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, e, code := sdcbench(t, dir, "eval", "--dataset", "eusilcs",
		"--columns", "netIncome,py010n,py050n,py090n,py100n,py110n,py120n,py130n,py140n",
		"--masked", "m.csv", "--metrics", "il1s_sum_sdc,interval_disclosure,dld")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	got := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		id, v, _ := strings.Cut(line, ",")
		if got[id], err = strconv.ParseFloat(v, 64); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
	// sdcMicro: dUtility(method = "IL1s") 614.60290460194869, dRisk 0.8952665245202559
	for id, want := range map[string]float64{"il1s_sum_sdc": 614.60290460194869, "interval_disclosure": 89.52665245202559} {
		if d := got[id] - want; !(d <= 1e-9 && d >= -1e-9) {
			t.Errorf("%s = %.17g, sdcMicro %.17g", id, got[id], want)
		}
	}
	for _, s := range []string{
		"m.csv: 19827 cells missing in the original and the release (netIncome 2203, py010n 2203,",
		"missing cells: 2203 records left out (complete cases, metrics.md §0.4): dld",
	} {
		if !strings.Contains(e, s) {
			t.Errorf("stderr lacks %q:\n%s", s, e)
		}
	}
	if strings.Contains(e, "where the original has a value") {
		t.Errorf("stderr reports lost cells, the release lost none:\n%s", e)
	}
}

// TestEvalReportsHoles: three cells missing in a release of a complete table are counted per
// column on stderr, every measure stays defined (they skip the cells), and a complete release
// prints nothing on stderr.
func TestEvalReportsHoles(t *testing.T) {
	dir := t.TempDir()
	orig := "a,b,c\n1,2,3\n2,4,1\n3,1,2\n4,3,5\n5,5,4\n6,2,2\n"
	rel := "a,b,c\nNA,2,3\n2,4,1\n3,NA,2\n4,3,5\n5,5,NA\n6,2,2\n"
	for name, s := range map[string]string{"o.csv": orig, "m.csv": rel} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, e, code := sdcbench(t, dir, "eval", "--orig", "o.csv", "--masked", "m.csv", "--metrics", "sse_sst,il1s,eigen,dld,n_suppressed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	if strings.Contains(out, "NaN") {
		t.Errorf("a measure is NaN:\n%s", out)
	}
	for _, s := range []string{
		"eval: m.csv: 3 cells missing where the original has a value (a 1, b 1, c 1)",
		"missing cells: 3 records left out (complete cases, metrics.md §0.4): dld",
	} {
		if !strings.Contains(e, s) {
			t.Errorf("stderr lacks %q:\n%s", s, e)
		}
	}
	if !strings.Contains(out, "n_suppressed,3\n") {
		t.Errorf("n_suppressed is not 3:\n%s", out)
	}
	if _, e, code := sdcbench(t, dir, "eval", "--orig", "o.csv", "--masked", "o.csv", "--metrics", "sse_sst"); code != 0 || e != "" {
		t.Errorf("complete release: exit %d, stderr %q", code, e)
	}
}
