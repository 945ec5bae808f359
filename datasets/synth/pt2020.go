package synth

import (
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// PT2020Like is the public substitute for the confidential incentives file of Morais (2022)
// (docs/perturbative.md): five zero-inflated log-normal monetary variables tied by a Gaussian
// copula whose correlation matrix is the study's published one, plus the predictors prog (6
// codes), measure (26 codes) and paid (0/1) used by data shuffling and EGADP. Parameters
// (zero share π, log-scale μ and s) were fitted to the study's published quartiles and means.
//
// Draws, from rand.New(rand.NewPCG(2020, seed)): for every record, 5 standard normals G
// (Z = G·Lᵀ with R = L·Lᵀ), then g and g' for the predictors. v_ij = 0 if Φ(Z_ij) ≤ π_j, else
// round(exp(μ_j + s_j·Φ⁻¹((Φ(Z_ij) − π_j)/(1 − π_j)))); prog = 6 equiprobable bins of
// 0.5·Z₁ + √0.75·g, measure = 26 equiprobable bins of 0.4·Z₄ + √0.84·g', paid = 1{v₅ > 0}.
func PT2020Like(n int, seed uint64) *datasets.Dataset {
	pi := [5]float64{0.24, 0.47, 0.56, 0.22, 0.54}
	mu := [5]float64{11.99, 11.87, 11.41, 12.59, 9.45}
	s := [5]float64{1.76, 1.67, 1.63, 1.50, 2.23}
	r := mat.NewSymDense(5, []float64{
		1, 0.8250, 0.7514, 0.5113, 0.5882,
		0.8250, 1, 0.9175, 0.4270, 0.7343,
		0.7514, 0.9175, 1, 0.3908, 0.7931,
		0.5113, 0.4270, 0.3908, 1, 0.3060,
		0.5882, 0.7343, 0.7931, 0.3060, 1,
	})
	var ch mat.Cholesky
	if !ch.Factorize(r) {
		panic("synth: pt2020_like correlation matrix not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	rng := rand.New(rand.NewPCG(2020, seed))
	norm := distuv.UnitNormal
	const p = 8
	data := make([]float64, n*p)
	var g, z [5]float64
	for i := 0; i < n; i++ {
		for j := range g {
			g[j] = rng.NormFloat64()
		}
		for a := range z {
			z[a] = 0
			for b := 0; b <= a; b++ {
				z[a] += l.At(a, b) * g[b]
			}
		}
		row := data[i*p : i*p+p]
		for j := range z {
			u := norm.CDF(z[j])
			if u > pi[j] {
				row[j] = math.Round(math.Exp(mu[j] + s[j]*norm.Quantile((u-pi[j])/(1-pi[j]))))
			}
		}
		g1, g2 := rng.NormFloat64(), rng.NormFloat64()
		row[5] = bin(norm.CDF(0.5*z[0]+math.Sqrt(0.75)*g1), 6)
		row[6] = bin(norm.CDF(0.4*z[3]+math.Sqrt(0.84)*g2), 26)
		if row[4] > 0 {
			row[7] = 1
		}
	}
	names := []string{"investaprov", "investeleg", "incentivoaprov", "investcand", "totpagam", "prog", "measure", "paid"}
	return datasets.New("pt2020_like", names, n, p, data)
}

// bin returns the 1-based equiprobable bin of u ∈ [0, 1] among k.
func bin(u float64, k int) float64 { return float64(min(k-1, int(u*float64(k))) + 1) }

func init() {
	datasets.RegisterGenerator(datasets.Info{Name: "pt2020_like", Source: "substitute",
		Description: "43,333 × 8 substitute for the confidential PT2020 incentives file of Morais (2022): 5 zero-inflated monetary variables + prog, measure, paid (docs/perturbative.md)"},
		func(seed uint64) (*datasets.Dataset, error) { return PT2020Like(43333, seed), nil })
}
