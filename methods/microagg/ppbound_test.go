package microagg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/parallel"
)

// pp1Reference is PP1 as it was before the histogram bound (commit 11c70d7): every
// candidate's MAD by two selections. It is the reference of TestPP1EqualsReference.
func pp1Reference(z []float64, n, d, workers int) (v, m []float64) {
	m = make([]float64, d)
	buf := make([]float64, n)
	for j := range m {
		for i := range buf {
			buf[i] = z[i*d+j]
		}
		m[j] = median(buf)
	}
	mad := make([]float64, n)
	parallel.Ranges(n, workers, minRange, func(_, lo, hi int) {
		a := make([]float64, d)
		proj := make([]float64, n)
		for i := lo; i < hi; i++ {
			if !direction(a, z[i*d:(i+1)*d], m) {
				mad[i] = -1
				continue
			}
			Project(proj, z, nil, a)
			med := median(proj)
			for h := range proj {
				proj[h] = math.Abs(proj[h] - med)
			}
			mad[i] = median(proj)
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

// exactMAD is the MAD PP1 computes for x.
func exactMAD(x []float64) float64 {
	y := slices.Clone(x)
	med := median(y)
	for h := range y {
		y[h] = math.Abs(y[h] - med)
	}
	return median(y)
}

// TestMadBelowSound: whenever madBelow holds, the MAD computed by two selections is below lb
// (on normal, integer (ties), duplicated, heavy-tailed and constant data, even and odd n,
// with lb from far below to far above the MAD); and it does hold when lb is well above.
func TestMadBelowSound(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 5))
	var c madCert
	held := 0
	for trial := 0; trial < 3000; trial++ {
		n := 2 + r.IntN(3000)
		x := make([]float64, n)
		kind := trial % 5
		for i := range x {
			switch kind {
			case 0:
				x[i] = r.NormFloat64()
			case 1:
				x[i] = float64(r.IntN(5))
			case 2:
				x[i] = float64(r.IntN(3)) * 0.1
				if i > 0 && r.IntN(2) == 0 {
					x[i] = x[i-1]
				}
			case 3:
				x[i] = math.Tan(math.Pi * (r.Float64() - 0.5)) // Cauchy
			case 4:
				x[i] = 7
			}
		}
		mad := exactMAD(x)
		for _, f := range []float64{0.5, 0.99, 0.999, 1, 1.0001, 1.001, 1.01, 1.1, 2} {
			lb := mad * f
			if mad == 0 {
				lb = f - 0.5
			}
			if c.madBelow(x, n, 1, []float64{1}, lb) {
				held++
				if !(mad < lb) {
					t.Fatalf("trial %d kind %d n=%d: madBelow(lb=%v) but MAD = %v", trial, kind, n, lb, mad)
				}
			} else if f == 2 && mad > 0 && kind == 0 && n > 100 {
				t.Errorf("trial %d: normal data, lb = 2·MAD: bound not shown", trial)
			}
		}
	}
	if held == 0 {
		t.Fatal("madBelow never held")
	}
}

// TestPP1EqualsReference: PP1 with the histogram bound returns the same direction and centre,
// bit for bit, as the version that computes every candidate's MAD, on isotropic, correlated,
// integer (ties), duplicated and heavy-tailed data, with 1 and 2 workers.
func TestPP1EqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 6))
	for _, c := range []struct {
		kind string
		n, d int
	}{{"normal", 301, 3}, {"normal", 2000, 5}, {"normal", 1999, 2}, {"correlated", 1500, 4},
		{"ints", 800, 3}, {"ints", 1201, 5}, {"dups", 900, 4}, {"cauchy", 1000, 3}, {"normal", 65, 1}} {
		z := make([]float64, c.n*c.d)
		for i := 0; i < c.n; i++ {
			row := z[i*c.d : (i+1)*c.d]
			for j := range row {
				switch c.kind {
				case "normal":
					row[j] = r.NormFloat64()
				case "correlated":
					row[j] = r.NormFloat64()
					if j > 0 {
						row[j] += 2 * row[0]
					}
				case "ints":
					row[j] = float64(r.IntN(4))
				case "dups":
					row[j] = float64(r.IntN(3)) * 0.7
					if i > 0 && r.IntN(2) == 0 {
						row[j] = z[(i-1)*c.d+j]
					}
				case "cauchy":
					row[j] = math.Tan(math.Pi * (r.Float64() - 0.5))
				}
			}
		}
		for _, w := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/n=%d/d=%d/workers=%d", c.kind, c.n, c.d, w), func(t *testing.T) {
				v, m := PP1(z, c.n, c.d, w)
				rv, rm := pp1Reference(z, c.n, c.d, w)
				if !slices.Equal(v, rv) || !slices.Equal(m, rm) {
					t.Errorf("PP1 = %v, %v; reference %v, %v", v, m, rv, rm)
				}
			})
		}
	}
}
