package fcrm

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

func TestSpearman(t *testing.T) {
	cases := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// ties get average ranks: ranks y = (1.5, 1.5, 3, 4), Pearson with (1, 2, 3, 4) = 0.9486833
		{[]float64{1, 2, 3, 4}, []float64{5, 5, 6, 7}, 0.9486832980505138},
	}
	for _, c := range cases {
		if got := Spearman(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// The study's SCORE identity holds on every row of Tables 5–8 (README.md).
func TestSeedScoreIdentity(t *testing.T) {
	for name, tab := range map[string][]SeedRow{"5": Table5(), "6": Table6(), "7": Table7()} {
		tol := 0.001
		if name == "5" {
			tol = 0.01
		}
		for _, r := range tab {
			if d := math.Abs((r.PIL+r.DR)/2 - r.Score); d > tol+1e-12 {
				t.Errorf("Table %s %s: (PIL + DR)/2 − SCORE = %g", name, r.Label, d)
			}
		}
	}
	for c, rows := range Table8() {
		for n, r := range rows {
			if d := math.Abs((r[0]+r[1])/2 - r[2]); d > 1e-7 {
				t.Errorf("Table 8 c=%d n=%d: identity off by %g", c, n+1, d)
			}
		}
	}
}

// End to end on the CI spec: the report is written, with its table and plots.
func TestWriteSmall(t *testing.T) {
	s, err := experiments.Load("fcrm-small", files)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), s, experiments.Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "FCRM.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| fcrm c=2 |", "| ipso_c |", "plots/fcrm_pil_dr_vs_c.png", "P1 PIL falls with c"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("FCRM.md lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "fcrm_pil_vs_dr.png")); err != nil {
		t.Error(err)
	}
}

// TestPublishedTables: Tables 5–8 read from their expected.csv files, every row.
func TestPublishedTables(t *testing.T) {
	if len(Table5()) != 9 || len(Table6()) != 17 || len(Table7()) != 23 || len(Table8()) != 2 {
		t.Fatalf("rows: %d, %d, %d, %d c values", len(Table5()), len(Table6()), len(Table7()), len(Table8()))
	}
	if r := Table7()[6]; r.Label != "c=10" || r.C != 10 || r.FO != 9.917e-06 || r.Score != 29.209 {
		t.Errorf("Table7[6] = %+v", r)
	}
	if Table8()[4][18] != [3]float64{17.4605634, 20.3484739, 18.90451865} || Table8()[2][0][0] != 63.96063083 {
		t.Errorf("Table8: %v, %v", Table8()[4][18], Table8()[2][0])
	}
}
