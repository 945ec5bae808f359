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
//
// The rows are taken in blocks of aroundBlock: the deviations of a block are computed once
// and stored column after column, then each entry's partial sum is carried through the
// block's rows in a register, up to four entries of a row of the triangle at a time. Every
// entry still adds the same rounded products in row order, so the matrix is bit for bit that
// of the plain row loop (TestAroundMatchesRowLoop); what changes is that the partial sums no
// longer go through memory for every row (docs/datapath.md, "eigen_sdc").
func Around(x []float64, n, p int, mean []float64) []float64 {
	c := make([]float64, p*p)
	dev := make([]float64, min(n, aroundBlock)*p) // a block's deviations, column after column
	for i0 := 0; i0 < n; i0 += aroundBlock {
		m := min(aroundBlock, n-i0)
		for i := 0; i < m; i++ {
			xr := x[(i0+i)*p : (i0+i+1)*p : (i0+i+1)*p]
			for l, v := range xr {
				dev[l*m+i] = v - mean[l]
			}
		}
		for h := 0; h < p; h++ {
			a := dev[h*m : (h+1)*m : (h+1)*m]
			cr := c[h*p : (h+1)*p : (h+1)*p]
			l := h
			for ; l+4 <= p; l += 4 {
				b0, b1 := dev[l*m : (l+1)*m][:len(a)], dev[(l+1)*m : (l+2)*m][:len(a)]
				b2, b3 := dev[(l+2)*m : (l+3)*m][:len(a)], dev[(l+3)*m : (l+4)*m][:len(a)]
				s0, s1, s2, s3 := cr[l], cr[l+1], cr[l+2], cr[l+3]
				for i, v := range a {
					s0 += float64(v * b0[i])
					s1 += float64(v * b1[i])
					s2 += float64(v * b2[i])
					s3 += float64(v * b3[i])
				}
				cr[l], cr[l+1], cr[l+2], cr[l+3] = s0, s1, s2, s3
			}
			if l+2 <= p {
				b0, b1 := dev[l*m : (l+1)*m][:len(a)], dev[(l+1)*m : (l+2)*m][:len(a)]
				s0, s1 := cr[l], cr[l+1]
				for i, v := range a {
					s0 += float64(v * b0[i])
					s1 += float64(v * b1[i])
				}
				cr[l], cr[l+1] = s0, s1
				l += 2
			}
			if l < p {
				b := dev[l*m : (l+1)*m][:len(a)]
				s := cr[l]
				for i, v := range a {
					s += float64(v * b[i])
				}
				cr[l] = s
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

// aroundBlock is the number of rows whose deviations Around holds at a time (20 KB at p = 10).
const aroundBlock = 256

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
