package perturbative

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/categorical"
)

// TestEusilcsReport runs perturbative-eusilcs (four runs on the embedded eusilcS, about a
// second) and checks the verdicts of EUSILCS.md: 23 of the study's 25 numbers equal ours (the
// two rb090 l-diversity summaries differ), 40 of sdcMicro 5.8.1's 50 values exact, and the
// computed causes of all 10 differences printed (dis_suda_mean is exact since SUDA skips a
// missing key value by default, metrics.md §4.6).
func TestEusilcsReport(t *testing.T) {
	b, err := os.ReadFile("perturbative-eusilcs.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := experiments.Parse(b, "perturbative-eusilcs.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	vs, err := WriteEusilcsVerdicts(dir)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var miss []string
	for _, v := range vs {
		src := "study"
		if v.Ref {
			src = "reference"
		}
		count[src+" "+v.Verdict]++
		if !v.Ref && v.Verdict != Exact {
			miss = append(miss, v.Item)
		}
	}
	want := map[string]int{"study exact": 23, "study not reproduced": 2, "reference exact": 40, "reference not reproduced": 10}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d verdicts, want %d (all: %v)", k, count[k], n, count)
		}
	}
	if got := strings.Join(miss, "; "); got != "Code 26: rb090 distinct l-diversity: 1st quartile; Code 26: rb090 distinct l-diversity: mean" {
		t.Errorf("study items not reproduced: %s", got)
	}
	rep, err := os.ReadFile(filepath.Join(dir, EusilcsFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rep), "cause is not established") {
		t.Error("EUSILCS.md has a difference without a computed cause")
	}
	for _, want := range []string{
		"but its numbers are those of the keys **pl030, pb220a, hsize, age** (section 3, computed)",
		"ours with the printed keys db040, pb220a, hsize, age equal 0; with pl030 in place of db040 they equal 13",
		"study's 4 of 4 to the 5 printed decimals",
		"| each record with a missing key alone (sdcMicro before its 5.8.2 rewrite) | 1 / 1 / 7 / 12.9574 / 21 / 70 | 1 / 1 / 2 / 1.58959 / 2 / 2 | 12 of 12 | 5 of 12 |",
		"The study's summaries are those of the second rule and of no other",
		"sdcMicro 5.8.1's summaries are those of the third rule",
		"Explained differences (1): printed dis_suda_max (0.06778141234 with that rule)",
		"| 26 | 2-anonymity violations | 939 | 939 | equal to the printed digits | 1254 |",
	} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("EUSILCS.md lacks %q", want)
		}
	}
}

// TestLdivUnder checks the three class rules on a 6-record table: key k, sensitive s; records
// 3-5 have a missing key, records 4 and 5 a missing s.
func TestLdivUnder(t *testing.T) {
	nan := math.NaN()
	d := datasets.New("t", []string{"k", "s"}, 6, 2, []float64{1, 10, 1, 20, 2, 10, nan, 10, nan, nan, nan, nan})
	for _, c := range []struct {
		rule LdivRule
		want []float64
	}{
		{LdivRule{}, []float64{2, 2, 1, 2, 2, 2}},
		{LdivRule{MissingKeyAlone: true}, []float64{2, 2, 1, 1, 1, 1}},
		{LdivRule{MissingSensDistinct: true}, []float64{2, 2, 1, 3, 3, 3}},
	} {
		l, err := LdivUnder(d, []string{"k"}, "s", c.rule)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l, c.want) {
			t.Errorf("%+v: l = %v, want %v", c.rule, l, c.want)
		}
	}
	if s := ldivSummary([]float64{1, 2, 4, 8}); s != [6]float64{1, 1.75, 3, 3.75, 5, 8} {
		t.Errorf("ldivSummary = %v", s)
	}
}
