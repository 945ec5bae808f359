package perturb

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"gonum.org/v1/gonum/stat"
)

// randomData draws n records of p correlated, skewed, zero-inflated columns plus two predictor
// columns: a 4-level code "g" and a numeric "s".
func randomData(seed uint64, n, p int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	names := []string{}
	for j := 0; j < p; j++ {
		names = append(names, string(rune('a'+j)))
	}
	names = append(names, "g", "s")
	q := p + 2
	data := make([]float64, n*q)
	for i := 0; i < n; i++ {
		g := float64(rng.IntN(4))
		s := rng.NormFloat64()
		common := rng.NormFloat64()
		for j := 0; j < p; j++ {
			v := math.Exp(1 + 0.5*common + 0.6*rng.NormFloat64() + 0.2*g + 0.3*s*float64(j%2))
			if rng.Float64() < 0.2 {
				v = 0
			}
			data[i*q+j] = math.Round(v*100) / 100
		}
		data[i*q+p] = g + 1
		data[i*q+p+1] = s
	}
	return datasets.New("rand", names, n, q, data)
}

func protect(t *testing.T, name string, d *datasets.Dataset, raw map[string]string, seed uint64) *datasets.Dataset {
	t.Helper()
	m, p := resolve(t, name, raw)
	rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(seed, 11)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if rel.Masked.N != d.N || rel.Masked.P != d.P {
		t.Fatalf("%s: shape %d×%d", name, rel.Masked.N, rel.Masked.P)
	}
	return rel.Masked
}

func meanSD(v []float64) (float64, float64) { return stat.MeanStdDev(v, nil) }

// within reports whether got is within 4 standard errors of want.
func within(got, want, se float64) bool { return math.Abs(got-want) <= 4*se }

// TestAdditiveMoments: y − x has mean 0 and SD w·sd_j (§5 mse/il1s/mae formulas follow).
func TestAdditiveMoments(t *testing.T) {
	d := randomData(1, 20000, 3)
	for _, w := range []float64{0.05, 0.5} {
		y := protect(t, "noise_additive", d, map[string]string{"noise_pct": fmtF(100 * w)}, 2)
		y0 := protect(t, "noise_additive0", d, map[string]string{"noise_pct": fmtF(100 * w)}, 2)
		for j := 0; j < 3; j++ {
			x := d.Col(j)
			_, sd := meanSD(x)
			e := diff(y.Col(j), x)
			m, s := meanSD(e)
			n := float64(len(e))
			if !within(m, 0, w*sd/math.Sqrt(n)) || !within(s, w*sd, w*sd/math.Sqrt(2*n)) {
				t.Errorf("w %g col %d: noise mean %g sd %g, want 0 and %g", w, j, m, s, w*sd)
			}
			// E|e| = w·sd·√(2/π) (the mae and il1s formulas).
			var abs float64
			for _, v := range e {
				abs += math.Abs(v)
			}
			abs /= n
			if want := w * sd * math.Sqrt(2/math.Pi); !within(abs, want, w*sd*math.Sqrt(1-2/math.Pi)/math.Sqrt(n)) {
				t.Errorf("w %g col %d: mean |e| %g, want %g", w, j, abs, want)
			}
			// additive0: zeros kept, the other cells identical to additive (same stream).
			for i, xv := range x {
				got := y0.At(i, j)
				if xv == 0 && got != 0 || xv != 0 && got != y.At(i, j) {
					t.Fatalf("additive0 cell (%d,%d): x %g y %g additive %g", i, j, xv, got, y.At(i, j))
				}
			}
		}
	}
}

func fmtF(v float64) string { return stringsF(v) }

func diff(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// TestCorrelated2Moments: means and variances kept, covariances × (1−δ²), SD of y − x = w*·sd.
func TestCorrelated2Moments(t *testing.T) {
	d := randomData(3, 40000, 3)
	delta := 0.3
	y := protect(t, "noise_correlated2", d, map[string]string{"delta": "0.3", "noise_pct": "30"}, 4)
	wstar := math.Sqrt(delta*delta + math.Pow(1-math.Sqrt(1-delta*delta), 2))
	n := float64(d.N)
	for j := 0; j < 3; j++ {
		x := d.Col(j)
		mx, sx := meanSD(x)
		my, sy := meanSD(y.Col(j))
		if !within(my, mx, delta*sx/math.Sqrt(n)) {
			t.Errorf("col %d: mean %g, want %g", j, my, mx)
		}
		// Var(y) − Var(x) has SE ≈ δ²·sd²·√(2/n) + cross terms; use the noise's own SE.
		if !within(sy*sy, sx*sx, 2*delta*sx*sx*math.Sqrt(2/n)) {
			t.Errorf("col %d: var %g, want %g", j, sy*sy, sx*sx)
		}
		// y − x = δ(g − μ) − (1−d)(x − μ): compare with the x-part removed.
		e := diff(y.Col(j), x)
		dd := math.Sqrt(1 - delta*delta)
		for i := range e {
			e[i] += (1 - dd) * (x[i] - mx)
		}
		_, se := meanSD(e)
		if !within(se, delta*sx, delta*sx/math.Sqrt(2*n)) {
			t.Errorf("col %d: sd of δ(g−μ) = %g, want %g", j, se, delta*sx)
		}
		_ = wstar
	}
	cx := stat.Covariance(d.Col(0), d.Col(1), nil)
	cy := stat.Covariance(y.Col(0), y.Col(1), nil)
	_, s0 := meanSD(d.Col(0))
	_, s1 := meanSD(d.Col(1))
	if !within(cy, (1-delta*delta)*cx, 2*delta*s0*s1/math.Sqrt(n)) {
		t.Errorf("cov(y0,y1) = %g, want (1−δ²)·%g = %g", cy, cx, (1-delta*delta)*cx)
	}
}

// TestCorrelatedCovariance: cov(Y − X) = v·Σ̂ and correlations of the noise equal cor(X).
func TestCorrelatedCovariance(t *testing.T) {
	d0 := randomData(5, 30000, 3)
	d, _ := d0.Select([]string{"a", "b", "c"})
	y := protect(t, "noise_correlated", d, map[string]string{"noise_pct": "20"}, 6)
	n := float64(d.N)
	for a := 0; a < 3; a++ {
		for b := a; b < 3; b++ {
			cx := stat.Covariance(d.Col(a), d.Col(b), nil)
			ce := stat.Covariance(diff(y.Col(a), d.Col(a)), diff(y.Col(b), d.Col(b)), nil)
			_, sa := meanSD(d.Col(a))
			_, sb := meanSD(d.Col(b))
			if !within(ce, 0.2*cx, 0.2*sa*sb*math.Sqrt(2/n)) {
				t.Errorf("cov(e%d, e%d) = %g, want %g", a, b, ce, 0.2*cx)
			}
		}
	}
}

// TestMultMoments: z = y/x has mean 1 and variance var for both distributions.
func TestMultMoments(t *testing.T) {
	d := randomData(7, 40000, 2)
	for _, dist := range []string{"lognormal", "normal"} {
		y := protect(t, "noise_mult", d, map[string]string{"var": "0.25", "dist": dist}, 8)
		var z []float64
		for i := 0; i < d.N; i++ {
			x := d.At(i, 0)
			if x == 0 {
				if y.At(i, 0) != 0 {
					t.Fatalf("%s: zero became %g", dist, y.At(i, 0))
				}
				continue
			}
			z = append(z, y.At(i, 0)/x)
		}
		m, s := meanSD(z)
		n := float64(len(z))
		if !within(m, 1, 0.5/math.Sqrt(n)) || !within(s*s, 0.25, 0.25*math.Sqrt(4/n)*2) {
			t.Errorf("%s: z mean %g var %g, want 1 and 0.25", dist, m, s*s)
		}
		if dist == "lognormal" && slices.Min(z) <= 0 {
			t.Errorf("lognormal factor not positive: %g", slices.Min(z))
		}
	}
}

// TestPermutationMethods: rankswap (no coding), shuffle_ds and revmap chains keep every
// sorted column; predictors pass through; runs are deterministic for a seed.
func TestPermutationMethods(t *testing.T) {
	d := randomData(9, 3000, 3)
	pred := map[string]string{"preds": "g,s", "cat_preds": "g"}
	for _, tc := range []struct {
		name string
		raw  map[string]string
	}{
		{"rankswap", map[string]string{"p_frac": "0.05"}},
		{"rankswap", map[string]string{"p_pct": "20"}},
		{"rankswap", map[string]string{"r0": "0.95"}},
		{"shuffle_ds", pred},
		{"shuffle_ds", nil},
		{"revmap(egadp)", pred},
		{"revmap(noise_additive)", map[string]string{"noise_pct": "50"}},
		{"revmap(noise_mult)", nil},
	} {
		y := protect(t, tc.name, d, tc.raw, 10)
		y2 := protect(t, tc.name, d, tc.raw, 10)
		if !slices.Equal(y.Data, y2.Data) {
			t.Errorf("%s: not deterministic for a seed", tc.name)
		}
		for j := 0; j < d.P; j++ {
			a, b := d.Col(j), y.Col(j)
			if tc.raw["preds"] != "" && j >= 3 && !slices.Equal(a, b) {
				t.Errorf("%s: predictor column %d changed", tc.name, j)
			}
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%s: column %d is not a permutation of the original", tc.name, j)
			}
		}
		if tc.name != "shuffle_ds" && tc.name != "revmap(egadp)" && slices.Equal(y.Data, d.Data) {
			t.Errorf("%s: release equals the original", tc.name)
		}
	}
}

// TestEGADPGuarantees: textbook EGADP keeps means, cov(X) and cov(X, S) to rounding;
// egadp_sdcmicro is the OLS fit to 1e-6 SD.
func TestEGADPGuarantees(t *testing.T) {
	d := randomData(11, 5000, 3)
	pred := map[string]string{"preds": "g,s", "cat_preds": "g"}
	y := protect(t, "egadp", d, pred, 12)
	for a := 0; a < 5; a++ {
		mx, sx := meanSD(d.Col(a))
		my, _ := meanSD(y.Col(a))
		if math.Abs(mx-my) > 1e-9*sx {
			t.Errorf("egadp mean col %d: %g vs %g", a, my, mx)
		}
		for b := 0; b < 5; b++ {
			cx := stat.Covariance(d.Col(a), d.Col(b), nil)
			cy := stat.Covariance(y.Col(a), y.Col(b), nil)
			_, sb := meanSD(d.Col(b))
			if math.Abs(cx-cy) > 1e-8*sx*sb {
				t.Errorf("egadp cov(%d,%d): %g vs %g", a, b, cy, cx)
			}
		}
	}
	if slices.Equal(y.Col(0), d.Col(0)) {
		t.Error("egadp returned the original")
	}
	ys := protect(t, "egadp_sdcmicro", d, pred, 12)
	x := gather(d, []int{0, 1, 2})
	sp, _ := splitColumns("t", d, mustParams(t, "egadp_sdcmicro", pred))
	fit := residualize(x, d.N, 3, sp.design, sp.k)
	for j := 0; j < 3; j++ {
		mx, sx := meanSD(d.Col(j))
		my, vy := meanSD(ys.Col(j))
		for i := 0; i < d.N; i++ {
			if math.Abs(ys.At(i, j)-fit[i*3+j]) > 1e-6*sx {
				t.Fatalf("egadp_sdcmicro (%d,%d) = %g, OLS fit %g", i, j, ys.At(i, j), fit[i*3+j])
			}
		}
		if math.Abs(mx-my) > 1e-9*sx || vy >= sx {
			t.Errorf("egadp_sdcmicro col %d: mean %g vs %g, sd %g vs %g", j, my, mx, vy, sx)
		}
	}
}

// TestRankSwapCoding: top/bottom coding replaces the extremes by their mean, the rest moves
// by at most the window.
func TestRankSwapCoding(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(i + 1)
	}
	var w swapWork
	col := slices.Clone(v)
	w.swapColumn(col, swapConfig{pFrac: 0.05, top: 10, bottom: 5}, rand.New(rand.NewPCG(1, 1)))
	for i, x := range col {
		switch {
		case i >= 90:
			if x != 95.5 {
				t.Errorf("top-coded %d = %g, want 95.5", i, x)
			}
		case i < 5:
			if x != 3 {
				t.Errorf("bottom-coded %d = %g, want 3", i, x)
			}
		default:
			if math.Abs(x-v[i]) >= 0.05*85 {
				t.Errorf("value %g at %d moved beyond the window", x, i)
			}
		}
	}
}

func stringsF(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func mustParams(t *testing.T, name string, raw map[string]string) methods.Params {
	_, p := resolve(t, name, raw)
	return p
}
