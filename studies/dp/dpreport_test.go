package dp

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/studies"
)

// TestMoments checks est_mean, var_est and their standard errors (§9 "3SE") on a small sample
// computed by hand: v = (1, 2, 3, 4, 10), mean 4, s² = 12.5, m4 = (81+16+1+0+1296)/5.
func TestMoments(t *testing.T) {
	m, s2, seM, seS2 := moments([]float64{1, 2, 3, 4, 10})
	wantSeS2 := math.Sqrt((1394.0/5 - 12.5*12.5*2/4) / 5)
	for i, c := range []struct{ got, want float64 }{{m, 4}, {s2, 12.5}, {seM, math.Sqrt(12.5 / 5)}, {seS2, wantSeS2}} {
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-12, 1e-12) {
			t.Errorf("case %d: got %v, want %v", i, c.got, c.want)
		}
	}
}

// TestWriteE1 writes the E1 report from a small runs.csv and checks its verdicts.
func TestWriteE1(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("run_id,dataset,method,param_mhl_L,param_mhl_proposal,replicate,seed,acc_rate,post_mean,ess,seconds,status,error\n")
	acc := []float64{0.668, 0.622, 0.580, 0.538, 0.500, 0.466, 0.437}
	for i, a := range acc {
		for _, prop := range []string{"rounded_uniform", "discrete_excl"} {
			for rep := 1; rep <= 4; rep++ {
				b.WriteString(strings.Join([]string{"id", "dp_bin_n100_x30", "charest_mhl", itoa(6 + i), prop, itoa(rep), "1",
					ftoa(a + 0.001*float64(rep-2)), "0.31", "50", "0.01", "ok", ""}, ","))
				b.WriteString("\n")
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var tally studies.Tally
	if err := Write(dir, "dp-e1", &tally); err != nil {
		t.Fatal(err)
	}
	if got := len(tally.Rows()); got != 9 {
		t.Errorf("tally has %d verdicts, want 9 (8 within tolerance, 1 pattern)", got)
	}
	ref := 0
	for _, v := range tally.Rows() {
		if !strings.HasPrefix(v.Table, "E1 ") {
			t.Errorf("verdict %+v recorded outside the E1 section", v)
		}
		if v.Source == resultsdir.SourceReference {
			ref++
			if !strings.HasSuffix(v.Item, "acc_rate vs expected") {
				t.Errorf("reference verdict %+v: want the spec's expected rate of one L", v)
			}
		}
	}
	// L = 6 … 12 against the spec's expected rates; L = 11 against the published 0.464 and
	// "decreasing in L" are the dissertation's.
	if ref != 7 {
		t.Errorf("%d reference verdicts, want 7", ref)
	}
	rep, err := os.ReadFile(filepath.Join(dir, "DP.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 11 | 0.464 | 0.466 | 0.467 | within tolerance |", "- within tolerance: 8 (1 study, 7 reference)", "- pattern: 1 (1 study, 0 reference)", "acc_vs_L.png"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("DP.md lacks %q:\n%s", want, rep)
		}
	}
	for _, f := range []string{"acc_vs_L.png", "acc_vs_L.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := Write(dir, "dp-e99", nil); err == nil {
		t.Error("unknown experiment: no error")
	}
}

// TestBundledSpecs checks that every dp-eN spec parses against the registered methods,
// datasets and metrics, and has a report generator.
func TestBundledSpecs(t *testing.T) {
	for i := 1; i <= 10; i++ {
		name := "dp-e" + itoa(i)
		s, err := experiments.Load(name, files)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(s.Expand()) == 0 {
			t.Errorf("%s: empty grid", name)
		}
		if _, ok := generators[name]; !ok {
			t.Errorf("%s: no report generator", name)
		}
	}
}
