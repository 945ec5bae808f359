package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestApplyMatchesCell checks that Apply writes Cell(j, v) for every cell, bit for bit, on
// tables with and without constant, rescaled (values near ±1e308 or subnormal) and missing
// columns, and with one row (SD NaN): the fast path for plain scalings and the general one.
func TestApplyMatchesCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 200 {
		n, p := 1+rng.IntN(40), 1+rng.IntN(7)
		d := New("a", make([]string, p), n, p, make([]float64, n*p))
		for j := range p {
			kind := rng.IntN(8)
			if trial%2 == 0 {
				kind = 0 // half the tables plain
			}
			for i := range n {
				v := rng.NormFloat64()
				switch kind {
				case 1:
					v = 0.1 // constant
				case 2:
					v *= 1e308
				case 3:
					v *= 1e-310
				case 4:
					if rng.IntN(4) == 0 {
						v = math.NaN()
					}
				}
				d.Data[i*p+j] = v
			}
		}
		s := ScalingOf(d)
		z := s.Apply(nil, d)
		for i := range n {
			for j := range p {
				want := s.Cell(j, d.Data[i*p+j])
				if math.Float64bits(z[i*p+j]) != math.Float64bits(want) {
					t.Fatalf("trial %d, cell (%d, %d): Apply %v, Cell %v", trial, i, j, z[i*p+j], want)
				}
			}
		}
	}
}
