package synth

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// block is a column selection of a dataset as a dense row-major n×k matrix, optionally
// z-scored with its own means and sample SDs (divisor n−1).
type block struct {
	n, k     int
	a        []float64
	mean, sd []float64
}

// newBlock copies the columns cols of the row-major n×p table data. With z it centres and
// scales every column; a constant column (sd = 0) is reported in constant and left centred
// (all zeros).
func newBlock(data []float64, n, p int, cols []int, z bool) (b block, constant []int) {
	k := len(cols)
	b = block{n: n, k: k, a: make([]float64, n*k), mean: make([]float64, k), sd: make([]float64, k)}
	for i := range n {
		for c, j := range cols {
			b.a[i*k+c] = data[i*p+j]
		}
	}
	for c := range k {
		var m float64
		for i := range n {
			m += b.a[i*k+c]
		}
		m /= float64(n)
		var s float64
		for i := range n {
			t := b.a[i*k+c] - m
			s += t * t
		}
		sd := math.Sqrt(s / float64(n-1))
		b.mean[c], b.sd[c] = m, sd
		if sd == 0 {
			constant = append(constant, c)
		}
		if !z {
			b.sd[c] = 1
			b.mean[c] = 0
			continue
		}
		for i := range n {
			if sd == 0 {
				b.a[i*k+c] = 0
			} else {
				b.a[i*k+c] = (b.a[i*k+c] - m) / sd
			}
		}
	}
	return b, constant
}

// design returns the n×q regression matrix [1 | columns of bs except drop] (without the 1
// column when intercept is false).
func design(intercept bool, drop map[*block][]int, bs ...*block) (a []float64, q int) {
	var keep [][2]int // block index, column
	for bi, b := range bs {
	cols:
		for c := range b.k {
			for _, d := range drop[b] {
				if d == c {
					continue cols
				}
			}
			keep = append(keep, [2]int{bi, c})
		}
	}
	q = len(keep)
	if intercept {
		q++
	}
	n := bs[0].n
	a = make([]float64, n*q)
	for i := range n {
		row := a[i*q : (i+1)*q]
		o := 0
		if intercept {
			row[0] = 1
			o = 1
		}
		for c, kc := range keep {
			b := bs[kc[0]]
			row[o+c] = b.a[i*b.k+kc[1]]
		}
	}
	return a, q
}

// Ginv selects the generalized inverse used when a normal-equation matrix is singular.
type Ginv int

// Generalized inverses.
const (
	GinvPinv  Ginv = iota // Moore–Penrose by SVD, tolerance √ε·σ_max (R's MASS::ginv)
	GinvPivot             // the study's pivoting 1-inverse (GinvPivot)
)

// solver solves weighted least-squares problems min Σ_k w_k ‖y_k − a_kᵀβ‖² for a fixed
// design a (n×q), reusing its buffers. The normal equations are solved by Cholesky; when the
// factorization fails or the reciprocal condition number is below 1e-12 the generalized
// inverse takes over (docs/fcrm.md "Generalized inverse").
type solver struct {
	n, q  int
	a     []float64
	ginv  Ginv
	g     *mat.SymDense
	gd    *mat.Dense
	rhs   *mat.Dense
	sol   *mat.Dense
	chol  mat.Cholesky
	pinvs int // number of solves that used the generalized inverse
}

func newSolver(a []float64, n, q int, ginv Ginv) *solver {
	return &solver{n: n, q: q, a: a, ginv: ginv, g: mat.NewSymDense(q, nil), gd: mat.NewDense(q, q, nil)}
}

// solve writes β (q×t, row-major) for the t right-hand sides y (n×t row-major) with weights
// w (nil: all 1).
func (s *solver) solve(w []float64, y []float64, t int, beta []float64) {
	n, q := s.n, s.q
	g := s.g.RawSymmetric().Data
	clear(g)
	if s.rhs == nil || s.rhs.RawMatrix().Cols != t {
		s.rhs = mat.NewDense(q, t, nil)
		s.sol = mat.NewDense(q, t, nil)
	}
	r := s.rhs.RawMatrix().Data
	clear(r)
	for k := range n {
		row := s.a[k*q : (k+1)*q]
		wk := 1.0
		if w != nil {
			wk = w[k]
		}
		if wk == 0 {
			continue
		}
		yk := y[k*t : (k+1)*t]
		for i, ai := range row {
			v := wk * ai
			gi := g[i*q : (i+1)*q]
			for j := i; j < q; j++ {
				gi[j] += v * row[j]
			}
			ri := r[i*t : (i+1)*t]
			for l, yl := range yk {
				ri[l] += v * yl
			}
		}
	}
	if s.chol.Factorize(s.g) && 1/s.chol.Cond() >= 1e-12 {
		if err := s.chol.SolveTo(s.sol, s.rhs); err == nil {
			copy(beta, s.sol.RawMatrix().Data)
			return
		}
	}
	s.pinvs++
	for i := range q {
		for j := i; j < q; j++ {
			s.gd.Set(i, j, g[i*q+j])
			s.gd.Set(j, i, g[i*q+j])
		}
	}
	var gi *mat.Dense
	if s.ginv == GinvPivot {
		gi, _ = GinvPivotOf(s.gd)
	} else {
		gi = s.pinv(s.gd)
	}
	s.sol.Mul(gi, s.rhs)
	copy(beta, s.sol.RawMatrix().Data)
}

// pinv returns the Moore–Penrose inverse of a with singular values below √ε·σ_max set to 0.
func (s *solver) pinv(a *mat.Dense) *mat.Dense {
	g, err := Pinv(a)
	if err != nil {
		// SVD did not converge: treat as the zero matrix (no fit) rather than panic.
		r, c := a.Dims()
		return mat.NewDense(c, r, nil)
	}
	return g
}

// Pinv returns the Moore–Penrose inverse of a by SVD, singular values σ ≤ √ε·σ_max treated as
// zero (the tolerance of R's MASS::ginv).
func Pinv(a mat.Matrix) (*mat.Dense, error) {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, errors.New("synth: SVD did not converge")
	}
	sv := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	r, c := a.Dims()
	g := mat.NewDense(c, r, nil)
	if len(sv) == 0 || sv[0] == 0 {
		return g, nil
	}
	tol := math.Sqrt(eps) * sv[0]
	for k, sk := range sv {
		if sk <= tol {
			continue
		}
		for i := range c {
			vik := v.At(i, k) / sk
			if vik == 0 {
				continue
			}
			for j := range r {
				g.Set(i, j, g.At(i, j)+vik*u.At(j, k))
			}
		}
	}
	return g, nil
}

const eps = 2.220446049250313e-16

// GinvPivotOf returns the study's pivoting generalized inverse G (n×m) of a (m×n) and its rank:
// rows of a are visited in order; the first column j of W (initially I_n) with t_j = a_iᵀw_j
// nonzero and not yet pivoted becomes pivot U_j = i, is divided by t_j and eliminated from the
// other columns; G[r, U_p] = W[r, p] over pivoted p and r. "Nonzero" is |t| > 1e-12·max|a|.
// For a non-singular square a, G = a⁻¹; in general a·G·a = a (docs/fcrm.md).
func GinvPivotOf(a mat.Matrix) (*mat.Dense, int) {
	m, n := a.Dims()
	var amax float64
	for i := range m {
		for j := range n {
			amax = math.Max(amax, math.Abs(a.At(i, j)))
		}
	}
	tiny := 1e-12 * amax
	w := mat.NewDense(n, n, nil)
	for j := range n {
		w.Set(j, j, 1)
	}
	piv := make([]int, n) // U_j: 1-based row, 0 = none
	t := make([]float64, n)
	for i := range m {
		for j := range n {
			var s float64
			for r := range n {
				s += a.At(i, r) * w.At(r, j)
			}
			t[j] = s
		}
		p := -1
		for j := range n {
			if math.Abs(t[j]) > tiny && piv[j] == 0 {
				p = j
				break
			}
		}
		if p < 0 {
			continue
		}
		piv[p] = i + 1
		for r := range n {
			w.Set(r, p, w.At(r, p)/t[p])
		}
		for j := range n {
			if j == p || math.Abs(t[j]) <= tiny {
				continue
			}
			for r := range n {
				w.Set(r, j, w.At(r, j)-t[j]*w.At(r, p))
			}
		}
	}
	g := mat.NewDense(n, m, nil)
	rank := 0
	for p := range n {
		if piv[p] == 0 {
			continue
		}
		rank++
		for r := range n {
			if piv[r] != 0 {
				g.Set(r, piv[p]-1, w.At(r, p))
			}
		}
	}
	return g, rank
}

// mulRows writes out (n×t) = a (n×q) · beta (q×t), all row-major.
func mulRows(a []float64, n, q int, beta []float64, t int, out []float64) {
	for k := range n {
		row := a[k*q : (k+1)*q]
		o := out[k*t : (k+1)*t]
		clear(o)
		for i, ai := range row {
			if ai == 0 {
				continue
			}
			b := beta[i*t : (i+1)*t]
			for l, bl := range b {
				o[l] += ai * bl
			}
		}
	}
}

func sqrt(v float64) float64 { return math.Sqrt(v) }
