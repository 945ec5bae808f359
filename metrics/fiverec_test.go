package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestSdcMicroFiveRecords checks perturbative.md §8.6: sdcMicro 5.8.1's IL1, IL1s, interval
// risk and eigenvalue measure on a 5-record, 2-variable example.
func TestSdcMicroFiveRecords(t *testing.T) {
	x := datasets.New("x", []string{"a", "b"}, 5, 2, []float64{10, 1, 0, 2, 5, 3, 20, 4, 8, 100})
	y := datasets.New("y", []string{"a", "b"}, 5, 2, []float64{11, 1.5, 1, 2, 5, 2, 18, 4, 8.5, 90})
	in := func(k float64) *Input { return &Input{Orig: x, Masked: y, Opt: Options{IntervalK: k}} }
	for _, c := range []struct {
		id   string
		k    float64
		want float64
		tol  float64
	}{
		{"il1rel_sum_sdc", 0, 119.583333333, 1e-9},
		{"il1s_sum_sdc", 0, 0.6162724, 1e-6},
		{"il1s", 0, 0.06162724, 1e-7},
		{"interval_disclosure", 0.05, 20, 0},
		{"interval_disclosure", 0.1, 20, 0},
		{"interval_disclosure", 0.5, 100, 0},
		{"eigen", 0, 6.325506, 1e-6},
	} {
		m, err := Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Eval(in(c.k)).Value; math.Abs(got-c.want) > c.tol {
			t.Errorf("%s (k = %v) = %.10g, want %v", c.id, c.k, got, c.want)
		}
	}
}
