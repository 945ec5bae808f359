package perturbative

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

// runsTable parses a small runs.csv: dataset, method, param_noise_pct, seed, the metrics,
// seconds, status.
func runsTable(t *testing.T, rows ...string) []*Cell {
	t.Helper()
	data := "dataset,method,param_noise_pct,seed,il1s_sum_sdc,mse,mae,seconds,status\n" + strings.Join(rows, "\n") + "\n"
	tb, err := resultsdir.ParseTable([]byte(data), "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Cells(tb)
	if err != nil {
		t.Fatal(err)
	}
	return cells
}

// Table 28's check 1 compares noise_additive with every unrestricted method of the study's
// table, wrapped ones (revmap) included; restricted releases and the textbook egadp (not in
// the study) are not compared.
func TestTable28LowestEveryUnrestricted(t *testing.T) {
	name := "`noise_additive` 5 %: lowest il1s_sum_sdc, mse, mae of the unrestricted methods, every Table 28 row with and without M.I. (study 6120, 1.290e+10, 73400)"
	base := []string{
		"pt2020_like,noise_additive,5,1,10,100,1,0,ok",
		"pt2020_like,noise_additive,5,2,12,120,3,0,ok",
		"pt2020_like,noise_correlated2,,1,20,200,4,0,ok",
		"pt2020_like,restrict(noise_additive),5,1,1,1,1,0,ok",
		"pt2020_like_s,egadp,,1,1,1,1,0,ok",
	}
	for _, tc := range []struct {
		extra []string
		want  []Verdict
		ev    string
	}{
		{nil, []Verdict{{Table: "Table 28", Item: name, Verdict: "pattern"}},
			"noise_additive: il1s_sum_sdc 11, mse 110, mae 2; lowest of the 18 Table 28 rows on all three"},
		// revmap(noise_additive) lower on il1s and mse, tied on mae: the claim fails.
		{[]string{"pt2020_like,revmap(noise_additive),5,1,5,50,2,0,ok"},
			[]Verdict{{Table: "Table 28", Item: name, Verdict: "not reproduced"}},
			"not lowest: revmap(noise_additive) il1s_sum_sdc 5 ≤ 11, revmap(noise_additive) mse 50 ≤ 110, revmap(noise_additive) mae 2 ≤ 2"},
	} {
		cells := runsTable(t, append(base, tc.extra...)...)
		p := lowestPattern(cells, byMethod(cells, "noise_additive"))
		if !strings.HasSuffix(p.Evidence, tc.ev) {
			t.Errorf("evidence %q, want suffix %q", p.Evidence, tc.ev)
		}
		r := &rec{}
		writePatterns(&bytes.Buffer{}, r, "Table 28", []Pattern{p})
		if !reflect.DeepEqual(r.vs, tc.want) {
			t.Errorf("verdicts %+v, want %+v", r.vs, tc.want)
		}
	}
}

// A reference pattern is recorded as a reference verdict; a skipped one is not recorded.
func TestPatternSources(t *testing.T) {
	r := &rec{}
	var b bytes.Buffer
	writePatterns(&b, r, "Table 34", []Pattern{
		{Name: "a claim of the study", OK: true},
		{Name: "a formula", OK: false, Ref: true},
		{Name: "not run", Skipped: "missing"},
	})
	want := []Verdict{
		{Table: "Table 34", Item: "a claim of the study", Verdict: "pattern"},
		{Table: "Table 34", Item: "a formula", Verdict: "not reproduced", Ref: true},
	}
	if !reflect.DeepEqual(r.vs, want) {
		t.Errorf("verdicts %+v, want %+v", r.vs, want)
	}
	if !strings.Contains(b.String(), "| 2 | a formula | reference |  | ❌ not reproduced |") {
		t.Errorf("report:\n%s", b.String())
	}
}

// The study's items that cannot be reproduced are judged once, in perturbative-table28's
// folder; the other folders print them as context without a verdict.
func TestNotReproducibleOnce(t *testing.T) {
	for _, tc := range []struct {
		experiment string
		want       int
		context    bool
	}{{"perturbative-table28", 3, false}, {"perturbative-analytic", 0, true},
		{"perturbative-restricted", 0, true}, {"perturbative-sweep", 0, true}} {
		r := &rec{}
		var b bytes.Buffer
		writeNotReproducible(&b, r, tc.experiment)
		if len(r.vs) != tc.want {
			t.Errorf("%s: %d verdicts, want %d", tc.experiment, len(r.vs), tc.want)
		}
		for _, v := range r.vs {
			if v != (Verdict{Table: "Morais 2022", Item: v.Item, Verdict: "not reproducible"}) || v.Item == "" {
				t.Errorf("%s: %+v", tc.experiment, v)
			}
		}
		if got := strings.Contains(b.String(), "judged once, in the verdicts of perturbative-table28"); got != tc.context {
			t.Errorf("%s: context line %v, want %v", tc.experiment, got, tc.context)
		}
	}
}

// An sdcMicro agreement cell that is 0 on both sides is printed without a verdict; the others
// are reference verdicts (sdcMicro's output is not printed in the study).
func TestAgreementUninformative(t *testing.T) {
	dir := t.TempDir()
	csv := "dataset,method,metric,reps,mean_sdcmicro,se_sdcmicro,mean_ours,se_ours,z\n" +
		"census,noise_additive,il1s_sum_sdc,20,395.3,0.57,396.0,0.49,0.90\n" +
		"census,rankswap,eigen,20,1.0,0.01,1.2,0.01,14.1\n" +
		"census,rankswap,interval_disclosure,20,0,0,0,0,0\n"
	if err := os.WriteFile(filepath.Join(dir, AgreementFile), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var tl studies.Tally
	if err := (reporter{}).Write(dir, "perturbative-sdcmicro", &tl); err != nil {
		t.Fatal(err)
	}
	want := []resultsdir.VerdictRow{
		{Source: resultsdir.SourceReference, Table: "sdcMicro 5.8.1 agreement", Item: "census noise_additive il1s_sum_sdc", Verdict: resultsdir.Tolerance},
		{Source: resultsdir.SourceReference, Table: "sdcMicro 5.8.1 agreement", Item: "census rankswap eigen", Verdict: resultsdir.NotReproduced},
	}
	if !reflect.DeepEqual(tl.Rows(), want) {
		t.Errorf("verdicts %+v, want %+v", tl.Rows(), want)
	}
	b, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"**1 of 2 informative cells agree (|z| ≤ 3)**; 1 further cells are 0 on both sides",
		"| census | rankswap | interval_disclosure | 20 | 0 ± 0 | 0 ± 0 | 0.00 | — 0 on both sides: uninformative, no verdict |"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("report lacks %q:\n%s", s, b)
		}
	}
}

// Every recorded verdict has an item and its source; a verdict without an item is refused.
func TestRecordSources(t *testing.T) {
	var tl studies.Tally
	err := record(&tl, []Verdict{
		{Table: "Table 28", Item: "a claim", Verdict: "pattern"},
		{Table: "analytic expectations", Item: "a formula", Verdict: "not reproduced", Ref: true},
		{Table: "Table 28", Verdict: "pattern"},
		{Table: "Table 28", Item: "after the refusal", Verdict: "pattern"},
	})
	if err == nil || err.Error() != `a verdict of "Table 28" without an item` {
		t.Errorf("error %v", err)
	}
	want := []resultsdir.VerdictRow{
		{Source: resultsdir.SourceStudy, Table: "Table 28", Item: "a claim", Verdict: resultsdir.Pattern},
		{Source: resultsdir.SourceReference, Table: "analytic expectations", Item: "a formula", Verdict: resultsdir.NotReproduced},
	}
	if !reflect.DeepEqual(tl.Rows(), want) {
		t.Errorf("rows %+v, want %+v", tl.Rows(), want)
	}
}
