package covariance

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMatrixSmall checks a hand-computed 4×2 table: means (2.5, 5), variances 5/3 and 20/3,
// covariance 10/3 (the second column is twice the first), correlation 1.
func TestMatrixSmall(t *testing.T) {
	x := []float64{1, 2, 2, 4, 3, 6, 4, 8}
	if m := Means(x, 4, 2); m[0] != 2.5 || m[1] != 5 {
		t.Errorf("Means = %v", m)
	}
	c := Matrix(x, 4, 2)
	want := []float64{5.0 / 3, 10.0 / 3, 10.0 / 3, 20.0 / 3}
	for i := range want {
		if c[i] != want[i] {
			t.Errorf("Matrix[%d] = %.17g, want %.17g", i, c[i], want[i])
		}
	}
	r := Correlation(c, 2)
	if r[0] != 1 || r[3] != 1 || math.Abs(r[1]-1) > 1e-15 || r[1] != r[2] {
		t.Errorf("Correlation = %v", r)
	}
	if r := Correlation([]float64{0, 0, 0, 1}, 2); !math.IsNaN(r[0]) || !math.IsNaN(r[1]) || r[3] != 1 {
		t.Errorf("Correlation with a constant column = %v", r)
	}
}

// TestMatrixOrder checks bit-identity with the per-entry definition summed in row order.
func TestMatrixOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, p := 57, 4
	x := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64() * 1e3
	}
	m := Means(x, n, p)
	c := Matrix(x, n, p)
	for h := 0; h < p; h++ {
		for l := 0; l < p; l++ {
			var s float64
			for i := 0; i < n; i++ {
				s += float64((x[i*p+h] - m[h]) * (x[i*p+l] - m[l]))
			}
			if math.Float64bits(c[h*p+l]) != math.Float64bits(s/float64(n-1)) {
				t.Errorf("C[%d,%d] = %.17g, want %.17g", h, l, c[h*p+l], s/float64(n-1))
			}
		}
	}
}

// TestMatrixColsMatchesSubtable checks MatrixCols bit for bit against Matrix of the table of
// the chosen columns, for all columns in order, subsets, repeated and permuted columns.
func TestMatrixColsMatchesSubtable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n, p := 2+rng.IntN(50), 1+rng.IntN(8)
		x := make([]float64, n*p)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			if rng.IntN(20) == 0 {
				x[i] = 0
			}
		}
		var cols []int
		switch trial % 4 {
		case 0:
			for j := 0; j < p; j++ {
				cols = append(cols, j)
			}
		case 1:
			cols = rng.Perm(p)
		default:
			for j := 0; j < p; j++ {
				if rng.IntN(2) == 0 {
					cols = append(cols, j)
				}
			}
			if len(cols) == 0 || trial%8 == 2 {
				cols = append(cols, rng.IntN(p))
			}
		}
		q := len(cols)
		sub := make([]float64, n*q)
		for i := 0; i < n; i++ {
			for c, l := range cols {
				sub[i*q+c] = x[i*p+l]
			}
		}
		got, want := MatrixCols(x, n, p, cols), Matrix(sub, n, q)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d cols %v: entry %d = %v, want %v", trial, cols, k, got[k], want[k])
			}
		}
	}
}

// aroundByRows is Around as it was before the blocks: each row's deviations, then every
// entry of the upper triangle updated in memory.
func aroundByRows(x []float64, n, p int, mean []float64) []float64 {
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

// TestAroundMatchesRowLoop checks the blocked Around bit for bit against the plain row loop
// for n below, at and across the block size and p from 1 to 13 (the four-entry groups and
// their remainders), with values of mixed magnitudes, zeros, infinities and NaN.
func TestAroundMatchesRowLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 3, 255, 256, 257, 513, 1000} {
		for p := 1; p <= 13; p++ {
			x := make([]float64, n*p)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
				switch rng.IntN(200) {
				case 0:
					x[i] = 0
				case 1:
					if n%2 == 1 {
						x[i] = math.Inf(1)
					}
				case 2:
					if n%3 == 0 {
						x[i] = math.NaN()
					}
				}
			}
			m := Means(x, n, p)
			got, want := Around(x, n, p, m), aroundByRows(x, n, p, m)
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("n %d p %d: entry %d = %v, row loop %v", n, p, k, got[k], want[k])
				}
			}
		}
	}
}

func BenchmarkAround(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, p := 100_000, 10
	x := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	m := Means(x, n, p)
	b.Run("blocked", func(b *testing.B) {
		for b.Loop() {
			Around(x, n, p, m)
		}
	})
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			aroundByRows(x, n, p, m)
		}
	})
}
