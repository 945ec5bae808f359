package microagg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestColSumsSameBits compares colSums (the AVX2 kernel up to 16 columns, where the CPU has
// it) with the scalar colSumsGo bit for bit, on tables of 0 to 300 rows and 1 to 20 columns
// whose values mix magnitudes over 30 orders, −0, subnormals, infinities and NaN.
func TestColSumsSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	special := []float64{math.Copysign(0, -1), 0, 5e-324, -2.5e-310, math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300}
	for it := 0; it < 2000; it++ {
		d, rows := 1+r.IntN(20), r.IntN(301)
		tab := make([]float64, rows*d)
		for i := range tab {
			switch u := r.IntN(100); {
			case u < 3:
				tab[i] = special[r.IntN(len(special))]
			case u < 50:
				tab[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(31)-15))
			default:
				tab[i] = r.NormFloat64()
			}
		}
		got, want := make([]float64, d), make([]float64, d)
		colSums(got, tab, d)
		colSumsGo(want, tab, d)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) && !(math.IsNaN(got[j]) && math.IsNaN(want[j])) {
				t.Fatalf("d = %d, %d rows, column %d: %v (%#x), scalar %v (%#x)", d, rows, j, got[j], math.Float64bits(got[j]), want[j], math.Float64bits(want[j]))
			}
		}
	}
}

// BenchmarkColSums times the centroid's block-sum fold at 10 columns over 15,625 block sums
// (10^6 rows): colSums against colSumsGo.
func BenchmarkColSums(b *testing.B) {
	const d, rows = 10, 15625
	r := rand.New(rand.NewPCG(1, 1))
	tab := make([]float64, rows*d)
	for i := range tab {
		tab[i] = r.NormFloat64()
	}
	out := make([]float64, d)
	b.Run("colSums", func(b *testing.B) {
		for b.Loop() {
			colSums(out, tab, d)
		}
	})
	b.Run("colSumsGo", func(b *testing.B) {
		for b.Loop() {
			colSumsGo(out, tab, d)
		}
	})
}
