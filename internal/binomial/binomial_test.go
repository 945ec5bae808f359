package binomial

import (
	"math"
	"testing"
)

// TestWilsonMatchesR compares with R 4's prop.test(x, n, correct = FALSE)$conf.int.
func TestWilsonMatchesR(t *testing.T) {
	for _, c := range []struct {
		x, n   int
		level  float64
		lo, hi float64
	}{
		{7, 20, 0.95, 0.18119182410108206, 0.56714572331476365},
		{0, 10, 0.90, 0, 0.21294197008340682},
		{250, 500, 0.99, 0.44278109614549627, 0.55721890385450379},
	} {
		v, e := Wilson(c.x, c.n, c.level)
		if math.Abs(v-e-c.lo) > 1e-12 || math.Abs(v+e-c.hi) > 1e-12 {
			t.Errorf("Wilson(%d, %d, %v) = [%.17g, %.17g], R [%.17g, %.17g]", c.x, c.n, c.level, v-e, v+e, c.lo, c.hi)
		}
	}
	if v, e := Wilson(3, 2, 0.95); !math.IsNaN(v) || !math.IsNaN(e) {
		t.Errorf("Wilson(3, 2) = %v ± %v, want NaN", v, e)
	}
}

// TestClopperPearsonMatchesR compares with R 4's binom.test(x, n, conf.level = level)$conf.int.
func TestClopperPearsonMatchesR(t *testing.T) {
	for _, c := range []struct {
		x, n   int
		level  float64
		lo, hi float64
	}{
		{3, 100, 0.95, 0.0062299715383063994, 0.0851760529742799921},
		{0, 50, 0.90, 0, 0.058155079116972264},
		{97, 100, 0.95, 0.91482394702572001, 0.99377002846169360},
	} {
		lo, hi := ClopperPearson(c.x, c.n, c.level)
		if math.Abs(lo-c.lo) > 1e-12 || math.Abs(hi-c.hi) > 1e-12 {
			t.Errorf("ClopperPearson(%d, %d, %v) = [%.17g, %.17g], R [%.17g, %.17g]", c.x, c.n, c.level, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := ClopperPearson(5, 4, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("ClopperPearson(5, 4) = [%v, %v], want NaN", lo, hi)
	}
}
