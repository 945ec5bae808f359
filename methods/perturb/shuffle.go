package perturb

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

func init() { methods.Register(Shuffle{}) }

// Shuffle is `shuffle_ds`, data shuffling (Muralidhar & Sarathy; sdcMicro shuffle(method =
// "ds")). With X the protected columns (p ≥ 1) and S the dummy-coded predictors (q'):
//
//  1. M = [X | S]; every column is ranked (average ties) and mapped to normal scores
//     Φ⁻¹((rank − 0.5)/n).
//  2. R = Spearman correlation of M; ρ = 2·sin(π·R/6) elementwise.
//  3. B = ρ_XS·ρ_SS⁺; Y* = S*·Bᵀ + E with rows of E iid MVN(0, ρ_XX − B·ρ_SX) (symmetric square
//     root, negative eigenvalues set to 0; p normals per row, rows in order).
//  4. Each X column is reverse-mapped onto Y*'s column (revmap).
//
// The release is a permutation of every original column; the predictors pass through.
type Shuffle struct{}

// Info implements methods.Method.
func (Shuffle) Info() methods.Info {
	return methods.Info{
		Name:        "shuffle_ds",
		Description: "data shuffling: perturb normal scores given the predictors, then reverse-map",
		Params:      predParams,
		Randomized:  true,
		Missing:     missingShuffle,
	}
}

// Validate implements methods.Validator.
func (Shuffle) Validate(d *datasets.Dataset, p methods.Params) error {
	if err := checkDataMissing("shuffle_ds", d, 3); err != nil {
		return err
	}
	_, err := splitColumns("shuffle_ds", d, p)
	return err
}

// Protect implements methods.Method.
func (s Shuffle) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := checkDataMissing("shuffle_ds", d, 3); err != nil {
		return nil, err
	}
	return withImputed("shuffle_ds", d, rng, func(d *datasets.Dataset) (*methods.Release, error) { return s.protect(ctx, d, p, rng) })
}

// protect is Protect on a table without missing values.
func (s Shuffle) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	sp, err := splitColumns("shuffle_ds", d, p)
	if err != nil {
		return nil, err
	}
	n, px, q := d.N, len(sp.x), sp.k
	m := px + q
	full := make([]float64, n*m)
	xs := gather(d, sp.x)
	for i := 0; i < n; i++ {
		copy(full[i*m:], xs[i*px:i*px+px])
		copy(full[i*m+px:], sp.design[i*q:i*q+q])
	}
	ranks := rankTable(full, n, m)
	// Spearman correlation = Pearson correlation of the ranks.
	cov := covMat(ranks, n, m)
	rho := mat.NewDense(m, m, nil)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			r := cov.At(a, b) / math.Sqrt(cov.At(a, a)*cov.At(b, b))
			if a == b {
				r = 1
			}
			rho.Set(a, b, 2*math.Sin(math.Pi*r/6))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sigma := mat.NewSymDense(px, nil)
	var bt *mat.Dense // q×px = Bᵀ
	if q > 0 {
		rss := mat.NewSymDense(q, nil)
		for a := 0; a < q; a++ {
			for b := a; b < q; b++ {
				rss.SetSym(a, b, rho.At(px+a, px+b))
			}
		}
		rxs := rho.Slice(0, px, px, m)
		var bm mat.Dense
		bm.Mul(rxs, symFunc(rss, pinvScalar)) // px×q
		var bsx mat.Dense
		bsx.Mul(&bm, rxs.T())
		for a := 0; a < px; a++ {
			for b := a; b < px; b++ {
				sigma.SetSym(a, b, rho.At(a, b)-bsx.At(a, b))
			}
		}
		bt = mat.DenseCopyOf(bm.T())
	} else {
		for a := 0; a < px; a++ {
			for b := a; b < px; b++ {
				sigma.SetSym(a, b, rho.At(a, b))
			}
		}
	}
	ystar := make([]float64, n*px)
	if q > 0 {
		// Normal scores of the predictors, then S*·Bᵀ.
		sstar := make([]float64, n*q)
		fn := float64(n)
		for i := 0; i < n; i++ {
			for c := 0; c < q; c++ {
				sstar[i*q+c] = distuv.UnitNormal.Quantile((ranks[i*m+px+c] - 0.5) / fn)
			}
		}
		var ym mat.Dense
		ym.Mul(mat.NewDense(n, q, sstar), bt)
		copy(ystar, ym.RawMatrix().Data)
	}
	addMVN(ystar, ystar, n, px, symFunc(sigma, sqrtOrZero), rng)
	x := make([]float64, n)
	y := make([]float64, n)
	var buf []keyed
	out := d.Clone()
	for c, j := range sp.x {
		for i := 0; i < n; i++ {
			x[i] = xs[i*px+c]
			y[i] = ystar[i*px+c]
		}
		buf = RevmapColumn(x, y, buf)
		for i, v := range y {
			out.Data[i*d.P+j] = v
		}
	}
	return release(out, sp.x, nil), ctx.Err()
}
