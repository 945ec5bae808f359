package microagg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestSpreadColumnsImpliesSD checks spreadColumns' promise on random tables, many of them at
// the edges (constant columns of 0.1 whose SD is not 0, ±0, subnormals, values near ±1e308,
// tiny values with one outlier, missing and infinite values): whenever it returns true,
// datasets.ScalingOf gives no column an SD of 0, so checkZScore returns what it returned when
// it always computed ScalingOf.
func TestSpreadColumnsImpliesSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	draw := func(kind int) float64 {
		switch kind {
		case 0:
			return rng.NormFloat64()
		case 1:
			return 0.1
		case 2:
			return []float64{0, math.Copysign(0, -1)}[rng.IntN(2)]
		case 3:
			return math.Float64frombits(rng.Uint64N(8)) // a few subnormals
		case 4:
			return rng.NormFloat64() * 1e308
		case 5:
			return rng.NormFloat64() * 0x1p-899
		case 6:
			if rng.IntN(50) == 0 {
				return 1
			}
			return 0x1p-1000
		case 7:
			return []float64{math.NaN(), math.Inf(1), 2}[rng.IntN(3)]
		default:
			return float64(rng.IntN(2)) * 0x1p-901
		}
	}
	trues := 0
	for trial := range 3000 {
		n, p := 2+rng.IntN(60), 1+rng.IntN(4)
		if trial%100 == 0 {
			n = 5000
		}
		d := datasets.New("z", make([]string, p), n, p, make([]float64, n*p))
		for j := range p {
			kind := rng.IntN(9)
			for i := range n {
				d.Data[i*p+j] = draw(kind)
			}
		}
		zero := slices.Contains(datasets.ScalingOf(d).SD, 0)
		if spreadColumns(d) {
			trues++
			if zero {
				t.Fatalf("trial %d: spreadColumns true but ScalingOf has an SD of 0: %v", trial, d.Data)
			}
		}
		if got, want := checkZScore("m", d) == nil, !zero; got != want {
			t.Fatalf("trial %d: checkZScore ok %v, want %v", trial, got, want)
		}
	}
	if trues == 0 {
		t.Fatal("spreadColumns never returned true")
	}
	if spreadColumns(datasets.New("one", []string{"a"}, 1, 1, []float64{1})) {
		t.Error("spreadColumns true for one row")
	}
}
