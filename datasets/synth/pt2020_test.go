package synth

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestPT2020Like checks the acceptance rule of the substitute: zero shares within ±0.01 of π
// and non-zero medians within ±15 % of the study's.
func TestPT2020Like(t *testing.T) {
	d := PT2020Like(43333, 1)
	pi := []float64{0.24, 0.47, 0.56, 0.22, 0.54}
	med := []float64{69813, 10000, 0, 178400, 0}
	for j := 0; j < 5; j++ {
		c := d.Col(j)
		zeros := 0
		for _, v := range c {
			if v == 0 {
				zeros++
			}
		}
		if share := float64(zeros) / float64(d.N); math.Abs(share-pi[j]) > 0.01 {
			t.Errorf("%s: zero share %.4f, want %.2f ± 0.01", d.Names[j], share, pi[j])
		}
		slices.Sort(c)
		m := stat.Quantile(0.5, stat.LinInterp, c, nil)
		if med[j] == 0 && m != 0 || med[j] != 0 && math.Abs(m/med[j]-1) > 0.15 {
			t.Errorf("%s: median %g, want %g ± 15%%", d.Names[j], m, med[j])
		}
	}
	for j, k := range map[int]float64{5: 6, 6: 26, 7: 1} {
		if mx := slices.Max(d.Col(j)); mx != k {
			t.Errorf("%s: max code %g, want %g", d.Names[j], mx, k)
		}
	}
}
