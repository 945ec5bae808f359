package perturb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/methods"
	"gonum.org/v1/gonum/mat"
)

// Correlated is `noise_correlated` (docs/perturbative.md; sdcMicro addNoise "correlated"):
//
//	Y = X + E,  rows of E iid MVN(0, v·Σ̂),  v = noise_pct/100,
//
// a variance fraction of the sample covariance Σ̂ (unlike noise_additive, where noise_pct is an
// SD fraction). E = Z·Lᵀ with Σ̂ = L·Lᵀ (Cholesky, or the symmetric square root if Σ̂ is only
// semi-definite) and Z drawn row by row, p standard normals per row. Correlations are
// preserved in expectation. Needs p ≥ 2.
type Correlated struct{}

// Info implements methods.Method.
func (Correlated) Info() methods.Info {
	return methods.Info{
		Name:        "noise_correlated",
		Description: "correlated Gaussian noise with covariance noise_pct % of the data covariance",
		Params: []methods.ParamSpec{{Name: "noise_pct", Kind: methods.Float, Default: "150",
			Min: 0, Max: math.Inf(1), Doc: "noise covariance as a percent of the data covariance (variance fraction)"}},
		Randomized: true,
		Missing:    missingCorr,
	}
}

// Validate implements methods.Validator.
func (Correlated) Validate(d *datasets.Dataset, p methods.Params) error {
	if d.P < 2 {
		return fmt.Errorf("noise_correlated: dataset %s has %d column, need at least 2", d.Name, d.P)
	}
	if err := checkDataMissing("noise_correlated", d, 2); err != nil {
		return err
	}
	if c := completeRows(d); c.N < 2 {
		return fmt.Errorf("noise_correlated: dataset %s has %d rows without a missing value, need at least 2 for the covariance (sdcMicro's cov(na.omit(x)))", d.Name, c.N)
	}
	return nil
}

// Protect implements methods.Method.
func (c Correlated) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	return powerScaled(d, func(d *datasets.Dataset) (*methods.Release, error) { return c.protect(ctx, d, p, rng) })
}

// protect is Protect at ordinary magnitudes.
func (c Correlated) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := c.Validate(d, p); err != nil {
		return nil, err
	}
	v := p.Float("noise_pct") / 100
	cc := completeRows(d)
	cov := covMat(cc.Data, cc.N, cc.P)
	cov.ScaleSym(v, cov)
	l := mvnFactor(cov)
	out := datasets.New(d.Name, slices.Clone(d.Names), d.N, d.P, make([]float64, len(d.Data)))
	out.Levels = d.CloneLevels()
	addMVN(out.Data, d.Data, d.N, d.P, l, rng)
	return &methods.Release{Masked: out}, ctx.Err()
}

// addMVN writes x + z·Lᵀ into dst, row by row (both n×p; dst may be x itself), z iid
// N(0, I_p) drawn row by row: straight into a release, without copying x first
// (docs/datapath.md, "Copies of the table").
func addMVN(dst, x []float64, n, p int, l *mat.Dense, rng *rand.Rand) {
	lr := l.RawMatrix()
	z := make([]float64, p)
	for i := 0; i < n; i++ {
		for a := range z {
			z[a] = rng.NormFloat64()
		}
		row, out := x[i*p:i*p+p], dst[i*p:i*p+p]
		for a := 0; a < p; a++ {
			lrow := lr.Data[a*lr.Stride : a*lr.Stride+p]
			var s float64
			for b, zb := range z {
				s += lrow[b] * zb
			}
			out[a] = row[a] + s
		}
	}
}

// Correlated2 is `noise_correlated2` (sdcMicro addNoise "correlated2", the method behind the
// correlated-noise rows of Morais 2022). Per column j, independently,
//
//	y_ij = d·x_ij + δ·g_ij,  d = √(1−δ²),  g_ij ~ N(μ_j(1−d)/δ, sd_j²),
//
// which keeps means and variances in expectation and multiplies every covariance by 1−δ².
// Draws: column by column, rows in order. sdcMicro ignores its noise argument for this method;
// noise_pct is accepted for the same reason and recorded as ignored in Info["note"].
type Correlated2 struct{}

// Info implements methods.Method.
func (Correlated2) Info() methods.Info {
	return methods.Info{
		Name:        "noise_correlated2",
		Description: "sdcMicro correlated2 noise: y = √(1−δ²)x + δg, means and variances kept",
		Params: []methods.ParamSpec{
			{Name: "delta", Kind: methods.Float, Default: "0.1", Min: 0, Max: 1, Doc: "δ in (0, 1]"},
			{Name: "noise_pct", Kind: methods.Float, Default: "0", Min: 0, Max: math.Inf(1),
				Doc: "accepted and ignored, as sdcMicro does (recorded in the release notes)"},
		},
		Randomized: true,
		Missing:    missingNoise,
	}
}

// Validate implements methods.Validator.
func (Correlated2) Validate(d *datasets.Dataset, p methods.Params) error {
	if p.Float("delta") <= 0 {
		return fmt.Errorf("noise_correlated2: %w delta=%s: must be in (0, 1]", methods.ErrBadParam, p.Get("delta"))
	}
	return checkDataMissing("noise_correlated2", d, 2)
}

// Protect implements methods.Method.
func (c Correlated2) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	rel, _, err := c.protect(ctx, d, p, rng, false)
	return rel, err
}

// ProtectInPlace is Protect writing the release over d's values, as Additive.ProtectInPlace
// (whose contract it shares).
func (c Correlated2) ProtectInPlace(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (rel *methods.Release, clean bool, err error) {
	return c.protect(ctx, d, p, rng, true)
}

// protect is Protect, or ProtectInPlace with inPlace.
func (c Correlated2) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand, inPlace bool) (*methods.Release, bool, error) {
	delta := p.Float("delta")
	if delta <= 0 {
		return nil, false, c.Validate(d, p)
	}
	// Validate's checks, with the column means sparing its scan of every cell (checkScaled,
	// as in Additive.Protect).
	sc, err := checkedScaling("noise_correlated2", d, 2)
	if err != nil {
		return nil, false, err
	}
	dd := math.Sqrt(1 - delta*delta)
	// Written straight into a new table (or over d), cell by cell: no copy of d to overwrite
	// (docs/datapath.md, "Copies of the table").
	x := d.Data
	data := x
	if !inPlace {
		data = make([]float64, len(x))
	}
	bad := false // a cell neither a number nor missing where x is
	for j := 0; j < d.P; j++ {
		mu := sc.Mean[j] * (1 - dd) / delta
		sd := sc.SD[j]
		for k := j; k < len(x); k += d.P {
			g := mu + sd*rng.NormFloat64()
			v := x[k]
			y := dd*v + delta*g
			if y-y != 0 && v == v {
				bad = true
			}
			data[k] = y
		}
	}
	out := datasets.New(d.Name, slices.Clone(d.Names), d.N, d.P, data)
	out.Levels = d.CloneLevels()
	info := map[string]any{}
	if p.Float("noise_pct") != 0 {
		info["note"] = "noise_pct ignored by correlated2 (sdcMicro semantics)"
	}
	return &methods.Release{Masked: out, Info: info}, !bad, ctx.Err()
}

// Restr is `noise_restr` (sdcMicro addNoise "restr"), a deterministic shrinkage towards the
// column means: y_ij = cc·x_ij + (1−cc)·μ_j with w = noise_pct/100 and
//
//	cc = √((n−1−w)/((n+1)(1+w)))  if n < 500,  else  cc = √((n−1)/(n + n·w − 1)).
type Restr struct{}

// Info implements methods.Method.
func (Restr) Info() methods.Info {
	return methods.Info{
		Name:        "noise_restr",
		Description: "sdcMicro restr: deterministic shrinkage of every value towards its column mean",
		Params: []methods.ParamSpec{{Name: "noise_pct", Kind: methods.Float, Default: "150",
			Min: 0, Max: math.Inf(1), Doc: "shrinkage strength w = noise_pct/100"}},
		Missing: missingRestr,
	}
}

// RestrFactor returns the shrinkage factor cc of noise_restr for n records and w = noise_pct/100.
func RestrFactor(n int, w float64) float64 {
	fn := float64(n)
	if n < 500 {
		return math.Sqrt((fn - 1 - w) / ((fn + 1) * (1 + w)))
	}
	return math.Sqrt((fn - 1) / (fn + fn*w - 1))
}

// Validate implements methods.Validator.
func (Restr) Validate(d *datasets.Dataset, p methods.Params) error {
	if err := checkDataMissing("noise_restr", d, 2); err != nil {
		return err
	}
	if cc := RestrFactor(d.N, p.Float("noise_pct")/100); math.IsNaN(cc) {
		return fmt.Errorf("noise_restr: %w noise_pct=%s: too large for n = %d (needs noise_pct/100 < n−1)", methods.ErrBadParam, p.Get("noise_pct"), d.N)
	}
	return nil
}

// Protect implements methods.Method.
func (r Restr) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := r.Validate(d, p); err != nil {
		return nil, err
	}
	cc := RestrFactor(d.N, p.Float("noise_pct")/100)
	mu := covariance.Means(d.Data, d.N, d.P)
	if d.HasMissing() {
		for j := range mu {
			mu[j] = availMean(d, j)
		}
	}
	out := d.Clone()
	for i := 0; i < d.N; i++ {
		for j := 0; j < d.P; j++ {
			out.Data[i*d.P+j] = cc*d.Data[i*d.P+j] + (1-cc)*mu[j]
		}
	}
	return &methods.Release{Masked: out, Info: map[string]any{"cc": cc}}, ctx.Err()
}
