package robust

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// smallestBySort is the former mcdWork.smallest: sort all (md, index) pairs, take h, sort by
// index. hSmallest must return the same indices.
func smallestBySort(md []float64, h int) []int {
	ord := make([]int, len(md))
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, func(a, b int) int {
		if c := cmp.Compare(md[a], md[b]); c != 0 {
			return c
		}
		return a - b
	})
	out := slices.Clone(ord[:h])
	slices.Sort(out)
	return out
}

func TestHSmallestMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	gens := map[string]func() float64{
		"chisq":   func() float64 { x, y := r.NormFloat64(), r.NormFloat64(); return x*x + y*y },
		"ints":    func() float64 { return float64(r.IntN(5)) },
		"zeros":   func() float64 { return []float64{0, math.Copysign(0, -1), 1}[r.IntN(3)] },
		"inf":     func() float64 { return []float64{math.Inf(1), 2, 3e300, 1e-300}[r.IntN(4)] },
		"signed":  func() float64 { return r.NormFloat64() },
		"oneval":  func() float64 { return 4.5 },
		"spread":  func() float64 { return math.Exp(40 * r.NormFloat64()) },
		"nearby":  func() float64 { return 1 + float64(r.IntN(3))*1e-16 },
		"bucket1": func() float64 { return 1 + r.Float64()*1e-9 },
	}
	var s hSelect
	var dst []int
	for name, gen := range gens {
		for _, n := range []int{1, 2, 7, 100, 1501, 20000} {
			md := make([]float64, n)
			for i := range md {
				md[i] = gen()
			}
			for _, h := range []int{0, 1, n / 2, (n + 6) / 2, n - 1, n} {
				if h < 0 || h > n {
					continue
				}
				want := smallestBySort(md, h)
				dst = s.hSmallest(dst, md, h)
				if !slices.Equal(dst, want) {
					t.Fatalf("%s n=%d h=%d: hSmallest differs from the sort", name, n, h)
				}
			}
		}
	}
}

// TestFastMCDWorkersSame checks that the parallel distances of the final C-steps give the
// serial result bit for bit.
func TestFastMCDWorkersSame(t *testing.T) {
	defer func(v int) { mcdParallelRows = v }(mcdParallelRows)
	mcdParallelRows = 1
	r := rand.New(rand.NewPCG(5, 1))
	n, d := 4000, 4
	z := make([]float64, n*d)
	for i := range z {
		z[i] = r.NormFloat64()
		if i%17 == 0 {
			z[i] *= 20
		}
	}
	var ref *MCDResult
	for _, w := range []int{1, 2, 3} {
		res, err := FastMCD(context.Background(), z, n, d, MCDOptions{Starts: 40, Subsample: 900, Workers: w, Robustbase: true}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = res
			continue
		}
		if !slices.Equal(res.Distances, ref.Distances) || !slices.Equal(res.Center, ref.Center) || res.Kept != ref.Kept {
			t.Fatalf("workers=%d: result differs from workers=1", w)
		}
	}
}

// TestFactorRowsSame checks the two-row kernel of factor.rows against the scalar
// mahalanobisTo, bit for bit, on odd and even row counts, 1 to 9 columns, NaN and huge values.
func TestFactorRowsSame(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 4))
	for p := 1; p <= 9; p++ {
		for _, n := range []int{1, 2, 3, 10, 101} {
			y := make([]float64, n*p)
			for i := range y {
				y[i] = r.NormFloat64() * math.Exp(3*r.NormFloat64())
			}
			if n > 3 {
				y[p] = math.NaN()
				y[2*p] = 1e300
			}
			// a random SPD covariance
			w := newMCDWork(y, n, p, n, false)
			a := make([]float64, p*p)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			c := w.cov.RawSymmetric().Data
			for i := 0; i < p; i++ {
				for j := i; j < p; j++ {
					var s float64
					for k := 0; k < p; k++ {
						s += a[i*p+k] * a[j*p+k]
					}
					if i == j {
						s += 0.1
					}
					c[i*p+j] = s
				}
			}
			if err := w.f.set(w.cov, false, true); err != nil {
				t.Fatal(err)
			}
			mu := make([]float64, p)
			for j := range mu {
				mu[j] = r.NormFloat64()
			}
			got := make([]float64, n)
			w.f.rows(got, y, mu, make([]float64, 2*p))
			for i := range got {
				want := w.f.mahalanobisTo(make([]float64, p), y[i*p:(i+1)*p], mu)
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("p=%d n=%d row %d: %v, want %v", p, n, i, got[i], want)
				}
			}
		}
	}
}
