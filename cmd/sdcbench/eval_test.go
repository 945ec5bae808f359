package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/metrics"
)

// evalIn runs eval in this process (the tests below run it hundreds of times) and returns its
// standard output, standard error and error.
func evalIn(args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	err := runEval(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// keysCSV returns a random release or original of n records for the risk measures: text keys
// (region, with labels the other draws may lack), numeric keys (sex, age), a sampling weight w,
// a household id h and a sensitive column s, with a share miss of missing key and sensitive
// cells (NA or empty), and a numeric column x. Ages hold −0 beside 0, which the key tables
// tell apart only once the column is read as categories.
func keysCSV(rng *rand.Rand, n int, miss float64) string {
	var b strings.Builder
	b.WriteString("id,region,sex,age,w,h,s,x\n")
	cell := func(v string) string {
		if rng.Float64() < miss {
			return []string{"NA", ""}[rng.IntN(2)]
		}
		return v
	}
	regions := []string{"North", "South", "East", "West", "Centre"}
	ages := []string{"-0", "0", "10", "20", "30", "40", "50"} // −0: a category of its own once categorical
	h := 1
	for i := 0; i < n; i++ {
		if rng.IntN(3) == 0 {
			h++
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%.3f,%d,%s,%.4f\n", i+1,
			cell(regions[rng.IntN(1+rng.IntN(len(regions)))]),
			cell(fmt.Sprint(1+rng.IntN(2))),
			cell(ages[rng.IntN(len(ages))]),
			1+99*rng.Float64(), h,
			cell(fmt.Sprint(rng.IntN(4))),
			rng.NormFloat64())
	}
	return b.String()
}

// releaseOnlyIDs returns the IDs of the measures of the release alone.
func releaseOnlyIDs() []string {
	var ids []string
	for _, in := range metrics.List() {
		if in.ReleaseOnly {
			ids = append(ids, in.ID)
		}
	}
	return ids
}

// TestEvalReleaseAloneMatchesPair: every measure of the release alone (metrics.Info.ReleaseOnly)
// and the per-record file give the same output, byte for byte, from `eval --masked F` alone as
// from `eval --orig F --masked F` (read once), from `eval --orig F --masked G` with G a copy of F
// (two readings, eval's way before the release could be read alone), and from an original other
// than the release (its labels differ, so the release's category codes differ): on random
// tables with missing keys and sensitive values, with and without a weight, with a household,
// keys given in another order than the file's, and no --keys (every column but the roles).
func TestEvalReleaseAloneMatchesPair(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	ids := strings.Join(releaseOnlyIDs(), ",")
	rng := rand.New(rand.NewPCG(16, 1))
	for it := 0; it < 8; it++ {
		n := 30 + rng.IntN(300)
		miss := []float64{0, 0.03, 0.2, 0}[it%4]
		rel := keysCSV(rng, n, miss)
		writeFile(t, dir, "rel.csv", rel)
		writeFile(t, dir, "copy.csv", rel)
		writeFile(t, dir, "orig.csv", keysCSV(rng, n, miss))
		sel := [][]string{
			{"--keys", "sex,region,age", "--weight", "w", "--household", "h", "--sensitive", "s"},
			{"--keys", "region,age", "--sensitive", "s", "--categorical", "x"},
			{"--keys", "age,sex", "--weight", "w", "--household", "h", "--sensitive", "s", "--metric-opt", "modrisk_formula=sex*age"},
		}[it%3]
		if it == 7 { // no --keys: the keys are every column but the roles (a small table for SUDA)
			lines := strings.Split(strings.TrimSuffix(rel, "\n"), "\n")
			for i, l := range lines { // without x and id
				l = l[strings.IndexByte(l, ',')+1:]
				lines[i] = l[:strings.LastIndexByte(l, ',')]
			}
			writeFile(t, dir, "rel.csv", strings.Join(lines, "\n")+"\n")
			sel = []string{"--weight", "w", "--household", "h", "--sensitive", "s"}
		}
		run := func(name string, pair ...string) (string, string) {
			t.Helper()
			args := append(append(pair, sel...), "--metrics", ids, "--per-record", path(name+".risk.csv"))
			out, _, err := evalIn(args...)
			if err != nil {
				t.Fatalf("it %d: eval %s: %v", it, name, err)
			}
			pr, err := os.ReadFile(path(name + ".risk.csv"))
			if err != nil {
				t.Fatal(err)
			}
			return out, string(pr)
		}
		if it == 7 {
			alone, aloneRisk := run("alone", "--masked", path("rel.csv"))
			same, sameRisk := run("same", "--orig", path("rel.csv"), "--masked", path("rel.csv"))
			if alone != same || aloneRisk != sameRisk {
				t.Fatalf("it %d: without --keys, alone:\n%s\nwith the same file as original:\n%s", it, alone, same)
			}
			continue
		}
		two, twoRisk := run("two", "--orig", path("copy.csv"), "--masked", path("rel.csv"))
		for _, c := range []struct {
			name string
			args []string
		}{
			{"alone", []string{"--masked", path("rel.csv")}},
			{"same", []string{"--orig", path("rel.csv"), "--masked", path("rel.csv")}},
			{"other", []string{"--orig", path("orig.csv"), "--masked", path("rel.csv")}},
		} {
			got, gotRisk := run(c.name, c.args...)
			if got != two {
				t.Fatalf("it %d (%v): %s:\n%s\nread twice:\n%s", it, sel, c.name, got, two)
			}
			if gotRisk != twoRisk {
				t.Fatalf("it %d (%v): %s: the per-record file differs", it, sel, c.name)
			}
		}
		if !strings.Contains(two, "\nldiv_distinct_mean,") || !strings.Contains(two, "\nind_risk_mean,0.") {
			t.Fatalf("it %d: output without the measures' values: %s", it, two)
		}
	}
}

// TestEvalSameFileReadOnce: with --orig and --masked naming the same file (also through a
// symbolic link), eval reads it once and shares the table between the original and the
// release; every registered measure gives the output, notes included, of a second reading
// from a copy of the file, on a mixed table with missing cells.
func TestEvalSameFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	data := keysCSV(rand.New(rand.NewPCG(16, 2)), 60, 0.05)
	writeFile(t, dir, "f.csv", data)
	writeFile(t, dir, "g.csv", data)
	if err := os.Symlink(path("f.csv"), path("link.csv")); err != nil {
		t.Fatal(err)
	}
	sel := []string{"--keys", "region,sex", "--weight", "w", "--household", "h", "--sensitive", "s", "--keep", "id"}
	for _, in := range metrics.List() {
		run := func(masked string) (string, string) {
			out, errs, err := evalIn(append([]string{"--orig", path("f.csv"), "--masked", masked, "--metrics", in.ID}, sel...)...)
			if err != nil {
				errs += "error: " + err.Error()
			}
			return out, strings.ReplaceAll(errs, masked, "MASKED")
		}
		two, twoErr := run(path("g.csv"))
		for _, m := range []string{path("f.csv"), path("link.csv")} {
			if got, gotErr := run(m); got != two || gotErr != twoErr {
				t.Errorf("%s, --masked %s: %q %q; read twice: %q %q", in.ID, filepath.Base(m), got, gotErr, two, twoErr)
			}
		}
	}
}

// TestEvalReleaseAloneErrors: without an original, a measure that needs one is a usage error
// naming it and the measures that do not; so are --columns, --keep, --strata and --control;
// a missing role column names the file; the missing cells are reported.
func TestEvalReleaseAloneErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "rel.csv", "k1,k2,w\n1,a,2.5\n2,NA,3\n1,b,1\n")
	for _, c := range []struct {
		args    []string
		mention []string
	}{
		{[]string{"--metrics", "ind_risk_mean,sse_sst,il1s"}, []string{"sse_sst, il1s compare", "--orig FILE", "ind_risk_*", "ldiv_distinct_*"}},
		{[]string{"--metrics", "dld"}, []string{"dld compares", "--dataset NAME"}},
		{[]string{"--metrics", "ind_risk_mean", "--keep", "w"}, []string{"--keep"}},
		{[]string{"--metrics", "ind_risk_mean", "--columns", "k1"}, []string{"--columns"}},
		{[]string{"--metrics", "ind_risk_mean", "--strata", "k1"}, []string{"--strata"}},
		{[]string{"--metrics", "ind_risk_mean", "--control", "rel.csv"}, []string{"--control"}},
		{[]string{"--metrics", "ind_risk_mean", "--weight", "v"}, []string{"--weight v", "rel.csv", "k1, k2, w"}},
		{[]string{"--metrics", "ind_risk_mean", "--keys", "k1,k9"}, []string{"k9"}},
	} {
		out, e, code := sdcbench(t, dir, append([]string{"eval", "--masked", "rel.csv"}, c.args...)...)
		if code == 0 || out != "" {
			t.Errorf("%v: exit %d, %q", c.args, code, out)
		}
		for _, m := range c.mention {
			if !strings.Contains(e, m) {
				t.Errorf("%v: %q lacks %q", c.args, e, m)
			}
		}
	}
	out, e, code := sdcbench(t, dir, "eval", "--masked", "rel.csv", "--keys", "k1,k2", "--weight", "w", "--metrics", "kanon_viol_2,ind_risk_max")
	if code != 0 || out != "kanon_viol_2,3\nkanon_viol_2_pct,100\nind_risk_max,1\n" {
		t.Fatalf("eval of the release alone: exit %d, %q %q", code, out, e)
	}
	if !strings.Contains(e, "rel.csv: 1 cells missing in the release (k2 1)") {
		t.Errorf("missing cells not reported: %q", e)
	}
}
