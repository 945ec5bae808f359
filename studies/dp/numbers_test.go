package dp

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/sdcbench/sdcbench/studies"
)

// TestPublishedNumbers checks dissertation.expected.csv and spec.reference.csv: their row counts
// and some values of each.
func TestPublishedNumbers(t *testing.T) {
	for _, c := range []struct {
		name string
		rows int
	}{{"dissertation.expected.csv", 146}, {"spec.reference.csv", 154}} {
		if _, rows, err := studies.ReadCSV(files, c.name); err != nil || len(rows) != c.rows {
			t.Errorf("%s: %d rows (%v), want %d", c.name, len(rows), err, c.rows)
		}
	}
	if e1Seed() != 0.464 || e1Exp()[5] != 0.466 {
		t.Errorf("Fig. 3.1: seed %v, expected at L = 11 %v", e1Seed(), e1Exp()[5])
	}
	if v := e2SeedE()["charest_mhl"][3]; v != 0.3661 {
		t.Errorf("Table 3.1 Metropolis M = 10: %v, want 0.3661", v)
	}
	if v := e2SeedESS()["charest_exact"]; v[1] != 897 || v[3] != 484 {
		t.Errorf("Table 3.3 JAGS: %v", v)
	}
	if e2ExpV()[3] != 0.01677 || e2BandV()[3] != 0.00217 || !math.IsNaN(reference().band("Table 3.2", "post_var_mean", 4)[0]) {
		t.Errorf("Table 3.2 expected M = 10: %v ± %v", e2ExpV()[3], e2BandV()[3])
	}
	if e1ExpX() != 0.430 || e2ExpESS()["ar_spectrum Metropolis"][3] != 233 || e2Time()["Gibbs"][0] != 2.22 || e2Time()["JAGS"][1] != 214 {
		t.Errorf("Fig. 3.1, Tables 3.3–3.4: %v %v %v", e1ExpX(), e2ExpESS(), e2Time())
	}
	if e3Seed() != 98 || e3ExpCov() != 96.67 || e3BandCov() != 1.7 {
		t.Errorf("Figs 3.2–3.3: seed %v, expected %v ± %v", e3Seed(), e3ExpCov(), e3BandCov())
	}
	if e4SeedV()[0] != 0.0360 || e4ExpCov()[0] != 100 || e4BandE()[5] != 0.0058 {
		t.Errorf("Table 3.5: seed Var %v, coverage %v, band %v", e4SeedV()[0], e4ExpCov()[0], e4BandE()[5])
	}
	if c := e5Cells()[3]; c.n != 1000 || c.M != 5 || c.s01 != 0.050 || c.e01 != 0.0398 || c.b01 != 0.0018 || c.s99 != 0.949 {
		t.Errorf("Table 3.6 (1000,1000) M = 5: %+v", c)
	}
	if _, e6SeedV, e6RefE, _ := e6Data(); e6SeedV[1000][0] != 0.0102 || e6RefE["500printed"][3] != 0.058 {
		t.Errorf("Table 3.7: seed Var %v, reference %v", e6SeedV[1000], e6RefE["500printed"])
	}
	if e3ExpCovET() != 97.97 || e3ExpWidth() != 0.3505 || e4ExpPr() != 0.404 || e8RefAlg6()[0] != 0.935 || e8RefPrinted()[3] != 0.028 {
		t.Errorf("Figs 3.2–3.3, Tables 3.5, 3.9: %v %v %v %v %v", e3ExpCovET(), e3ExpWidth(), e4ExpPr(), e8RefAlg6(), e8RefPrinted())
	}
	if susepT()[6] != 0.1936 || susepB()[0] != -0.0052 || susepRB()[3] != 0.6667 || susepRefPC()[7] != 0.0840 {
		t.Errorf("Tables 4.2–4.5: %v %v %v %v", susepT(), susepB(), susepRB(), susepRefPC())
	}
}

// TestReadNumbers checks the errors of readNumbers.
func TestReadNumbers(t *testing.T) {
	fsys := fstest.MapFS{
		"head.csv": {Data: []byte("table,item,value\nT,a,1\n")},
		"num.csv":  {Data: []byte("table,item,column,value\nT,a,c,x\n")},
		"ok.csv":   {Data: []byte("table,item,column,value,band\nT,a,c1,1,0.5\nT,a,c2,2,\n")},
	}
	for _, name := range []string{"head.csv", "num.csv", "missing.csv"} {
		if _, err := readNumbers(fsys, name); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	n, err := readNumbers(fsys, "ok.csv")
	if err != nil {
		t.Fatal(err)
	}
	if v, b := n.get("T", "a", 2), n.band("T", "a", 2); v[1] != 2 || b[0] != 0.5 || !math.IsNaN(b[1]) {
		t.Errorf("values %v, bands %v", v, b)
	}
	defer func() {
		if recover() == nil {
			t.Error("a wrong number of cells does not panic")
		}
	}()
	n.get("T", "a", 3)
}
