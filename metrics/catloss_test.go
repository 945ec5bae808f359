package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestFrancdat checks perturbative.md §8.7: sdcMicro 5.8.1's risk and SUDA2 on its
// francdat example (keys Key1..Key4, weight w), read as a mixed-type table with categorical
// keys.
func TestFrancdat(t *testing.T) {
	raw, err := datasets.Load("francdat")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"Key1", "Key2", "Key3", "Key4"}
	d, err := raw.Categorize(keys)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want []float64, tol float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > tol {
				t.Errorf("%s[%d] = %.7g, want %.7g", name, i+1, got[i], want[i])
			}
		}
	}
	in := &Input{Orig: d, Masked: d, Opt: Options{Keys: keys, Weight: "w"}}
	c := frequencies(in)
	check("f", c.records(c.f), []float64{2, 2, 2, 1, 1, 1, 1, 2}, 0)
	check("F", c.records(c.F), []float64{110, 84.5, 84.5, 17, 541, 8, 5, 110}, 0)
	check("r", c.records(c.r), []float64{0.017144, 0.022042, 0.022042, 0.177076, 0.011654, 0.297063, 0.402359, 0.017144}, 1e-6)

	na := d.Clone()
	na.Data[0*na.P+na.ColIndex("Key3")] = math.NaN()
	c = frequencies(&Input{Orig: na, Masked: na, Opt: Options{Keys: keys, Weight: "w"}})
	check("f (Key3 of record 1 NA)", c.records(c.f), []float64{4, 3, 3, 1, 1, 1, 1, 2}, 0)
	check("F (Key3 of record 1 NA)", c.records(c.F), []float64{194.5, 102.5, 102.5, 17, 541, 8, 5, 110}, 0)

	s := sudaOf(&Input{Orig: d, Masked: d, Opt: Options{Keys: keys}})
	check("SUDA2 score", s.score, []float64{0, 0, 0, 8, 6, 4, 8, 0}, 0)
	check("DIS", s.dis, []float64{0, 0, 0, 0.014213, 0.010106, 0.006237, 0.014213, 0}, 1e-6)
	s = sudaOf(&Input{Orig: d, Masked: d, Opt: Options{Keys: keys, SUDAScores: "normalized"}})
	check("SUDA2 score normalized", s.score[3:7], []float64{2.25, 1.75, 1.00, 2.25}, 1e-12)
	check("DIS normalized", s.dis[3:7], []float64{0.014921, 0.011079, 0.005691, 0.014921}, 1e-6)
}

// TestCategoricalLoss: ut1, n_suppressed and pram_changed on a hand-computed example.
func TestCategoricalLoss(t *testing.T) {
	nan := math.NaN()
	// a: A A A B B NA; b: x y x y x x. Release a: A B A B NA NA; b: x y y y x x.
	mk := func(a, b []float64) *datasets.Dataset {
		data := make([]float64, 0, 12)
		for i := range a {
			data = append(data, a[i], b[i])
		}
		d := datasets.New("t", []string{"a", "b"}, 6, 2, data)
		d.Levels = [][]string{{"A", "B"}, {"x", "y"}}
		return d
	}
	x := mk([]float64{0, 0, 0, 1, 1, nan}, []float64{0, 1, 0, 1, 0, 0})
	y := mk([]float64{0, 1, 0, 1, nan, nan}, []float64{0, 1, 1, 1, 0, 0})
	in := &Input{Orig: x, Masked: y}
	// One-way cells: a: A 3→2, B 2→2; b: x 4→3, y 2→3 → (1/3 + 0 + 1/4 + 1/2)/4.
	// Two-way (a, b) over records with both present: X: Ax 2, Ay 1, By 1, Bx 1;
	// Y: Ax 1, By 2, Ay... rows: (A,x) (B,y) (A,y) (B,y) → Ax 1, By 2, Ay 1 → (1/2 + 0 + 1 + 1)/4.
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"ut1", UT1(in).Value, 100 * (1.0/3 + 0 + 1.0/4 + 1.0/2) / 4},
		{"ut1 pairs", UT1(in).Aux["pairs"], 100 * (0.5 + 0 + 1 + 1) / 4},
		{"n_suppressed", NSuppressed(in).Value, 1},
		{"n_suppressed pct", NSuppressed(in).Aux["pct"], 100.0 / 12},
		{"pram_changed", PRAMChanged(in).Value, 3},
		{"pram_changed pct", PRAMChanged(in).Aux["pct"], 50},
		{"unchanged ut1", UT1(&Input{Orig: x, Masked: x}).Value, 0},
		{"unchanged pram_changed", PRAMChanged(&Input{Orig: x, Masked: x}).Value, 0},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	num := datasets.New("n", []string{"v"}, 2, 1, []float64{1, 2})
	if v := UT1(&Input{Orig: num, Masked: num}).Value; !math.IsNaN(v) {
		t.Errorf("ut1 without categorical columns = %v, want NaN", v)
	}
}
