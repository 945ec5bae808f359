package metrics

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mathext"

	"github.com/sdcbench/sdcbench/diag"
)

// TestDPBetaPosterior checks metrics.md §7.5: the exact Beta(31, 71) posterior of the base
// scenario (values computed with R: qbeta, and the HPD by optimize on qbeta).
func TestDPBetaPosterior(t *testing.T) {
	m := NewBetaMixture([]float64{1}, 31, 102)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"mean", m.Mean(), 0.3039215686, 1e-10},
		{"et lo", m.Quantile(0.025), 0.21897873, 1e-8},
		{"et hi", m.Quantile(0.975), 0.39614713, 1e-8},
	} {
		if !scalar.EqualWithinAbs(c.got, c.want, c.tol) {
			t.Errorf("%s: got %.10f, want %.10f", c.name, c.got, c.want)
		}
	}
	lo, hi := m.HPD(0.95)
	if !scalar.EqualWithinAbs(lo, 0.21655421, 1e-8) || !scalar.EqualWithinAbs(hi, 0.39343374, 1e-8) ||
		!scalar.EqualWithinAbs(hi-lo, 0.17687953, 1e-8) {
		t.Errorf("HPD = [%.8f, %.8f], want [0.21655421, 0.39343374]", lo, hi)
	}
	_, flo := m.CDFPDF(lo)
	_, fhi := m.CDFPDF(hi)
	if !scalar.EqualWithinAbs(flo, 1.3179089, 1e-6) || !scalar.EqualWithinAbs(fhi, 1.3179089, 1e-6) {
		t.Errorf("density at the HPD ends = %.7f, %.7f, want 1.3179089", flo, fhi)
	}
}

// TestDPMixtureCDF checks the recurrence of BetaMixture.CDFPDF against direct RegIncBeta sums.
func TestDPMixtureCDF(t *testing.T) {
	w := []float64{0.1, 0.2, 0.3, 0.25, 0.15}
	m := NewBetaMixture(w, 1.5, 12)
	for _, x := range []float64{1e-6, 0.01, 0.2, 0.5, 0.77, 0.999} {
		F, f := m.CDFPDF(x)
		var wantF, wantf float64
		for v, wv := range w {
			a := 1.5 + float64(v)
			wantF += wv * regIncBetaRef(a, 12-a, x)
			wantf += wv * math.Exp((a-1)*math.Log(x)+(12-a-1)*math.Log1p(-x)-lbetaRef(a, 12-a))
		}
		if !scalar.EqualWithinAbsOrRel(F, wantF, 1e-12, 1e-10) || !scalar.EqualWithinAbsOrRel(f, wantf, 1e-12, 1e-10) {
			t.Errorf("t=%v: CDF, PDF = %v, %v; want %v, %v", x, F, f, wantF, wantf)
		}
	}
}

// TestDPDraws checks metrics.md §7.5: HPD and type-7 quantiles from 20 draws at prob 0.8.
func TestDPDraws(t *testing.T) {
	d := []float64{0.31, 0.12, 0.45, 0.28, 0.33, 0.29, 0.52, 0.30, 0.27, 0.35, 0.26, 0.31, 0.90, 0.34, 0.25,
		0.32, 0.29, 0.36, 0.05, 0.30}
	s := slices.Clone(d)
	slices.Sort(s)
	lo, hi := HPDSorted(s, 0.8)
	if lo != 0.25 || hi != 0.52 {
		t.Errorf("HPD = [%v, %v], want [0.25, 0.52]", lo, hi)
	}
	if q := QuantileType7(s, 0.1); !scalar.EqualWithinAbs(q, 0.237, 1e-12) {
		t.Errorf("Q(0.1) = %v, want 0.237", q)
	}
	if q := QuantileType7(s, 0.9); !scalar.EqualWithinAbs(q, 0.457, 1e-12) {
		t.Errorf("Q(0.9) = %v, want 0.457", q)
	}
}

// TestDPESS checks metrics.md §7.5 (Geyer) and dp-synthesis.md §10 item 10 (AR spectrum).
func TestDPESS(t *testing.T) {
	chain := []float64{0.30, 0.32, 0.35, 0.33, 0.31, 0.28, 0.27, 0.29, 0.31, 0.34, 0.36, 0.35, 0.32, 0.30,
		0.29, 0.31, 0.33, 0.32, 0.30, 0.28}
	alt := make([]float64, 20)
	for i := range alt {
		alt[i] = 0.2 + 0.2*float64(i%2)
	}
	y1 := []float64{0.3, 0.1, 0.4, 0.1, 0.5, 0.9, 0.2, 0.6, 0.5, 0.3, 0.5, 0.8, 0.9, 0.7, 0.9, 0.3, 0.2, 0.3, 0.8, 0.4}
	y2 := make([]float64, 100)
	for i := range y2 {
		y2[i] = float64(i % 2)
	}
	y3 := make([]float64, 100)
	for i := range y3 {
		y3[i] = float64((i + 1) % 7)
	}
	for i, c := range []struct {
		got, want, tol float64
	}{
		{ESSGeyer(chain), 9.105370805, 1e-8},
		{ESSGeyer(alt), 20, 0},
		{ESSARSpectrum(y1), 20, 1e-9},
		{ESSARSpectrum(y2), 19698.99, 0.01},
		{ESSARSpectrum(y3), 7323.667, 0.001},
	} {
		if !scalar.EqualWithinAbs(c.got, c.want, c.tol) {
			t.Errorf("case %d: ESS = %.6f, want %v", i, c.got, c.want)
		}
	}
}

// TestDPESSFFT checks that the FFT autocovariances of long chains equal the direct sums.
func TestDPESSFFT(t *testing.T) {
	y := make([]float64, 3000)
	v := 0.0
	for i := range y {
		v = 0.9*v + math.Sin(float64(i)*1.7) + math.Cos(float64(i*i)*0.3)
		y[i] = v
	}
	m := 0.0
	for _, x := range y {
		m += x / float64(len(y))
	}
	d, f := directAcov(y, m), fftAcov(y, m)
	for _, lag := range []int{0, 1, 2, 10, 100, 2999} {
		if !scalar.EqualWithinAbsOrRel(d(lag), f(lag), 1e-10, 1e-9) {
			t.Errorf("lag %d: direct %v, FFT %v", lag, d(lag), f(lag))
		}
	}
}

// TestDPBiasSUSEP checks the bias and rel_bias arithmetic of metrics.md §7.5 on the SUSEP
// tables (targets Table 4.2, estimates Table 4.3; M column, then F).
func TestDPBiasSUSEP(t *testing.T) {
	target := []float64{0.1937, 0.2207, 0.1757, 0.1936, 0.0585, 0.0225, 0.0946, 0.0405}
	est := []float64{0.1885, 0.2203, 0.1679, 0.1853, 0.0573, 0.0375, 0.0951, 0.0480}
	bias := []float64{-0.0052, -0.0004, -0.0078, -0.0083, -0.0012, 0.0150, 0.0005, 0.0075}
	rel := []float64{-0.0268, -0.0018, -0.0444, -0.0429, -0.0205, 0.6667, 0.0053, 0.1852}
	for i := range target {
		in := &Input{Diag: diag.Diagnostics{Posterior: &diag.Posterior{Target: target[i : i+1], Mean: est[i : i+1]}}}
		b := mustDP(t, "bias").Eval(in).Value
		r := mustDP(t, "rel_bias").Eval(in).Value
		if !scalar.EqualWithinAbs(b, bias[i], 1e-4) || !scalar.EqualWithinAbs(r, rel[i], 5e-4) {
			t.Errorf("cell %d: bias %.4f rel %.4f, want %.4f %.4f", i, b, r, bias[i], rel[i])
		}
	}
	in := &Input{Diag: diag.Diagnostics{Posterior: &diag.Posterior{Target: target, Mean: est}}}
	res := mustDP(t, "cat_bias").Eval(in)
	if !scalar.EqualWithinAbs(res.Aux["c6"], 0.0150, 1e-4) || len(res.Aux) != 8 {
		t.Errorf("cat_bias components %v", res.Aux)
	}
}

// TestDPMissingInfo checks that a release without the dp_ keys gives NaN, not a panic.
func TestDPMissingInfo(t *testing.T) {
	for _, id := range []string{"post_mean", "coverage_hpd", "ess", "acc_rate", "cat_post_mean"} {
		if v := mustDP(t, id).Eval(&Input{}).Value; !math.IsNaN(v) {
			t.Errorf("%s without Info = %v, want NaN", id, v)
		}
	}
}

func mustDP(t *testing.T, id string) Metric {
	m, err := Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func lbetaRef(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// regIncBetaRef is gonum's RegIncBeta for one component (the direct sum the recurrence replaces).
func regIncBetaRef(a, b, x float64) float64 { return mathext.RegIncBeta(a, b, x) }
