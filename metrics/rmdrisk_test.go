package metrics_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestRMDRiskTarragona checks rmd_risk1/2 against sdcMicro 5.8.1's dRiskRMD on Tarragona
// releases of its own microaggregation: covMcd is random in R (dRiskRMD does not seed it), so
// the reference is the range over set.seed(1..20); ours must fall inside it.
func TestRMDRiskTarragona(t *testing.T) {
	d, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		method     string
		k          int
		r1lo, r1hi float64
		r2lo, r2hi float64
	}{
		{"ma_mdav", 3, 36.9305, 38.0096, 0, 0},
		{"ma_mdav", 10, 25.4197, 25.7794, 0, 0},
		{"ma_pca_sdc", 3, 28.7770, 29.3765, 0, 0},
		{"ma_pca_sdc", 10, 21.3429, 21.5827, 0, 0},
		{"ma_onedims_sdc", 3, 100, 100, 99.5204, 99.5204},
		{"ma_onedims_sdc", 10, 53.4772, 53.7170, 53.4772, 53.7170},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/k=%d", c.method, c.k), func(t *testing.T) {
			m, err := methods.Lookup(c.method)
			if err != nil {
				t.Fatal(err)
			}
			p, err := m.Info().Resolve(map[string]string{"k": fmt.Sprint(c.k)})
			if err != nil {
				t.Fatal(err)
			}
			rel, err := m.Protect(context.Background(), d, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			r1, r2 := metrics.RMDRisk(&metrics.Input{Orig: d, Masked: rel.Masked})
			t.Logf("risk1 %.4f (R %.4f–%.4f), risk2 %.4f (R %.4f–%.4f)", r1, c.r1lo, c.r1hi, r2, c.r2lo, c.r2hi)
			if r1 < c.r1lo-5e-5 || r1 > c.r1hi+5e-5 || r2 < c.r2lo-5e-5 || r2 > c.r2hi+5e-5 {
				t.Errorf("outside sdcMicro's range")
			}
		})
	}
}

// TestRMDRiskVector is an exact test vector from sdcMicro 5.8.1's dRiskRMD (identical over
// set.seed(1..30), so covMcd's subset is not in doubt): n = 120, p = 3,
// x_i = (37i mod 101, 53i mod 97 + 11i mod 13, i² mod 89) with rows 2, 4, …, 20 copies of
// rows 1, 3, …, 19, and x'_ij = x_ij + 0.02·((7i + 3j) mod 11 − 5) (i, j 1-based). Set 1 has
// 73 records (60.8333 %), set 2 has 62 (51.6667 %; the copied pairs stay within k2).
func TestRMDRiskVector(t *testing.T) {
	const n, p = 120, 3
	x := make([]float64, n*p)
	for i := 1; i <= n; i++ {
		r := x[(i-1)*p : i*p]
		r[0], r[1], r[2] = float64(37*i%101), float64(53*i%97+11*i%13), float64(i*i%89)
	}
	for i := 2; i <= 20; i += 2 {
		copy(x[(i-1)*p:i*p], x[(i-2)*p:(i-1)*p])
	}
	xm := make([]float64, n*p)
	for i := 1; i <= n; i++ {
		for j := 1; j <= p; j++ {
			xm[(i-1)*p+j-1] = x[(i-1)*p+j-1] + float64((7*i+3*j)%11-5)*0.02
		}
	}
	names := []string{"a", "b", "c"}
	in := &metrics.Input{Orig: datasets.New("v", names, n, p, x), Masked: datasets.New("v", names, n, p, xm)}
	r1, r2 := metrics.RMDRisk(in)
	if r1 != 100*73.0/120 || r2 != 100*62.0/120 {
		t.Errorf("rmd_risk = %.6f, %.6f; want %.6f, %.6f", r1, r2, 100*73.0/120, 100*62.0/120)
	}
}

// TestRMDRiskProperties checks invariants: X and X' are scaled by their own statistics, so a
// release that is an increasing affine map of each original column puts every record in set
// 1 (x'_s = x_s lies strictly inside its window), and set 2 then holds the records with no
// other record within 0.05; a release with a constant column stays defined.
func TestRMDRiskProperties(t *testing.T) {
	d, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	n, p := d.N, d.P
	aff := make([]float64, n*p)
	for i, v := range d.Data {
		aff[i] = 3*v + 7
	}
	r1, r2 := metrics.RMDRisk(&metrics.Input{Orig: d, Masked: datasets.New(d.Name, d.Names, n, p, aff)})
	if r1 != 100 {
		t.Errorf("affine release: rmd_risk1 = %v, want 100", r1)
	}
	if !(r2 > 0 && r2 <= r1) {
		t.Errorf("affine release: rmd_risk2 = %v, want in (0, rmd_risk1]", r2)
	}
	cst := append([]float64(nil), d.Data...)
	for i := 0; i < n; i++ {
		cst[i*p] = 1
	}
	c1, c2 := metrics.RMDRisk(&metrics.Input{Orig: d, Masked: datasets.New(d.Name, d.Names, n, p, cst)})
	if !(c1 > 0 && c1 <= 100 && c2 >= 0 && c2 <= c1) {
		t.Errorf("constant released column: rmd_risk = %v, %v", c1, c2)
	}
	t.Logf("affine: %.4f / %.4f; constant column: %.4f / %.4f", r1, r2, c1, c2)
}
