// Package covariance computes the column means, sample covariance matrix (divisor n−1) and
// correlation matrix of a row-major n×p table, every sum taken over rows in row order with
// separately rounded products, so that each caller gets bit-identical values.
package covariance

import "math"

// Means returns the column means of the n×p row-major table x: the sums in row order, divided
// by n.
func Means(x []float64, n, p int) []float64 {
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for l, v := range x[i*p : (i+1)*p] {
			mean[l] += v
		}
	}
	for l := range mean {
		mean[l] /= float64(n)
	}
	return mean
}

// Matrix returns the full p×p sample covariance matrix (divisor n−1) of the n×p row-major
// table x, two-pass: Around(x, n, p, Means(x, n, p)).
func Matrix(x []float64, n, p int) []float64 { return Around(x, n, p, Means(x, n, p)) }

// Around returns the full p×p matrix C_hl = Σ_i (x_ih − m_h)(x_il − m_l)/(n − 1) about the
// given column means m (the sample covariance when m are the column means). Each entry is
// summed over rows in row order; the upper triangle is computed and mirrored.
func Around(x []float64, n, p int, mean []float64) []float64 {
	c := make([]float64, p*p)
	dev := make([]float64, p)
	for i := 0; i < n; i++ {
		for l := range dev {
			dev[l] = x[i*p+l] - mean[l]
		}
		for h := 0; h < p; h++ {
			row, dh := c[h*p:(h+1)*p], dev[h]
			for l := h; l < p; l++ {
				row[l] += float64(dh * dev[l])
			}
		}
	}
	for h := 0; h < p; h++ {
		for l := h; l < p; l++ {
			c[h*p+l] /= float64(n - 1)
			c[l*p+h] = c[h*p+l]
		}
	}
	return c
}

// MatrixCols returns the q×q sample covariance matrix (divisor n−1) of the q = len(cols)
// columns cols of the n×p row-major table x, bit for bit Matrix of the n×q table of those
// columns (the same sums in the same order) without making that table: two passes over x.
func MatrixCols(x []float64, n, p int, cols []int) []float64 {
	if len(cols) == p && isIdentity(cols) {
		return Matrix(x, n, p)
	}
	q := len(cols)
	mean := make([]float64, q)
	for i := 0; i < n; i++ {
		row := x[i*p : (i+1)*p]
		for c, l := range cols {
			mean[c] += row[l]
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	cm := make([]float64, q*q)
	dev := make([]float64, q)
	for i := 0; i < n; i++ {
		row := x[i*p : (i+1)*p]
		for c, l := range cols {
			dev[c] = row[l] - mean[c]
		}
		for h := 0; h < q; h++ {
			crow, dh := cm[h*q:(h+1)*q], dev[h]
			for l := h; l < q; l++ {
				crow[l] += float64(dh * dev[l])
			}
		}
	}
	for h := 0; h < q; h++ {
		for l := h; l < q; l++ {
			cm[h*q+l] /= float64(n - 1)
			cm[l*q+h] = cm[h*q+l]
		}
	}
	return cm
}

// isIdentity reports whether cols is 0, 1, …, len(cols)−1.
func isIdentity(cols []int) bool {
	for c, l := range cols {
		if c != l {
			return false
		}
	}
	return true
}

// Correlation returns the correlation matrix of the p×p covariance matrix c (CorrelationTo).
func Correlation(c []float64, p int) []float64 {
	r := make([]float64, p*p)
	CorrelationTo(r, c, p)
	return r
}

// CorrelationTo writes r_hl = c_hl/√(c_hh·c_ll) into r (p×p), with an exact unit diagonal
// where the variance is positive; entries of a zero-variance column are NaN.
func CorrelationTo(r, c []float64, p int) {
	for h := 0; h < p; h++ {
		for l := 0; l < p; l++ {
			if h == l && c[h*p+h] > 0 {
				r[h*p+l] = 1
				continue
			}
			r[h*p+l] = c[h*p+l] / math.Sqrt(c[h*p+h]*c[l*p+l])
		}
	}
}
