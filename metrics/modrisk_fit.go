package metrics

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// The log-linear model of modrisk_gr1 and modrisk_gr2 (docs/metrics.md "Model-based global
// risk"): an R-style formula of factor terms and a Poisson fit by iteratively reweighted least
// squares, as R's glm(family = poisson()) fits sdcMicro's modRisk models.

// parseFormula reads a model formula over the columns names: an optional "~", then terms
// separated by "+", each a column name, an interaction a:b(:c…) or a product a*b(*c…), which
// stands for every interaction of its factors as in R (a*b = a + b + a:b). It returns the
// distinct terms, each the sorted column indices of its factors, main effects first. The model
// must be hierarchical (every term's lower-order terms are in it), so that the treatment-coded
// design spans the same space as R's model matrix. Other R formula syntax (-, ., ^, functions)
// is refused.
func parseFormula(formula string, names []string) ([][]int, error) {
	f := strings.TrimSpace(formula)
	f = strings.TrimSpace(strings.TrimPrefix(f, "~"))
	if f == "" {
		return nil, fmt.Errorf("formula %q has no term", formula)
	}
	if i := strings.IndexAny(f, "-.^()|%~/"); i >= 0 {
		return nil, fmt.Errorf("formula %q: %q is not supported (use names joined by +, : and *)", formula, f[i])
	}
	seen := map[string]bool{}
	var terms [][]int
	add := func(t []int) {
		slices.Sort(t)
		t = slices.Compact(t)
		k := fmt.Sprint(t)
		if !seen[k] {
			seen[k] = true
			terms = append(terms, t)
		}
	}
	col := func(name string) (int, error) {
		j := colIndex(names, strings.TrimSpace(name))
		if j < 0 {
			return 0, fmt.Errorf("formula %q: column %q not found", formula, strings.TrimSpace(name))
		}
		return j, nil
	}
	for _, term := range strings.Split(f, "+") {
		term = strings.TrimSpace(term)
		if term == "" {
			return nil, fmt.Errorf("formula %q has an empty term", formula)
		}
		if strings.Contains(term, "*") {
			if strings.Contains(term, ":") {
				return nil, fmt.Errorf("formula %q: mixing * and : in one term is not supported", formula)
			}
			var fs []int
			for _, n := range strings.Split(term, "*") {
				j, err := col(n)
				if err != nil {
					return nil, err
				}
				fs = append(fs, j)
			}
			if len(fs) > 20 {
				return nil, fmt.Errorf("formula %q: %d factors in one product", formula, len(fs))
			}
			for s := 1; s < 1<<len(fs); s++ {
				var t []int
				for b, j := range fs {
					if s&(1<<b) != 0 {
						t = append(t, j)
					}
				}
				add(t)
			}
			continue
		}
		var t []int
		for _, n := range strings.Split(term, ":") {
			j, err := col(n)
			if err != nil {
				return nil, err
			}
			t = append(t, j)
		}
		add(t)
	}
	for _, t := range terms {
		for s := 1; s < 1<<len(t)-1; s++ {
			var sub []int
			for b, j := range t {
				if s&(1<<b) != 0 {
					sub = append(sub, j)
				}
			}
			if !seen[fmt.Sprint(sub)] {
				return nil, fmt.Errorf("formula %q is not hierarchical: term %s lacks its lower-order term %s (add it)",
					formula, termName(t, names), termName(sub, names))
			}
		}
	}
	slices.SortStableFunc(terms, func(a, b []int) int { return len(a) - len(b) })
	return terms, nil
}

func termName(t []int, names []string) string {
	s := make([]string, len(t))
	for i, j := range t {
		s[i] = names[j]
	}
	return strings.Join(s, ":")
}

// poissonModel is a Poisson log-linear model y ~ X·β + offset over rows whose design row is an
// intercept, up to stride−1 indicator columns (cols, −1 for none) and an optional numeric
// covariate (num, column p−1).
type poissonModel struct {
	y, off []float64 // response and offset (off nil: none)
	cols   []int32   // len rows·stride: the row's indicator columns other than the intercept
	stride int
	num    []float64    // numeric covariate, nil for none
	p      int          // number of coefficients (intercept, indicators, numeric)
	stop   func() error // checked before each iteration (Input.Err); nil: never stops
}

// Convergence of fit: R's glm.fit criterion |dev − dev_old|/(|dev| + 0.1) < ε with a tighter
// ε than glm's 1e-8, so that the fitted values are the maximum-likelihood ones to about 1e-10.
const (
	poissonEps     = 1e-12
	poissonMaxIter = 100
)

// fit returns the fitted means μ of m by IRLS with the start and criterion of R's glm.fit for
// family poisson (μ = y + 0.1, log link; Nelder and Wedderburn 1972), and whether it
// converged. Each step solves the weighted normal equations XᵀWX·β = XᵀWz by a pivoted
// Cholesky factorization of the unit-diagonal scaled matrix (lapack64.Pstrf), so aliased
// columns get a zero coefficient as R's QR gives them NA; the fitted values do not depend on
// that choice. It returns stop's error as soon as stop reports one.
func (m *poissonModel) fit() (mu []float64, converged bool, err error) {
	rows, p := len(m.y), m.p
	mu = make([]float64, rows)
	eta := make([]float64, rows)
	var dev float64
	for r, y := range m.y {
		mu[r] = y + 0.1
		eta[r] = math.Log(mu[r])
		dev += poissonDev(y, mu[r])
	}
	a := make([]float64, p*p)
	b := make([]float64, p)
	beta := make([]float64, p)
	act := make([]int32, 0, m.stride+1)
	for it := 0; it < poissonMaxIter; it++ {
		if m.stop != nil {
			if err := m.stop(); err != nil {
				return nil, false, err
			}
		}
		clear(a)
		clear(b)
		for r := 0; r < rows; r++ {
			w := mu[r]
			z := eta[r] + (m.y[r]-mu[r])/mu[r]
			if m.off != nil {
				z -= m.off[r]
			}
			act = append(act[:0], 0) // the intercept
			for _, c := range m.cols[r*m.stride : (r+1)*m.stride] {
				if c >= 0 {
					act = append(act, c)
				}
			}
			xn := 0.0
			if m.num != nil {
				xn = m.num[r]
				a[(p-1)*p+p-1] += w * xn * xn
				b[p-1] += w * z * xn
			}
			for i, c := range act {
				b[c] += w * z
				for _, d := range act[i:] {
					a[int(min(c, d))*p+int(max(c, d))] += w
				}
				if m.num != nil {
					a[int(c)*p+p-1] += w * xn
				}
			}
		}
		if !solvePSD(a, b, p, beta) {
			return mu, false, nil
		}
		old := dev
		dev = 0
		for r := 0; r < rows; r++ {
			e := beta[0]
			for _, c := range m.cols[r*m.stride : (r+1)*m.stride] {
				if c >= 0 {
					e += beta[c]
				}
			}
			if m.num != nil {
				e += beta[p-1] * m.num[r]
			}
			if m.off != nil {
				e += m.off[r]
			}
			eta[r] = e
			mu[r] = math.Exp(e)
			dev += poissonDev(m.y[r], mu[r])
		}
		if math.IsNaN(dev) || math.IsInf(dev, 0) {
			return mu, false, nil
		}
		if math.Abs(dev-old)/(math.Abs(dev)+0.1) < poissonEps {
			return mu, true, nil
		}
	}
	return mu, false, nil
}

// poissonDev is the Poisson unit deviance 2(y·ln(y/μ) − (y − μ)), 2μ at y = 0.
func poissonDev(y, mu float64) float64 {
	if y == 0 {
		return 2 * mu
	}
	return 2 * (y*math.Log(y/mu) - (y - mu))
}

// solvePSD solves a·x = b for the symmetric positive semi-definite p×p matrix whose upper
// triangle a holds (a is overwritten), writing x. The matrix is scaled to a unit diagonal and
// factored with complete pivoting (P'SAS·P = UᵀU, LAPACK dpstrf); columns beyond the numerical
// rank, and columns with a zero diagonal, get x = 0 (a basic solution). It reports false if the
// system has no positive pivot.
func solvePSD(a, b []float64, p int, x []float64) bool {
	s := make([]float64, p)
	for i := 0; i < p; i++ {
		if d := a[i*p+i]; d > 0 {
			s[i] = 1 / math.Sqrt(d)
		}
	}
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			a[i*p+j] *= s[i] * s[j]
		}
		if s[i] == 0 {
			a[i*p+i] = 0
		}
	}
	piv := make([]int, p)
	work := make([]float64, 2*p)
	t, rank, _ := lapack64.Pstrf(blas64.Symmetric{Uplo: blas.Upper, N: p, Stride: p, Data: a}, piv, -1, work)
	if rank == 0 {
		return false
	}
	u := t.Data
	// Uᵀ·v = (S·b) permuted, then U·y = v, on the leading rank×rank block
	v := make([]float64, rank)
	for k := 0; k < rank; k++ {
		sum := s[piv[k]] * b[piv[k]]
		for i := 0; i < k; i++ {
			sum -= u[i*p+k] * v[i]
		}
		v[k] = sum / u[k*p+k]
	}
	for k := rank - 1; k >= 0; k-- {
		sum := v[k]
		for i := k + 1; i < rank; i++ {
			sum -= u[k*p+i] * v[i]
		}
		v[k] = sum / u[k*p+k]
	}
	clear(x)
	for k := 0; k < rank; k++ {
		x[piv[k]] = s[piv[k]] * v[k]
	}
	return true
}
