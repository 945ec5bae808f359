package robust

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/parallel"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ErrSingularCovariance is returned by FastMCD with MCDOptions.StrictSingular (and so by
// rmdm with singular=error) when a covariance matrix to be inverted is singular: an
// eigenvalue λ ≤ 1e-10·λ_max, or λ_max = 0. sdcMicro's rmd fails in the same situations with
// "system is computationally singular" (Census and EIA).
var ErrSingularCovariance = errors.New("system is computationally singular")

// singularTol is the relative eigenvalue below which a covariance counts as singular.
const singularTol = 1e-10

// MCDOptions configures FastMCD. The zero value is the spec's default.
type MCDOptions struct {
	// Starts is the number of random (d+1)-subsets; 0 means 500.
	Starts int
	// Subsample is the size of the random subsample on which the starts run when n exceeds
	// it; 0 means 1500.
	Subsample int
	// StrictSingular makes a singular covariance an error (ErrSingularCovariance) instead of
	// dropping null directions and ridging (the spec's singular=error; default auto).
	StrictSingular bool
	// Workers bounds the goroutines that evaluate the starts; 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// Robustbase scales the estimates as robustbase::covMcd does with its defaults
	// (use.correction = TRUE, the "01.original" weights), which sdcMicro's rmd and dRiskRMD
	// call: the raw scatter is the h-subset covariance with denominator h−1 times the
	// consistency factor and the small-sample factor .MCDcnp2(p, n, 1/2), a record is kept
	// when its distance under it is strictly below χ²_{p,0.975}, and the reweighted scatter
	// is multiplied by .MCDcons(p, kept/n)·.MCDcnp2.rew(p, n, 1/2) (Pison, Van Aelst and
	// Willems 2002). Without it the scatters are unscaled (see MCDResult).
	Robustbase bool
}

// MCDResult is the outcome of FastMCD.
type MCDResult struct {
	// Center and Scatter are the reweighted location μ_R and scatter Σ_R (covariance of the
	// retained records, denominator count−1, times robustbase's factors with
	// MCDOptions.Robustbase), in the coordinates MCD ran on: the input columns, or the
	// columns of Basis when directions were dropped.
	Center  []float64
	Scatter *mat.SymDense
	// Basis is nil, or the d×p matrix of the kept eigenvectors of cov(z) on whose
	// coordinates z·Basis MCD ran because d−p directions had (near-)zero variance.
	Basis *mat.Dense
	// Distances holds every input row's squared Mahalanobis distance under (Center, Scatter).
	Distances []float64
	// H is the size of the raw MCD subset, ⌊(n+p+1)/2⌋; RawLogDet the log-determinant of
	// its covariance (denominator H, ridged if Ridge).
	H         int
	RawLogDet float64
	// DroppedDims is d−p; Ridge reports that some covariance was replaced by Σ + εI.
	DroppedDims int
	Ridge       bool
	// Kept is the number of records the reweighting kept.
	Kept int
}

// FastMCD returns the reweighted minimum covariance determinant estimate of the n×d
// row-major table z, by the FAST-MCD algorithm of Rousseeuw and Van Driessen (1999) as
// docs/microaggregation.md §2.6 specifies it (robustbase::covMcd, which sdcMicro's rmd
// calls): h = ⌊(n+p+1)/2⌋; Starts random (p+1)-subsets, each grown by random records while
// its covariance is singular, then two C-steps; the 10 lowest determinants are iterated to
// convergence (at most 100 C-steps; on n > Subsample the starts run on one random
// subsample and these final C-steps on all records); the raw scatter is scaled by the
// consistency factor (h/n)/F_{χ²(p+2)}(F⁻¹_{χ²(p)}(h/n)) and the estimate reweighted on the
// records with distance ≤ χ²_{p,0.975}. C-step ties go to the lowest index.
//
// Singular covariances (§2.6 item 4): unless opt.StrictSingular, directions of cov(z) with
// eigenvalue ≤ 1e-10·λ_max are dropped first, and any covariance that is still singular
// is replaced by Σ + εI, ε = 1e-6·max(trace(Σ)/p, 1e-12); with StrictSingular either case
// returns ErrSingularCovariance.
//
// Randomness comes only from rng: one seed per start is drawn from it first, so the result
// does not depend on opt.Workers. z is not modified. It panics if n ≤ d or len(z) != n·d.
// Cost O(Starts·n_s·p²) for the starts (n_s = min(n, Subsample)) plus O(C-steps·n·p²).
func FastMCD(ctx context.Context, z []float64, n, d int, opt MCDOptions, rng *rand.Rand) (*MCDResult, error) {
	if n <= d || d < 1 || len(z) != n*d {
		panic("robust: FastMCD: bad shape")
	}
	starts, subN := cmp.Or(opt.Starts, 500), cmp.Or(opt.Subsample, 1500)
	res := &MCDResult{}
	y, p, err := dropNullDirections(z, n, d, opt.StrictSingular, res)
	if err != nil {
		return nil, err
	}
	h := (n + p + 1) / 2
	res.H = h

	// the working set of the starts: all records, or a random subsample in ascending order
	wy, wn := y, n
	if n > subN {
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		for t := 0; t < subN; t++ {
			j := t + rng.IntN(n-t)
			perm[t], perm[j] = perm[j], perm[t]
		}
		sub := perm[:subN]
		slices.Sort(sub)
		wy, wn = make([]float64, subN*p), subN
		for t, i := range sub {
			copy(wy[t*p:(t+1)*p], y[i*p:(i+1)*p])
		}
	}
	wh := (wn + p + 1) / 2

	type start struct {
		H      []int
		logDet float64
		ridge  bool
		err    error
	}
	seeds := make([]uint64, starts)
	for s := range seeds {
		seeds[s] = rng.Uint64()
	}
	out := make([]start, starts)
	parallel.Ranges(starts, opt.Workers, minRange, func(_, lo, hi int) {
		w := newMCDWork(wy, wn, p, wh, opt.StrictSingular)
		perm := make([]int, wn)
		for s := lo; s < hi; s++ {
			H, ld, err := w.start(rand.New(rand.NewPCG(seeds[s], uint64(s))), perm)
			out[s] = start{H: H, logDet: ld, ridge: w.ridge, err: err}
			w.ridge = false
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, s := range out {
		if s.err != nil {
			return nil, s.err
		}
		res.Ridge = res.Ridge || s.ridge
	}
	best := make([]int, starts)
	for s := range best {
		best[s] = s
	}
	slices.SortStableFunc(best, func(a, b int) int { return cmp.Compare(out[a].logDet, out[b].logDet) })
	best = best[:min(10, starts)]

	// final C-steps on all records
	w := newMCDWork(y, n, p, h, opt.StrictSingular)
	w.workers = parallel.Workers(opt.Workers)
	// The final C-steps of the best starts are independent: they run on up to w.workers
	// goroutines, each with its own workspaces, and their results are compared in the
	// order of best, as a serial loop would.
	type final struct {
		H   []int
		ld  float64
		err error
	}
	fins := make([]final, len(best))
	// per-goroutine workspaces (parallel.Each's worker numbers), made on first use
	nw := min(w.workers, len(best))
	fws, sws := make([]*mcdWork, nw), make([]*mcdWork, nw)
	parallel.Each(len(best), nw, func(t, j int) {
		if fws[t] == nil {
			fws[t] = newMCDWork(y, n, p, h, opt.StrictSingular)
			if wn < n {
				sws[t] = newMCDWork(wy, wn, p, wh, opt.StrictSingular)
			}
		}
		fw, sw := fws[t], sws[t]
		if err := ctx.Err(); err != nil {
			fins[j].err = err
			return
		}
		H := out[best[j]].H
		if sw != nil { // carry the subsample fit over to all records
			if err := sw.fit(H, float64(len(H))); err != nil {
				fins[j].err = err
				return
			}
			copy(fw.mu, sw.mu)
			fw.f.copyFrom(&sw.f)
			fw.distances()
			H = fw.smallest(nil)
		}
		H, ld, err := fw.converge(H, 100)
		fins[j] = final{H, ld, err}
	})
	var bestH []int
	bestLD := math.Inf(1)
	for _, f := range fins {
		if f.err != nil {
			return nil, f.err
		}
		if f.ld < bestLD {
			bestH, bestLD = f.H, f.ld
		}
	}
	for t, fw := range fws {
		res.Ridge = res.Ridge || (fw != nil && fw.ridge) || (sws[t] != nil && sws[t].ridge)
	}

	// consistency factor and reweighting
	if err := w.fit(bestH, float64(h)); err != nil {
		return nil, err
	}
	res.RawLogDet = w.f.logDet
	c := mcdConsistency(p, float64(h)/float64(n))
	q975 := distuv.ChiSquared{K: float64(p)}.Quantile(0.975)
	var kept []int
	if opt.Robustbase {
		// robustbase: raw scatter c·cnp2·S_{h−1}; keep md < χ²_{p,0.975} under it
		if err := w.fit(bestH, float64(h-1)); err != nil {
			return nil, err
		}
		f := c * mcdSmallSample(p, n, false)
		w.distances()
		for i, v := range w.md {
			if v/f < q975 {
				kept = append(kept, i)
			}
		}
	} else {
		cut := c * q975
		w.distances()
		for i, v := range w.md {
			if v <= cut {
				kept = append(kept, i)
			}
		}
	}
	if len(kept) < 2 {
		kept = bestH
	}
	if err := w.fit(kept, float64(len(kept)-1)); err != nil {
		return nil, err
	}
	w.distances()
	res.Ridge = res.Ridge || w.ridge
	res.Center = slices.Clone(w.mu)
	res.Scatter = mat.NewSymDense(p, nil)
	res.Scatter.CopySym(w.cov)
	res.Distances = slices.Clone(w.md)
	if opt.Robustbase {
		f := mcdConsistency(p, float64(len(kept))/float64(n)) * mcdSmallSample(p, n, true)
		res.Scatter.ScaleSym(f, res.Scatter)
		for i := range res.Distances {
			res.Distances[i] /= f
		}
	}
	res.Kept = len(kept)
	return res, nil
}

// mcdConsistency returns the consistency factor of an MCD scatter estimated from the fraction
// alpha of the records in p dimensions, alpha/F_{χ²(p+2)}(F⁻¹_{χ²(p)}(alpha))
// (robustbase .MCDcons).
func mcdConsistency(p int, alpha float64) float64 {
	q := distuv.ChiSquared{K: float64(p)}.Quantile(alpha)
	return alpha / distuv.ChiSquared{K: float64(p + 2)}.CDF(q)
}

// dropNullDirections returns z itself (p = d) when cov(z) is non-singular, and otherwise
// (unless strict, which fails) the coordinates of z on the eigenvectors of cov(z) with
// eigenvalue > 1e-10·λ_max, recording the basis and the number of dropped directions in res.
func dropNullDirections(z []float64, n, d int, strict bool, res *MCDResult) ([]float64, int, error) {
	w := newMCDWork(z, n, d, n, true)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	w.meanCov(all, float64(n-1))
	var eig mat.EigenSym
	if !eig.Factorize(w.cov, true) {
		return nil, 0, fmt.Errorf("eigendecomposition of the covariance failed")
	}
	vals := eig.Values(nil)
	lmax := vals[d-1]
	var keep []int
	for j, v := range vals {
		if v > singularTol*lmax {
			keep = append(keep, j)
		}
	}
	if len(keep) == d {
		return z, d, nil
	}
	if strict {
		return nil, 0, fmt.Errorf("%w: cov(z) has %d eigenvalue(s) ≤ %g·λ_max", ErrSingularCovariance, d-len(keep), singularTol)
	}
	if len(keep) == 0 {
		return nil, 0, fmt.Errorf("%w: zero covariance", ErrSingularCovariance)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	p := len(keep)
	basis := mat.NewDense(d, p, nil)
	for c, j := range keep {
		for r := 0; r < d; r++ {
			basis.Set(r, c, vecs.At(r, j))
		}
	}
	y := make([]float64, n*p)
	for i := 0; i < n; i++ {
		row := z[i*d : (i+1)*d]
		for c := 0; c < p; c++ {
			var s float64
			for r, v := range row {
				s += float64(v * basis.At(r, c))
			}
			y[i*p+c] = s
		}
	}
	res.Basis, res.DroppedDims = basis, d-p
	return y, p, nil
}

// mcdSmallSample returns robustbase's small-sample correction factor of an MCD scatter with
// h = ⌊(n+p+1)/2⌋ (alpha = 1/2): .MCDcnp2.rew(p, n, 1/2) for the reweighted scatter (rew),
// .MCDcnp2(p, n, 1/2) for the raw one. These are the fitted curves of Pison, Van Aelst and
// Willems (2002), with robustbase's coefficients. robustbase replaces the curve by a
// simulated table for tiny samples (n below about 2p+22 with p ≤ 9); the curve is used there
// too, so the factor differs from robustbase's on such samples.
func mcdSmallSample(p, n int, rew bool) float64 {
	var fp float64
	switch {
	case p > 2:
		// columns (a, b, c) of robustbase's coeff(rew)qpkwad500 matrix
		a, b, c := [2]float64{-1.42764571687802, -1.06141115981725}, [2]float64{1.26263336932151, 1.28907991440387}, [2]float64{2, 3}
		if rew {
			a, b = [2]float64{-1.02842572724793, -0.26800273450853}, [2]float64{1.67659883081926, 1.35968562893582}
		}
		fp2 := float64(p * p)
		var y, l [2]float64
		for t := range 2 {
			y[t] = math.Log(-a[t] / math.Pow(float64(p), b[t]))
			l[t] = -math.Log(c[t] * fp2)
		}
		// solve [1 l0; 1 l1]·(β0, β1) = y
		b1 := (y[0] - y[1]) / (l[0] - l[1])
		b0 := y[0] - b1*l[0]
		fp = 1 - math.Exp(b0)/math.Pow(float64(n), b1)
	case p == 2 && rew:
		fp = 1 - math.Exp(3.11101712909049)/math.Pow(float64(n), 1.91401056721863)
	case p == 2:
		fp = 1 - math.Exp(0.673292623522027)/math.Pow(float64(n), 0.691365864961895)
	case rew:
		fp = 1 - math.Exp(1.11098143415027)/math.Pow(float64(n), 1.5182890270453)
	default:
		fp = 1 - math.Exp(0.262024211897096)/math.Pow(float64(n), 0.604756680630497)
	}
	return 1 / fp
}

// minRange is the fewest iterations each goroutine of this package's parallel.Ranges loops
// gets: a loop over fewer than 2·minRange iterations runs on the caller's goroutine.
const minRange = 64
