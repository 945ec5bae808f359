package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// FriedmanResult is the Friedman rank test of k treatments over N blocks, with the average ranks
// and the Nemenyi critical difference used in critical-difference diagrams (Demšar 2006,
// "Statistical comparisons of classifiers over multiple data sets", JMLR 7:1-30).
type FriedmanResult struct {
	Statistic float64   // Friedman's chi-squared, with R's tie correction
	DF        int       // k − 1
	P         float64   // upper tail of χ²(DF) at Statistic
	N         int       // complete blocks used
	K         int       // treatments
	MeanRanks []float64 // average rank of each treatment, 1 = smallest value
	// CD is the Nemenyi critical difference at Alpha: two treatments whose mean ranks differ by
	// more than CD differ significantly. CD = q_α·√(k(k+1)/(6N)), q_α = qtukey(1−α, k, ∞)/√2.
	CD       float64
	Alpha    float64
	Warnings []error
}

// ErrIncomplete is a Friedman warning: blocks with a NaN were dropped, as friedman.test drops
// incomplete cases.
var ErrIncomplete = errors.New("stats: incomplete blocks dropped")

// Friedman returns the Friedman test of the matrix y, one row per block and one column per
// treatment, as friedman.test(y) in R, plus the mean ranks and the Nemenyi critical difference at
// alpha (0 means DefaultThresholds.Alpha). Within each block the values are ranked from smallest
// (rank 1) to largest with ties averaged; negate a higher-is-better measure first so that rank 1
// is the best. Rows with a NaN are dropped. It panics if the rows have different lengths.
//
// The statistic is 12·Σ_j (R_j − N(k+1)/2)² / (N·k·(k+1) − Σ(t³−t)/(k−1)), where R_j is the rank
// sum of treatment j and t runs over the tie-group sizes within blocks. With fewer than 2 complete
// blocks or 2 treatments the statistic and p-value are NaN.
func Friedman(y [][]float64, alpha float64) FriedmanResult {
	alpha = alphaOrDefault(alpha)
	res := FriedmanResult{Alpha: alpha, Statistic: math.NaN(), P: math.NaN(), CD: math.NaN()}
	if len(y) > 0 {
		res.K = len(y[0])
	}
	k := res.K
	sums := make([]float64, k)
	var tt float64
	r := make([]float64, k)
	dropped := 0
	for _, row := range y {
		if len(row) != k {
			panic(badLength)
		}
		if hasNaN(row) {
			dropped++
			continue
		}
		Rank(r, row)
		for j, v := range r {
			sums[j] += v
		}
		for _, t := range tieSizes(r) {
			tt += t*t*t - t
		}
		res.N++
	}
	if dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Errorf("%w: %d of %d", ErrIncomplete, dropped, len(y)))
	}
	res.MeanRanks = make([]float64, k)
	n, kf := float64(res.N), float64(k)
	for j := range sums {
		res.MeanRanks[j] = sums[j] / n
	}
	res.DF = k - 1
	if res.N < 2 || k < 2 {
		res.Warnings = append(res.Warnings, fmt.Errorf("stats: Friedman needs 2 blocks and 2 treatments, have %d and %d", res.N, k))
		return res
	}
	var ss float64
	for _, s := range sums {
		d := s - n*(kf+1)/2
		ss += d * d
	}
	res.Statistic = 12 * ss / (n*kf*(kf+1) - tt/(kf-1))
	res.P = distuv.ChiSquared{K: float64(res.DF)}.Survival(res.Statistic)
	res.CD = NemenyiQ(alpha, k) * math.Sqrt(kf*(kf+1)/(6*n))
	return res
}

func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// NemenyiQ returns the critical value q_α of the Nemenyi test for k treatments,
// qtukey(1−alpha, k, Inf)/√2 in R (Demšar 2006, Table 5a: 2.343 for k = 3 at α = 0.05).
// It panics if k < 2 or alpha is outside (0, 1).
func NemenyiQ(alpha float64, k int) float64 {
	if k < 2 {
		panic("stats: NemenyiQ needs k ≥ 2")
	}
	if !(alpha > 0 && alpha < 1) {
		panic(badAlpha)
	}
	return StudentizedRangeQuantile(1-alpha, k) / math.Sqrt2
}

// StudentizedRangeCDF returns P(W ≤ q) for the range W of k independent standard normal values
// (the studentized range with infinite degrees of freedom, ptukey(q, k, Inf) in R):
//
//	P(W ≤ q) = k ∫ φ(z) (Φ(z) − Φ(z−q))^(k−1) dz.
//
// The integral uses 400-point Gauss-Legendre quadrature over [−12, 12+q]; the absolute error is
// below 1e-10 for k ≤ 100. It returns 0 for q ≤ 0 and panics if k < 2.
func StudentizedRangeCDF(q float64, k int) float64 {
	if k < 2 {
		panic("stats: StudentizedRangeCDF needs k ≥ 2")
	}
	if !(q > 0) {
		return 0
	}
	if math.IsInf(q, 1) {
		return 1
	}
	n := distuv.UnitNormal
	f := func(z float64) float64 {
		d := n.CDF(z) - n.CDF(z-q)
		if d <= 0 {
			return 0
		}
		return n.Prob(z) * math.Pow(d, float64(k-1))
	}
	p := float64(k) * quad.Fixed(f, -12, 12+q, 400, quad.Legendre{}, 0)
	return math.Min(math.Max(p, 0), 1)
}

// StudentizedRangeQuantile returns the q with StudentizedRangeCDF(q, k) = p (qtukey(p, k, Inf)
// in R), found by bisection to 1e-12. It panics if p is outside (0, 1) or k < 2.
func StudentizedRangeQuantile(p float64, k int) float64 {
	if !(p > 0 && p < 1) {
		panic(badProb)
	}
	lo, hi := 0.0, 1.0
	for StudentizedRangeCDF(hi, k) < p {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1e-12 {
		mid := (lo + hi) / 2
		if StudentizedRangeCDF(mid, k) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
