package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestProtectSummary checks protect's summary against eval on the same files: the risk of the
// original and of the release on the keys, the loss on the protected columns, and the changed
// cells counted from the two files; --quiet prints nothing.
func TestProtectSummary(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte(mixedFile), 0o644)
	_, summary, code := sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=3", "--in", "mine.csv",
		"--columns", "income,expend", "--keys", "region,sex", "--out", "m.csv")
	if code != 0 {
		t.Fatalf("protect: %s", summary)
	}
	eval := func(masked string, ids string) map[string]float64 {
		t.Helper()
		return evalValues(t, dir, "--orig", "mine.csv", "--masked", masked, "--columns", "income,expend",
			"--keep", "id,region,sex", "--keys", "region,sex", "--metrics", ids)
	}
	const risk = "kanon_viol_2,kanon_viol_3,risky_obs,global_risk_er,global_risk_pct"
	before, after := eval("mine.csv", risk), eval("m.csv", risk+",il1s,sse_sst")
	pct := func(v float64) string { return fmtNum(v) + " (" + strconv.FormatFloat(100*v/12, 'f', 3, 64) + " %)" }
	er := func(m map[string]float64) string {
		return fmtNum(m["global_risk_er"]) + " (" + fmtNum(m["global_risk_pct"]) + " %)"
	}
	// The protected cells that differ between the files, counted from their text.
	read := func(name string) [][]string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		var rows [][]string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			f := strings.Split(l, ",")
			rows = append(rows, f[len(f)-3:len(f)-1]) // income, expend (the region label has a comma)
		}
		return rows
	}
	changed := 0
	o, m := read("mine.csv"), read("m.csv")
	for i := range o {
		for j := range o[i] {
			a, _ := strconv.ParseFloat(o[i][j], 64)
			b, _ := strconv.ParseFloat(m[i][j], 64)
			if a != b {
				changed++
			}
		}
	}
	for _, want := range []string{
		"protect: mdav k=3 standardize=zscore on mine.csv, 12 records\n",
		"  protected:      income, expend\n  passed through: id, region, sex\n",
		"  risk on the keys region, sex:\n",
		"records violating 2-anonymity               " + pct(before["kanon_viol_2"]),
		"records violating 3-anonymity               " + pct(before["kanon_viol_3"]),
		pct(after["kanon_viol_3"]) + "\n",
		"records at higher risk than the main part   " + pct(before["risky_obs"]),
		"expected re-identifications (global risk)   " + er(before),
		er(after) + "\n",
		"loss on the numeric protected columns: il1s " + fmtNum(after["il1s"]) + ", SSE/SST " + fmtNum(after["sse_sst"]) + " %\n",
		"protected cells: " + strconv.Itoa(changed) + " of 24 changed (" + strconv.FormatFloat(100*float64(changed)/24, 'f', 3, 64) + " %), 0 suppressed",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if after["il1s"] <= 0 || changed == 0 {
		t.Errorf("il1s %v, %d cells changed: mdav changed nothing", after["il1s"], changed)
	}
	// eval with protect's flags reads the passed-through keys without --keep.
	withKeep, _, _ := sdcbench(t, dir, "eval", "--orig", "mine.csv", "--masked", "m.csv", "--columns", "income,expend",
		"--keep", "id,region,sex", "--keys", "region,sex", "--metrics", risk)
	same, e, code := sdcbench(t, dir, "eval", "--orig", "mine.csv", "--masked", "m.csv", "--columns", "income,expend",
		"--keys", "region,sex", "--metrics", risk)
	if code != 0 || same != withKeep {
		t.Errorf("eval without --keep: exit %d %s\n%s\nwith --keep:\n%s", code, e, same, withKeep)
	}
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=3", "--in", "mine.csv",
		"--columns", "income,expend", "--keys", "region,sex", "--out", "q.csv", "--quiet"); code != 0 || e != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, e)
	}
	// --drop leaves a column out; the others stay in place.
	if _, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--param", "k=3", "--in", "mine.csv",
		"--columns", "income,expend", "--drop", "id", "--out", "d.csv", "--quiet"); code != 0 {
		t.Fatalf("--drop: %s", e)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "d.csv")); !strings.HasPrefix(string(b), "region,income,expend,sex\nNorth,") {
		t.Errorf("--drop id: release starts %q", string(b)[:min(len(b), 40)])
	}
}

func TestChangedCells(t *testing.T) {
	nan := math.NaN()
	orig := datasets.New("o", []string{"x", "c"}, 4, 2, []float64{1, 0, 2, 1, nan, 0, 4, 1})
	orig.Levels = [][]string{nil, {"a", "b"}}
	// the release's levels are in another order: code 0 is "b"
	masked := datasets.New("m", []string{"x", "c"}, 4, 2, []float64{1, 1, 2.5, 1, nan, 0, nan, nan})
	masked.Levels = [][]string{nil, {"b", "a"}}
	// x: row 2 changed (2 → 2.5), row 3 missing in both (unchanged), row 4 suppressed (4 → NA).
	// c by label: row 1 a = a, row 2 b → a and row 3 a → b changed, row 4 b → NA suppressed.
	changed, suppressed, cells := changedCells(orig, masked)
	if changed != 5 || suppressed != 2 || cells != 8 {
		t.Errorf("changedCells = %d changed, %d suppressed of %d; want 5, 2 of 8", changed, suppressed, cells)
	}
}

// evalValues runs `sdcbench eval` in dir with args and returns the measures it printed, one
// "id,value" line each.
func evalValues(t *testing.T, dir string, args ...string) map[string]float64 {
	t.Helper()
	out, e, code := sdcbench(t, dir, append([]string{"eval"}, args...)...)
	if code != 0 {
		t.Fatalf("eval: %s", e)
	}
	vals := map[string]float64{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		id, v, _ := strings.Cut(l, ",")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("eval line %q", l)
		}
		vals[id] = f
	}
	return vals
}
