package perturbative

import (
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Noise describes a noise release y = x + b + e, e ~ N(0, s_j²), for the exact expectations of
// README.md ("Analytic checks").
type Noise struct {
	Kind      string  // "additive", "correlated2", "correlated" or "mult"
	Level     float64 // w (SD fraction), δ, v (variance fraction) or var
	KeepZeros bool    // noise_additive0: zero cells untouched
	Restrict  bool    // restrict(...): zero cells 0, others |y|
}

// KK is the interval half-width factor of interval_disclosure.
const KK = 0.05

var unit = distuv.UnitNormal

// absMean returns E|N(m, s²)|.
func absMean(m, s float64) float64 {
	if s == 0 {
		return math.Abs(m)
	}
	return s*math.Sqrt(2/math.Pi)*math.Exp(-m*m/(2*s*s)) + m*(1-2*unit.CDF(-m/s))
}

// absCDF returns P(|Y| ≤ a) for Y ~ N(m, s²).
func absCDF(a, m, s float64) float64 {
	if a <= 0 {
		return 0
	}
	return unit.CDF((a-m)/s) - unit.CDF((-a-m)/s)
}

// corEigen returns the eigenvalues of cor(X).
func corEigen(d *datasets.Dataset) []float64 {
	c := mat.NewSymDense(d.P, nil)
	stat.CorrelationMatrix(c, mat.NewDense(d.N, d.P, d.Data), nil)
	var es mat.EigenSym
	es.Factorize(c, false)
	return es.Values(nil)
}

// Expect returns the exact expectations of the noise release's metrics on d (those without a
// closed form are absent). interval_disclosure and the IL sums are evaluated per cell, so the
// zero cells of noise_additive0 and restrict and the x-dependent shift of correlated2 are
// included; eigen uses cor(Y) = (cor(X) + w²I)/(1+w²) (additive) and (1−δ²)cor(X) + δ²I
// (correlated2), which ignores the O(1/√n) sampling correlations of the noise.
func Expect(d *datasets.Dataset, nz Noise) map[string]float64 {
	n, p := d.N, d.P
	sc := datasets.ScalingOf(d)
	out := map[string]float64{}
	lam := corEigen(d)
	var eigSum float64
	for _, l := range lam {
		eigSum += math.Abs(l-1) / l
	}
	switch nz.Kind {
	case "mult":
		var s float64
		for _, x := range d.Data {
			s += x * x
		}
		out["mse"] = nz.Level * s / float64(n*p)
		return out
	case "correlated":
		v := nz.Level
		var il, mse, mae float64
		for j := 0; j < p; j++ {
			il += float64(n) * math.Sqrt(v) / math.Sqrt(math.Pi)
			mse += v * sc.SD[j] * sc.SD[j] / float64(p)
			mae += math.Sqrt(v) * math.Sqrt(2/math.Pi) * sc.SD[j] / float64(p)
		}
		out["il1s_sum_sdc"], out["mse"], out["mae"] = il, mse, mae
		out["eigen"] = 0
		out["interval_disclosure"] = 100 * mvnInside(d, KK*math.Sqrt(1+v)/math.Sqrt(v))
		return out
	}
	// Per-cell shift b and noise SD s.
	shift := func(i, j int) (b, s float64) {
		x := d.Data[i*p+j]
		switch nz.Kind {
		case "additive":
			return 0, nz.Level * sc.SD[j]
		default: // correlated2
			dd := math.Sqrt(1 - nz.Level*nz.Level)
			return -(1 - dd) * (x - sc.Mean[j]), nz.Level * sc.SD[j]
		}
	}
	untouched := func(x float64) bool { return x == 0 && (nz.KeepZeros || nz.Restrict) }
	// Expected SD of each released column, from the per-cell first and second moments.
	t := make([]float64, p)
	for j := 0; j < p; j++ {
		var m1, m2 float64
		for i := 0; i < n; i++ {
			x := d.Data[i*p+j]
			if untouched(x) {
				continue
			}
			b, s := shift(i, j)
			m := x + b
			if nz.Restrict {
				m1 += absMean(m, s)
			} else {
				m1 += m
			}
			m2 += m*m + s*s
		}
		fn := float64(n)
		v := (m2 - m1*m1/fn) / (fn - 1)
		t[j] = KK * math.Sqrt(v)
	}
	var risk, il, mse, mae float64
	for i := 0; i < n; i++ {
		prob := 1.0
		for j := 0; j < p; j++ {
			x := d.Data[i*p+j]
			if untouched(x) {
				continue
			}
			b, s := shift(i, j)
			if nz.Restrict {
				prob *= absCDF(x+t[j], x+b, s) - absCDF(x-t[j], x+b, s)
			} else {
				prob *= unit.CDF((t[j]-b)/s) - unit.CDF((-t[j]-b)/s)
			}
			am := absMean(b, s)
			il += am / (math.Sqrt2 * sc.SD[j])
			mse += b*b + s*s
			mae += am
		}
		risk += prob
	}
	out["interval_disclosure"] = 100 * risk / float64(n)
	if nz.Restrict {
		return out // the IL sums of a folded release have no closed form here
	}
	out["il1s_sum_sdc"] = il
	out["mse"] = mse / float64(n*p)
	out["mae"] = mae / float64(n*p)
	if !nz.KeepZeros {
		if nz.Kind == "additive" {
			w2 := nz.Level * nz.Level
			out["eigen"] = 100 * w2 / (1 + w2) * eigSum
		} else {
			out["eigen"] = 100 * nz.Level * nz.Level * eigSum
		}
	}
	return out
}

// mvnInside returns P(all |Z_j| ≤ c), Z ~ N(0, cor(X)), by Monte Carlo with 10⁶ draws from a
// fixed generator (standard error below 5·10⁻⁴).
func mvnInside(d *datasets.Dataset, c float64) float64 {
	p := d.P
	cor := mat.NewSymDense(p, nil)
	stat.CorrelationMatrix(cor, mat.NewDense(d.N, p, d.Data), nil)
	var ch mat.Cholesky
	if !ch.Factorize(cor) {
		return math.NaN()
	}
	var l mat.TriDense
	ch.LTo(&l)
	rng := rand.New(rand.NewPCG(1, 2))
	const draws = 1_000_000
	g := make([]float64, p)
	hits := 0
	for k := 0; k < draws; k++ {
		for a := range g {
			g[a] = rng.NormFloat64()
		}
		in := true
		for a := 0; a < p && in; a++ {
			var z float64
			for b := 0; b <= a; b++ {
				z += l.At(a, b) * g[b]
			}
			in = math.Abs(z) <= c
		}
		if in {
			hits++
		}
	}
	return float64(hits) / draws
}
