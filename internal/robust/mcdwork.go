package robust

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// mcdParallelRows is the table size from which distances runs on several goroutines (a
// variable so that tests can cover the parallel path on small tables).
var mcdParallelRows = 1 << 16

// mcdWork is one goroutine's FAST-MCD workspace over the N×p row-major table y.
type mcdWork struct {
	y      []float64
	N, p   int
	h      int
	strict bool
	ridge  bool // some fit was ridged

	mu     []float64
	cov    *mat.SymDense
	f      factor
	md     []float64 // squared Mahalanobis distance of every row under (mu, f)
	sel    hSelect   // scratch for smallest
	histOK bool      // sel.hist holds the histogram of md (counted by distances)
	// workers > 1 splits distances over that many goroutines (each row's distance is
	// computed alone, so md does not depend on it); xs holds their scratch rows.
	workers int
	xs      [][]float64
	dev     []float64 // scratch row
	basis   []float64 // scratch for affineRank, p×p
	eig     mat.EigenSym
	vals    []float64
}

// welford adds row i to the running mean mu and scatter matrix cov (= M2) of a subset that
// now has m rows.
func (w *mcdWork) welford(i, m int) {
	p := w.p
	dev := w.dev
	x := w.y[i*p : (i+1)*p]
	for j, v := range x {
		dev[j] = v - w.mu[j]
		w.mu[j] += dev[j] / float64(m)
	}
	f := float64(m-1) / float64(m)
	c := w.cov.RawSymmetric().Data
	for a := 0; a < p; a++ {
		da := f * dev[a]
		row := c[a*p : (a+1)*p]
		for b := a; b < p; b++ {
			row[b] += float64(da * dev[b])
		}
	}
}

// isSingular reports whether the symmetric a is singular by the rule of §2.6 item 4:
// λ_min ≤ 1e-10·λ_max or λ_max ≤ 0 (or the eigensolver fails). eig and vals are workspace.
func isSingular(a *mat.SymDense, eig *mat.EigenSym, vals []float64) bool {
	if !eig.Factorize(a, false) {
		return true
	}
	vals = eig.Values(vals)
	lmax := vals[len(vals)-1]
	return lmax <= 0 || vals[0] <= singularTol*lmax
}

func newMCDWork(y []float64, N, p, h int, strict bool) *mcdWork {
	return &mcdWork{
		y: y, N: N, p: p, h: h, strict: strict,
		mu:    make([]float64, p),
		cov:   mat.NewSymDense(p, nil),
		md:    make([]float64, N),
		dev:   make([]float64, p),
		basis: make([]float64, p*p),
		vals:  make([]float64, p),
		f:     factor{u: make([]float64, p*p), l: make([]float64, p*p), x: make([]float64, p)},
	}
}

// meanCov sets mu and cov to the mean and covariance (dividing by denom) of the rows idx,
// summed in the order given.
func (w *mcdWork) meanCov(idx []int, denom float64) {
	p := w.p
	if w.workers > 1 && len(idx) >= mcdParallelRows {
		w.meanCovParallel(idx, denom)
		return
	}
	clear(w.mu)
	for _, i := range idx {
		for j, v := range w.y[i*p : (i+1)*p] {
			w.mu[j] += v
		}
	}
	for j := range w.mu {
		w.mu[j] /= float64(len(idx))
	}
	c := w.cov.RawSymmetric().Data // upper triangle, row-major, stride p
	clear(c)
	dev := w.dev
	for _, i := range idx {
		for j, v := range w.y[i*p : (i+1)*p] {
			dev[j] = v - w.mu[j]
		}
		for a := 0; a < p; a++ {
			da := dev[a]
			row := c[a*p : (a+1)*p]
			for b := a; b < p; b++ {
				row[b] += float64(da * dev[b])
			}
		}
	}
	for a := 0; a < p; a++ {
		for b := a; b < p; b++ {
			c[a*p+b] /= denom
		}
	}
}

// meanCovParallel is meanCov with the columns of the mean, then the entries of the upper
// triangle of the scatter, split over w.workers goroutines. Every mean and every entry is
// still accumulated alone over the rows in the order given, with the same operations, so
// the result is meanCov's bit for bit.
func (w *mcdWork) meanCovParallel(idx []int, denom float64) {
	p, y := w.p, w.y
	nw := min(w.workers, p*(p+1)/2)
	parallel.Ranges(p, min(nw, p), 1, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			var m float64
			for _, i := range idx {
				m += y[i*p+j]
			}
			w.mu[j] = m / float64(len(idx))
		}
	})
	c := w.cov.RawSymmetric().Data
	clear(c)
	type entry struct{ a, b int }
	var all []entry
	for a := 0; a < p; a++ {
		for b := a; b < p; b++ {
			all = append(all, entry{a, b})
		}
	}
	mu := w.mu
	parallel.Ranges(len(all), nw, 1, func(_, lo, hi int) {
		mine := all[lo:hi]
		acc := make([]float64, len(mine))
		dev := make([]float64, p)
		for _, i := range idx {
			row := y[i*p : (i+1)*p]
			for j, v := range row {
				dev[j] = v - mu[j]
			}
			for e, en := range mine {
				acc[e] += float64(dev[en.a] * dev[en.b])
			}
		}
		for e, en := range mine {
			c[en.a*p+en.b] = acc[e]
		}
	})
	for a := 0; a < p; a++ {
		for b := a; b < p; b++ {
			c[a*p+b] /= denom
		}
	}
}

// fit sets (mu, cov) from the rows idx and factors cov under the singular rule.
func (w *mcdWork) fit(idx []int, denom float64) error {
	w.meanCov(idx, denom)
	if err := w.f.set(w.cov, w.strict, true); err != nil {
		return err
	}
	w.ridge = w.ridge || w.f.ridge
	return nil
}

// distances sets md to every row's squared Mahalanobis distance under (mu, f), on
// w.workers goroutines over contiguous row ranges when w.workers > 1 and the table is large.
func (w *mcdWork) distances() {
	p := w.p
	if w.workers <= 1 || w.N < mcdParallelRows {
		// the histogram of smallest is counted on the way
		w.sel.reset()
		w.f.rows(w.md, w.y, w.mu, w.f.x2())
		for _, v := range w.md {
			w.sel.count(v)
		}
		w.histOK = true
		return
	}
	w.histOK = false
	for len(w.xs) < w.workers {
		w.xs = append(w.xs, make([]float64, 2*p))
	}
	parallel.Ranges(w.N, w.workers, 1, func(t, lo, hi int) {
		w.f.rows(w.md[lo:hi], w.y[lo*p:hi*p], w.mu, w.xs[t])
	})
}

// smallest returns in dst (reallocated if short) the h rows with the smallest (md, index),
// in ascending index order.
func (w *mcdWork) smallest(dst []int) []int {
	if !w.histOK {
		w.sel.histogram(w.md)
	}
	w.histOK = false
	return w.sel.hSmallestHist(dst, w.md, w.h)
}

// start runs one random start (§2.6 item 2) with its own generator rs and scratch perm:
// a random (p+1)-subset grown by random rows while its covariance is singular, the h rows
// nearest to it, and two C-steps. It returns the subset and the log-determinant of its
// covariance.
func (w *mcdWork) start(rs *rand.Rand, perm []int) ([]int, float64, error) {
	for i := range perm {
		perm[i] = i
	}
	draw := func(t int) { // place a random remaining row at perm[t]
		j := t + rs.IntN(w.N-t)
		perm[t], perm[j] = perm[j], perm[t]
	}
	m := w.p + 1
	for t := 0; t < m; t++ {
		draw(t)
	}
	// While the subset's affine span has fewer than p dimensions its covariance is singular
	// in exact arithmetic: grow it at O(p²) per row (affineRank), and only then pay for the
	// covariance and its eigenvalues at every step.
	ar := newAffineRank(w.y[perm[0]*w.p:(perm[0]+1)*w.p], w.basis)
	for _, i := range perm[1:m] {
		ar.add(w.y[i*w.p : (i+1)*w.p])
	}
	for m < w.h && ar.rank < w.p {
		draw(m)
		ar.add(w.y[perm[m]*w.p : (perm[m]+1)*w.p])
		m++
	}
	// Then grow one row at a time while the covariance is singular by the eigenvalue rule,
	// updating the scatter matrix M2 = m·cov in O(p²) per row (Welford) and testing its
	// eigenvalues (the rule is scale-free), O(p³) per row.
	singular := ar.rank < w.p // only possible at m = h
	if !singular {
		w.meanCov(perm[:m], 1)
		for m < w.h && isSingular(w.cov, &w.eig, w.vals) {
			draw(m)
			m++
			w.welford(perm[m-1], m)
		}
		singular = m == w.h && isSingular(w.cov, &w.eig, w.vals)
	}
	w.meanCov(perm[:m], float64(m))
	if singular && w.strict { // still singular at h rows: §2.6 item 4
		return nil, 0, fmt.Errorf("random start still singular at h = %d rows: %w", m, ErrSingularCovariance)
	}
	if err := w.f.set(w.cov, w.strict, true); err != nil {
		return nil, 0, fmt.Errorf("random start of %d rows: %w", m, err)
	}
	w.ridge = w.ridge || w.f.ridge
	w.distances()
	H := w.smallest(nil)
	for step := 0; step < 2; step++ {
		if err := w.fit(H, float64(w.h)); err != nil {
			return nil, 0, err
		}
		w.distances()
		H = w.smallest(H)
	}
	if err := w.fit(H, float64(w.h)); err != nil {
		return nil, 0, err
	}
	return H, w.f.logDet, nil
}

// converge iterates C-steps from H until the determinant stops decreasing or maxSteps steps
// were taken, and returns the last improving subset and its log-determinant.
func (w *mcdWork) converge(H []int, maxSteps int) ([]int, float64, error) {
	if err := w.fit(H, float64(w.h)); err != nil {
		return nil, 0, err
	}
	ld := w.f.logDet
	var next []int
	for step := 0; step < maxSteps; step++ {
		w.distances()
		next = w.smallest(next)
		if slices.Equal(next, H) {
			break
		}
		if err := w.fit(next, float64(w.h)); err != nil {
			return nil, 0, err
		}
		if !(w.f.logDet < ld) {
			break
		}
		H, next, ld = next, H, w.f.logDet
	}
	return H, ld, nil
}

// factor is the Cholesky factor Σ = UᵀU of a (possibly ridged) covariance matrix.
type factor struct {
	p      int
	u      []float64 // p×p row-major, upper triangular
	l      []float64 // Uᵀ, p×p row-major, lower triangular (the rows mahalanobis reads)
	logDet float64
	ridge  bool
	x      []float64 // scratch
}

// set factors cov. A singular cov (λ_min ≤ 1e-10·λ_max, λ_max = 0 or a failed Cholesky)
// is an error wrapping ErrSingularCovariance if strict or !allowRidge, and is otherwise
// replaced by cov + εI, ε = 1e-6·max(trace/p, 1e-12) (§2.6 item 4). cov is not modified.
func (f *factor) set(cov *mat.SymDense, strict, allowRidge bool) error {
	p := cov.SymmetricDim()
	f.p, f.ridge = p, false
	var eig mat.EigenSym
	ok := eig.Factorize(cov, false)
	var chol mat.Cholesky
	if ok {
		vals := eig.Values(nil)
		lmax := vals[p-1]
		ok = lmax > 0 && vals[0] > singularTol*lmax && chol.Factorize(cov)
	}
	if !ok {
		if strict || !allowRidge {
			return fmt.Errorf("%w: covariance with eigenvalue ratio ≤ %g", ErrSingularCovariance, singularTol)
		}
		eps := 1e-6 * max(mat.Trace(cov)/float64(p), 1e-12)
		r := mat.NewSymDense(p, nil)
		r.CopySym(cov)
		for j := 0; j < p; j++ {
			r.SetSym(j, j, r.At(j, j)+eps)
		}
		if !chol.Factorize(r) {
			return fmt.Errorf("%w: ridged covariance not positive definite", ErrSingularCovariance)
		}
		f.ridge = true
	}
	f.logDet = chol.LogDet()
	var u mat.TriDense
	chol.UTo(&u)
	raw := u.RawTriangular()
	for a := 0; a < p; a++ {
		copy(f.u[a*p:(a+1)*p], raw.Data[a*raw.Stride:a*raw.Stride+p])
	}
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			f.l[a*p+b] = f.u[b*p+a]
		}
	}
	return nil
}

// copyFrom makes f a copy of g (same p), keeping f's buffers.
func (f *factor) copyFrom(g *factor) {
	f.p, f.logDet, f.ridge = g.p, g.logDet, g.ridge
	copy(f.u, g.u)
	copy(f.l, g.l)
}

// x2 returns scratch of 2p values for rows.
func (f *factor) x2() []float64 {
	if len(f.x) < 2*f.p {
		f.x = make([]float64, 2*f.p)
	}
	return f.x
}

// rows sets out[i] to the squared Mahalanobis distance of row i of the p-column table y, as
// mahalanobisTo computes it, two rows at a time with the SSE2 kernel where there is one. x
// is scratch of 2p values.
func (f *factor) rows(out, y, mu, x []float64) {
	p := f.p
	n := len(out)
	i := 0
	if hasMahalPairs && n >= 2 && p >= 1 {
		_, _, _ = y[n*p-1], mu[p-1], x[2*p-1]
		pairs := n / 2
		mahalPairsSSE2(&out[0], &y[0], &mu[0], &f.l[0], &x[0], p, pairs)
		for t := range out[:2*pairs] {
			if math.IsNaN(out[t]) {
				out[t] = math.Inf(1)
			}
		}
		i = 2 * pairs
	}
	for ; i < n; i++ {
		out[i] = f.mahalanobisTo(x, y[i*p:(i+1)*p], mu)
	}
}

// mahalanobisTo returns (y−μ)ᵀΣ⁻¹(y−μ) = ‖U⁻ᵀ(y−μ)‖² by forward substitution, with the
// scratch row x (p values), so that several goroutines can share f. Cost p²/2.
func (f *factor) mahalanobisTo(x, y, mu []float64) float64 {
	p, l := f.p, f.l
	x, y, mu = x[:p], y[:p], mu[:p]
	var s float64
	for a := 0; a < p; a++ {
		v := y[a] - mu[a]
		row := l[a*p : a*p+a+1]
		xs := x[:a]
		for b, lv := range row[:a] { // lv = u[b*p+a]
			v -= float64(lv * xs[b])
		}
		v /= row[a]
		x[a] = v
		s += float64(v * v)
	}
	if math.IsNaN(s) {
		return math.Inf(1)
	}
	return s
}

// affineRankTol is the residual, relative to ‖x − x0‖, below which a point adds no direction
// to an affine span. It is far below what makes a covariance non-singular by the 1e-10
// eigenvalue rule, so a span it calls deficient always has a singular covariance.
const affineRankTol = 1e-8

// affineRank tracks the dimension of the affine span of a growing set of points by modified
// Gram–Schmidt on x − x0 (twice, for stability). Cost O(p²) per point.
type affineRank struct {
	x0    []float64
	basis []float64 // rank orthonormal rows of length p
	rank  int
}

func newAffineRank(x0, basis []float64) *affineRank {
	return &affineRank{x0: x0, basis: basis}
}

func (a *affineRank) add(x []float64) {
	p := len(a.x0)
	if a.rank == p {
		return
	}
	r := a.basis[a.rank*p : (a.rank+1)*p]
	var n0 float64
	for j, v := range x {
		r[j] = v - a.x0[j]
		n0 += r[j] * r[j]
	}
	if n0 == 0 {
		return
	}
	for pass := 0; pass < 2; pass++ {
		for b := 0; b < a.rank; b++ {
			q := a.basis[b*p : (b+1)*p]
			var dot float64
			for j := range r {
				dot += r[j] * q[j]
			}
			for j := range r {
				r[j] -= dot * q[j]
			}
		}
	}
	var n1 float64
	for _, v := range r {
		n1 += v * v
	}
	if n1 <= affineRankTol*affineRankTol*n0 {
		return
	}
	nrm := math.Sqrt(n1)
	for j := range r {
		r[j] /= nrm
	}
	a.rank++
}
