package distance

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSq(t *testing.T) {
	if got := Sq([]float64{1, 2, 3}, []float64{4, 6, 3, 99}); got != 25 {
		t.Errorf("Sq = %v, want 25", got)
	}
	if got := Sq(nil, nil); got != 0 {
		t.Errorf("Sq of empty rows = %v", got)
	}
}

// TestSqOrder checks the summation order: column order, each square rounded, the sign of the
// difference irrelevant, and SqBound equal to Sq below the bound.
func TestSqOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		d := 1 + rng.IntN(12)
		a, b := make([]float64, d), make([]float64, d)
		for l := range a {
			a[l], b[l] = rng.NormFloat64()*math.Exp(rng.NormFloat64()*5), rng.NormFloat64()
		}
		var want float64
		for l := range a {
			u := a[l] - b[l]
			want += float64(u * u)
		}
		s := Sq(a, b)
		if math.Float64bits(s) != math.Float64bits(want) || math.Float64bits(Sq(b, a)) != math.Float64bits(want) {
			t.Fatalf("Sq = %v, %v, want %v", s, Sq(b, a), want)
		}
		if got := SqBound(a, b, math.Nextafter(s, math.Inf(1))); math.Float64bits(got) != math.Float64bits(s) {
			t.Fatalf("SqBound above the distance = %v, want %v", got, s)
		}
		if bound := s / 2; s > 0 && SqBound(a, b, bound) < bound {
			t.Fatalf("SqBound below the distance returned %v < bound %v", SqBound(a, b, bound), bound)
		}
	}
}

// TestSqRows checks SqRows against Sq row by row, bit for bit.
func TestSqRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 50, 7
	rows, q := make([]float64, n*d), make([]float64, d)
	for i := range rows {
		rows[i] = rng.NormFloat64() * 10
	}
	for l := range q {
		q[l] = rng.NormFloat64()
	}
	out := make([]float64, n)
	SqRows(out, rows, q)
	for i, s := range out {
		if want := Sq(rows[i*d:(i+1)*d], q); math.Float64bits(s) != math.Float64bits(want) {
			t.Fatalf("row %d: %v, want %v", i, s, want)
		}
	}
}
