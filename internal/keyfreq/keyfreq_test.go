package keyfreq

import (
	"math"
	"slices"
	"testing"
)

// ten is the 10-record input of metrics.md §7.3: keys sex, age, reg, then the weight w.
// With missing, age of record 3 and reg of record 9 are NA.
func ten(missing bool) []float64 {
	d := []float64{
		1, 1, 1, 10, 1, 1, 1, 20, 1, 2, 1, 5,
		2, 1, 2, 8, 2, 1, 2, 8, 2, 2, 1, 30,
		2, 2, 1, 10, 1, 1, 1, 15, 2, 3, 2, 50,
		1, 2, 1, 5,
	}
	if missing {
		d[2*4+1] = math.NaN()
		d[8*4+2] = math.NaN()
	}
	return d
}

// TestCountTen checks metrics.md §7.3 (hand-computed, sdcMicro freqCalc semantics).
func TestCountTen(t *testing.T) {
	keys := []int{0, 1, 2}
	for _, c := range []struct {
		missing, weighted bool
		f, F              []float64
	}{
		{f: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2}, F: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2}},
		{weighted: true, f: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2},
			F: []float64{45, 45, 10, 16, 16, 40, 40, 45, 50, 10}},
		{missing: true, f: []float64{4, 4, 5, 2, 2, 2, 2, 4, 1, 2}},
	} {
		d := ten(c.missing)
		var w []float64
		if c.weighted {
			for i := 0; i < 10; i++ {
				w = append(w, d[i*4+3])
			}
		}
		f, F := Count(d, 10, 4, keys, w)
		if !slices.Equal(f, c.f) {
			t.Errorf("missing=%v weighted=%v: f = %v, want %v", c.missing, c.weighted, f, c.f)
		}
		if c.F != nil && !slices.Equal(F, c.F) {
			t.Errorf("missing=%v weighted=%v: F = %v, want %v", c.missing, c.weighted, F, c.F)
		}
	}
}

// TestCountBrute compares Count with the definition on random tables with missing values.
func TestCountBrute(t *testing.T) {
	const n, p = 60, 3
	d := make([]float64, n*p)
	w := make([]float64, n)
	for i := range d {
		switch (i * 7919) % 11 {
		case 0:
			d[i] = math.NaN()
		default:
			d[i] = float64((i * 31) % 3)
		}
	}
	for i := range w {
		w[i] = float64(i%5) + 0.5
	}
	f, F := Count(d, n, p, []int{0, 1, 2}, w)
	for j := 0; j < n; j++ {
		var bf, bF float64
		for i := 0; i < n; i++ {
			ok := true
			for l := 0; l < p; l++ {
				x, y := d[i*p+l], d[j*p+l]
				if x != y && !math.IsNaN(x) && !math.IsNaN(y) {
					ok = false
				}
			}
			if ok {
				bf++
				bF += w[i]
			}
		}
		if f[j] != bf || math.Abs(F[j]-bF) > 1e-12 {
			t.Errorf("row %d: f, F = %v, %v, want %v, %v", j, f[j], F[j], bf, bF)
		}
	}
}

func TestBits(t *testing.T) {
	if Bits(math.Copysign(0, -1)) != Bits(0) || Bits(math.NaN()) != Bits(-math.NaN()) || Bits(1) == Bits(2) {
		t.Error("Bits: −0 must equal +0, NaNs one value, distinct numbers distinct")
	}
}
