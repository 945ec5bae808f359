package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestPerturbativeExample is the 5-record example of docs/perturbative.md (values from
// sdcMicro 5.8.1's dUtility and dRisk).
func TestPerturbativeExample(t *testing.T) {
	x := datasets.New("x", []string{"a", "b"}, 5, 2, []float64{10, 1, 0, 2, 5, 3, 20, 4, 8, 100})
	y := datasets.New("y", []string{"a", "b"}, 5, 2, []float64{11, 1.5, 1, 2, 5, 2, 18, 4, 8.5, 90})
	for _, tc := range []struct {
		id   string
		k    float64
		want float64
		tol  float64
	}{
		{"il1rel_sum_sdc", 0, 119.583333333, 1e-9},
		{"il1s_sum_sdc", 0, 0.6162724, 1e-6},
		{"il1s", 0, 0.06162724, 1e-6},
		{"interval_disclosure", 0.05, 20, 1e-12},
		{"interval_disclosure", 0.1, 20, 1e-12},
		{"interval_disclosure", 0.5, 100, 1e-12},
		{"eigen", 0, 6.325506, 1e-6},
	} {
		m, err := Lookup(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		got := m.Eval(&Input{Orig: x, Masked: y, Opt: Options{IntervalK: tc.k}}).Value
		if math.Abs(got-tc.want) > tc.tol*math.Abs(tc.want) {
			t.Errorf("%s (k %g) = %.9g, want %.9g", tc.id, tc.k, got, tc.want)
		}
	}
}

// TestRegCoefDev: identical data give 0; a release with a known coefficient change gives it.
func TestRegCoefDev(t *testing.T) {
	// y0 = 1 + 2·x1 exactly; in the release y0' = 1 + 3·x1: Σ = |0/1| + |(2−3)/2| = 0.5.
	x := datasets.New("x", []string{"y", "x1"}, 4, 2, []float64{3, 1, 5, 2, 7, 3, 9, 4})
	y := datasets.New("y", []string{"y", "x1"}, 4, 2, []float64{4, 1, 7, 2, 10, 3, 13, 4})
	if got := RegCoefDev(&Input{Orig: x, Masked: x}).Value; math.Abs(got) > 1e-12 {
		t.Errorf("identical: %g, want 0", got)
	}
	if got := RegCoefDev(&Input{Orig: x, Masked: y}).Value; math.Abs(got-0.5) > 1e-12 {
		t.Errorf("reg_coef_dev = %g, want 0.5", got)
	}
	one := datasets.New("x", []string{"y"}, 3, 1, []float64{1, 2, 3})
	if got := RegCoefDev(&Input{Orig: one, Masked: one}).Value; !math.IsNaN(got) {
		t.Errorf("p = 1: %g, want NaN", got)
	}
}

func TestMarginalDiagnostics(t *testing.T) {
	x := datasets.New("x", []string{"a", "b"}, 4, 2, []float64{0, 1, 5, 2, 0, 3, 10, 4})
	y := datasets.New("y", []string{"a", "b"}, 4, 2, []float64{0, 2, 10, 1, 0, 4, 5, 3})  // permutation
	z := datasets.New("z", []string{"a", "b"}, 4, 2, []float64{0, -1, 5, 2, 1, 3, 10, 4}) // b negative, a zero broken
	in := func(m *datasets.Dataset) *Input { return &Input{Orig: x, Masked: m} }
	for k, tc := range []struct {
		f    func(*Input) Result
		m    *datasets.Dataset
		want float64
	}{
		{MargKept, y, 2}, {MargKept, z, 0},
		{NegCols, y, 0}, {NegCols, z, 1},
		{ZerosKept, y, 2}, {ZerosKept, z, 0},
		{MeanDevMax, y, 0}, {VarRatioMax, y, 1}, {MaxRatioMax, y, 1}, {CovDevMax, x, 0},
	} {
		if got := tc.f(in(tc.m)).Value; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("case %d on %s = %g, want %g", k, tc.m.Name, got, tc.want)
		}
	}
	r := DescCol1(in(x))
	if r.Value != 3.75 || r.Aux["median"] != 2.5 || r.Aux["q1"] != 0 || r.Aux["q3"] != 6.25 || r.Aux["max"] != 10 {
		t.Errorf("DescCol1 = %+v", r)
	}
}
