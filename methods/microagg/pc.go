package microagg

import (
	"math"
	"sync/atomic"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/parallel"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// pcSignTol is the magnitude below which a loading counts as zero for PC1's sign rule.
const pcSignTol = 1e-12

// PC1 returns the first principal component v of the n×d row-major table z (the leading
// eigenvector of its covariance matrix, denominator n−1; on z-scores the correlation matrix
// of the raw data), with the sign rule of docs/microaggregation.md §2.4: the first
// loading with |v_j| > 1e-12 is positive. degenerate reports that the top eigenvalue is tied
// with the second (relative difference < 1e-12), so v is not unique.
//
// It panics if n < 2, d < 1 or len(z) != n·d, or if the eigensolver fails. z is not
// modified. Cost O(n·d² + d³).
func PC1(z []float64, n, d int) (v []float64, degenerate bool) {
	if n < 2 || d < 1 || len(z) != n*d {
		panic("microagg: PC1: bad shape")
	}
	var cov mat.SymDense
	stat.CovarianceMatrix(&cov, mat.NewDense(n, d, z), nil)
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		panic("microagg: PC1: eigendecomposition failed")
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	v = mat.Col(nil, d-1, &vecs)
	signRule(v)
	if d > 1 {
		top := vals[d-1]
		degenerate = top-vals[d-2] < 1e-12*math.Abs(top) || top == 0
	}
	return v, degenerate
}

// signRule flips v so that its first component with |v_j| > 1e-12 is positive.
func signRule(v []float64) {
	for _, x := range v {
		if math.Abs(x) > pcSignTol {
			if x < 0 {
				for j := range v {
					v[j] = -v[j]
				}
			}
			return
		}
	}
}

// Project writes into dst the scores s_i = (z_i − center)·v of the rows of the row-major
// table z with d = len(v) columns and returns dst; a nil dst is allocated, otherwise it must
// have len(z)/d elements. center may be nil (no centering). The dot product is accumulated in
// column order without fused multiply-adds. Cost O(n·d).
func Project(dst, z, center, v []float64) []float64 {
	d := len(v)
	n := len(z) / d
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n || len(z) != n*d || (center != nil && len(center) != d) {
		panic("microagg: Project: shape mismatch")
	}
	for i := range dst {
		row := z[i*d : (i+1)*d : (i+1)*d]
		var s float64
		for j, vj := range v {
			t := row[j]
			if center != nil {
				t -= center[j]
			}
			s += float64(t * vj)
		}
		dst[i] = s
	}
	return dst
}

// PP1 returns sdcMicro's projection-pursuit first component of the n×d row-major table z and
// its centre (docs/microaggregation.md §2.5): m is the coordinatewise median, and v is
// the direction a_i = (z_i − m)/‖z_i − m‖, over the records i with z_i ≠ m, that maximizes the
// raw MAD of the projections a_i·z_h (ties: lowest i), with v_1 made non-negative. The scores
// are Project(nil, z, m, v). When every record equals m, v is the first unit vector.
//
// The n candidate evaluations are split over workers goroutines (0 means GOMAXPROCS). A
// candidate whose MAD is shown, from one histogram pass over its projections, to lie below a
// MAD already computed is skipped without its two selections (madBelow; docs/scaling.md,
// "pppca"): it cannot be the maximum, and the maximum itself and its ties are never skipped,
// so the result does not depend on workers or on which candidates were skipped. z is not
// modified. It panics if n < 1 or len(z) != n·d. Cost O(n²·d) time (plus two quickselects of
// n values for the candidates not skipped), O(workers·n) memory.
func PP1(z []float64, n, d, workers int) (v, m []float64) {
	if n < 1 || d < 1 || len(z) != n*d {
		panic("microagg: PP1: bad shape")
	}
	m = make([]float64, d)
	buf := make([]float64, n)
	for j := range m {
		for i := range buf {
			buf[i] = z[i*d+j]
		}
		m[j] = median(buf)
	}
	mad := make([]float64, n)
	var lb atomic.Uint64 // the largest MAD computed so far (float64 bits), by any worker
	certify := ppCertifiable(z)
	var lanes []float64 // the rows for the AVX2 pass of madBelow
	if certify && useAVX2 {
		lanes = toLanes(z, n, d)
	}
	parallel.Ranges(n, workers, minRange, func(_, lo, hi int) {
		a := make([]float64, d)
		proj := make([]float64, n)
		cert := madCert{lanes: lanes}
		for i := lo; i < hi; i++ {
			if !direction(a, z[i*d:(i+1)*d], m) {
				mad[i] = -1
				continue
			}
			if certify && cert.madBelow(z, n, d, a, math.Float64frombits(lb.Load())) {
				mad[i] = -1 // below a computed MAD: not the maximum
				continue
			}
			Project(proj, z, nil, a)
			med := median(proj)
			for h := range proj {
				proj[h] = math.Abs(proj[h] - med)
			}
			mad[i] = median(proj)
			atomicMaxFloat(&lb, mad[i])
		}
	})
	best := -1
	for i, s := range mad {
		if s >= 0 && (best < 0 || s > mad[best]) {
			best = i
		}
	}
	v = make([]float64, d)
	if best < 0 {
		v[0] = 1
		return v, m
	}
	direction(v, z[best*d:(best+1)*d], m)
	if v[0] < 0 {
		for j := range v {
			v[j] = -v[j]
		}
	}
	return v, m
}

// direction sets a to (x − m)/‖x − m‖ and reports whether x ≠ m.
func direction(a, x, m []float64) bool {
	nrm := math.Sqrt(distance.Sq(x, m))
	if nrm == 0 {
		return false
	}
	for j := range a {
		a[j] = (x[j] - m[j]) / nrm
	}
	return true
}

// median returns the median of x (the mean of the two middle values for an even count),
// reordering x. It panics on empty x. Expected cost O(n).
func median(x []float64) float64 {
	n := len(x)
	h := n / 2
	hi := selectKth(x, h)
	if n%2 == 1 {
		return hi
	}
	// x[:h] now holds the h smallest values; the lower middle is their maximum.
	lo := x[0]
	for _, v := range x[1:h] {
		lo = max(lo, v)
	}
	return (lo + hi) / 2
}

// selectKth reorders x so that x[k] is the value of rank k (0-based), x[:k] ≤ x[k] ≤ x[k+1:],
// and returns x[k]. Deterministic three-way quickselect with a median-of-three pivot.
func selectKth(x []float64, k int) float64 {
	lo, hi := 0, len(x) // active range [lo, hi)
	for hi-lo > 1 {
		a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi-1]
		p := max(min(a, b), min(max(a, b), c))
		// three-way partition: [lo,lt) < p, [lt,i) == p, (gt,hi) > p
		lt, i, gt := lo, lo, hi-1
		for i <= gt {
			switch v := x[i]; {
			case v < p:
				x[lt], x[i] = x[i], x[lt]
				lt++
				i++
			case v > p:
				x[i], x[gt] = x[gt], x[i]
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k > gt:
			lo = gt + 1
		default:
			return p
		}
	}
	return x[k]
}

// minRange is the fewest iterations each goroutine of this package's parallel.Ranges loops
// gets: a loop over fewer than 2·minRange iterations runs on the caller's goroutine.
const minRange = 64
