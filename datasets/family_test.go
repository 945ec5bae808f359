package datasets_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestFamilies checks the generated families: shape, names, determinism, prefix property
// (a smaller n is the first rows of a larger one, as records are drawn in order), value
// ranges, and clear errors for bad names.
func TestFamilies(t *testing.T) {
	for _, c := range []struct {
		name string
		n, d int
		ok   func(v float64) bool
	}{
		{"normal_d3_n500", 500, 3, func(v float64) bool { return math.Abs(v) < 6 }},
		{"clustered_d2_n400", 400, 2, func(v float64) bool { return math.Abs(v) < 16 }},
		{"lognormal_d4_n300", 300, 4, func(v float64) bool { return v > 0 }},
		{"grid_d5_n200", 200, 5, func(v float64) bool { return v == math.Trunc(v) && v >= 0 && v <= 9 }},
	} {
		d, err := datasets.Load(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if d.N != c.n || d.P != c.d || d.Name != c.name || d.Names[0] != "x1" {
			t.Errorf("%s: got %s %d×%d %v", c.name, d.Name, d.N, d.P, d.Names)
		}
		if slices.ContainsFunc(d.Data, func(v float64) bool { return !c.ok(v) }) {
			t.Errorf("%s: value out of range", c.name)
		}
		f, _, _, _ := datasets.ParseFamily(c.name)
		big, err := f.Generate(2*c.n, c.d, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(big.Data[:c.n*c.d], d.Data) {
			t.Errorf("%s: not the first rows of the n = %d draw", c.name, 2*c.n)
		}
		again, _ := f.Generate(c.n, c.d, 1)
		if !slices.Equal(again.Data, d.Data) {
			t.Errorf("%s: not deterministic", c.name)
		}
		other, _ := f.Generate(c.n, c.d, 2)
		if slices.Equal(other.Data, d.Data) {
			t.Errorf("%s: seed ignored", c.name)
		}
	}
	for _, bad := range []string{"normal_d0_n10", "normal_d10_n1000000000", "uniform_d2_n10", "normal_d2"} {
		if _, err := datasets.Load(bad); err == nil {
			t.Errorf("%s: no error", bad)
		} else if !strings.Contains(err.Error(), "normal") {
			t.Errorf("%s: error %q does not name the families", bad, err)
		}
	}
}
