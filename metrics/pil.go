package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Probabilistic information loss of metrics.md §2.9.
func init() {
	Register(Func(Info{ID: "pil", Unit: "%", Better: Lower,
		Description: "probabilistic information loss: 100·mean of pil_q, pil_mean, pil_var, pil_cov, pil_cor (FCRM study PIL; metrics.md §2.9)",
		Components:  []string{"q", "mean", "var", "cov", "cor"}},
		PIL))
}

// pilLevels are the quantile levels 0.05, 0.10, …, 0.95 of pil_q.
var pilLevels = func() []float64 {
	a := make([]float64, 19)
	for k := range a {
		a[k] = float64(k+1) / 20
	}
	return a
}()

// pilTerm returns 2·Φ(|θ' − θ|/√V) − 1 ∈ [0, 1); with V = 0 it is 0 if θ' = θ and 1
// otherwise.
func pilTerm(theta, thetaM, v float64) float64 {
	d := math.Abs(thetaM - theta)
	if v == 0 {
		if d == 0 {
			return 0
		}
		return 1
	}
	return math.Erf(d / math.Sqrt(2*v))
}

// PIL returns pil = 100·(pil_q + pil_mean + pil_var + pil_cov + pil_cor)/5 in %, the
// probabilistic information loss of Mateo-Sanz, Domingo-Ferrer & Sebé (2005) as metrics.md
// §2.9 fixes it. Each component is the mean of pilTerm(θ̂, θ̂', V) with V the sampling
// variance of θ̂ estimated from X (n rows, central moments m with divisor n):
//
//	pil_mean  x̄_l                     V = S_l²/n
//	pil_var   m2_l                    V = ((n−1)²/n³)(m4 − m2²) + (2(n−1)/n³)·m2²
//	pil_cov   m11_hl, h < l           V = ((n−1)²/n³)(m22 − m11²) + ((n−1)/n³)(m20·m02 + m11²)
//	pil_cor   r_hl, h < l             V = (1 − r_hl²)²/n
//	pil_q     Q_α,l (type 7), α = 0.05, 0.10, …, 0.95
//	          V = α(1−α)·S_l²/(n·φ(Φ⁻¹(α))²), or α(1−α)/(n·f̂(Q)²) with Opt.PILQDensity "kde"
//	          (Gaussian kernel, Silverman's bandwidth 0.9·min(S, IQR/1.34)·n^(−1/5)).
//
// The components are fractions in Aux "q", "mean", "var", "cov", "cor". Columns constant in X
// are dropped; with one column left there are no pairs and pil averages the other three
// components (with a note). NaN if n < 2 or no column is left; with a missing cell it is
// computed on the complete cases (metrics.md §0.4). Invariant to
// a per-column affine map. Cost O(np² + pn log n).
func PIL(in *Input) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return PIL(in) })
	}
	n := in.Orig.N
	cols := in.KeptColumns()
	if n < 2 || len(cols) == 0 || hasNaN(in.Orig.Data, in.Masked.Data) {
		return nan()
	}
	q := len(cols)
	xs := make([][]float64, q) // centred columns of X
	ys := make([][]float64, q) // centred columns of X'
	ma, mb := make([]float64, q), make([]float64, q)
	ro, rm := in.Rescaled() // invariant to a per-column scale: exact on rescaled columns
	for c, l := range cols {
		xs[c], ma[c] = centred(ro.Col(l))
		ys[c], mb[c] = centred(rm.Col(l))
	}
	fn := float64(n)
	var mean, vari, cov, cor, qs float64
	m2a, m2b := make([]float64, q), make([]float64, q)
	for c := range cols {
		m2a[c] = moment(xs[c], xs[c])
		m2b[c] = moment(ys[c], ys[c])
		s2 := m2a[c] * fn / (fn - 1)
		mean += pilTerm(ma[c], mb[c], s2/fn)
		var m4 float64
		for _, v := range xs[c] {
			m4 += v * v * v * v
		}
		m4 /= fn
		m2 := m2a[c]
		vv := (fn-1)*(fn-1)/(fn*fn*fn)*(m4-m2*m2) + 2*(fn-1)/(fn*fn*fn)*m2*m2
		vari += pilTerm(m2, m2b[c], vv)
		qs += pilQuantiles(ro.Col(cols[c]), rm.Col(cols[c]), s2, in.Opt.PILQDensity == "kde")
	}
	npair := 0
	for h := 0; h < q; h++ {
		for l := h + 1; l < q; l++ {
			npair++
			m11, m11b := moment(xs[h], xs[l]), moment(ys[h], ys[l])
			var m22 float64
			for i, v := range xs[h] {
				w := xs[l][i]
				m22 += v * v * w * w
			}
			m22 /= fn
			vc := (fn-1)*(fn-1)/(fn*fn*fn)*(m22-m11*m11) + (fn-1)/(fn*fn*fn)*(m2a[h]*m2a[l]+m11*m11)
			cov += pilTerm(m11, m11b, vc)
			r := m11 / math.Sqrt(m2a[h]*m2a[l])
			rb := m11b / math.Sqrt(m2b[h]*m2b[l])
			if math.IsNaN(rb) {
				return nanNote("a column is constant in the release only")
			}
			cor += pilTerm(r, rb, (1-r*r)*(1-r*r)/fn)
		}
	}
	res := Result{Aux: map[string]float64{
		"q":    qs / float64(q*len(pilLevels)),
		"mean": mean / float64(q),
		"var":  vari / float64(q),
	}}
	sum := res.Aux["q"] + res.Aux["mean"] + res.Aux["var"]
	if npair == 0 {
		res.Aux["cov"], res.Aux["cor"] = math.NaN(), math.NaN()
		res.Value = 100 * sum / 3
		res.Notes = append(res.Notes, "one attribute: pil averages pil_q, pil_mean and pil_var")
	} else {
		res.Aux["cov"], res.Aux["cor"] = cov/float64(npair), cor/float64(npair)
		res.Value = 100 * (sum + res.Aux["cov"] + res.Aux["cor"]) / 5
	}
	if k := in.Orig.P - q; k > 0 {
		res.Notes = append(res.Notes, constantNote(k))
	}
	return res
}

// centred returns x − x̄ (a new slice) and x̄.
func centred(x []float64) ([]float64, float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
	return x, m
}

// moment returns (1/n)·Σ a_i·b_i.
func moment(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s / float64(len(a))
}

// pilQuantiles returns the sum over the 19 levels of the pil terms of the type-7 quantiles
// of one column. a and b are sorted in place; s2 is the sample variance of a.
func pilQuantiles(a, b []float64, s2 float64, kde bool) float64 {
	slices.Sort(a)
	slices.Sort(b)
	n := float64(len(a))
	var bw float64
	if kde {
		iqr := Quantile7(a, 0.75) - Quantile7(a, 0.25)
		bw = 0.9 * min(math.Sqrt(s2), iqr/1.34) * math.Pow(n, -0.2)
	}
	var sum float64
	for _, alpha := range pilLevels {
		qa, qb := Quantile7(a, alpha), Quantile7(b, alpha)
		var v float64
		if kde && bw > 0 {
			f := gaussKDE(a, qa, bw)
			v = alpha * (1 - alpha) / (n * f * f)
		} else {
			d := distuv.UnitNormal.Prob(distuv.UnitNormal.Quantile(alpha))
			v = alpha * (1 - alpha) * s2 / (n * d * d)
		}
		sum += pilTerm(qa, qb, v)
	}
	return sum
}

// gaussKDE returns the Gaussian kernel density estimate of x at t with bandwidth h.
func gaussKDE(x []float64, t, h float64) float64 {
	var s float64
	for _, v := range x {
		u := (t - v) / h
		s += math.Exp(-u * u / 2)
	}
	return s / (float64(len(x)) * h * math.Sqrt(2*math.Pi))
}
