package methods

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {2203, "2,203"}, {1234567, "1,234,567"}, {-45678, "-45,678"}} {
		if got := Thousands(c.n); got != c.want {
			t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestRefuseMissing(t *testing.T) {
	nan := math.NaN()
	d := datasets.New("t", []string{"x", "netIncome"}, 4, 2, []float64{1, 2, 3, nan, 5, nan, 7, 8})
	err := RefuseMissing("mdav2", d, AltMicroagg)
	want := `mdav2: column "netIncome" has 2 missing values; drop or impute them, or use ma_mdav, which aggregates them as sdcMicro does`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	one := datasets.New("t", []string{"x"}, 2, 1, []float64{nan, 1})
	if err := RefuseMissing("m", one, ""); err == nil || !strings.Contains(err.Error(), `column "x" has 1 missing value; drop or impute them, or use a method that accepts them`) {
		t.Errorf("one missing value: %v", err)
	}
	if err := RefuseMissing("m", datasets.New("t", []string{"x"}, 2, 1, []float64{1, 2}), ""); err != nil {
		t.Errorf("complete table refused: %v", err)
	}
	inf := datasets.New("t", []string{"x"}, 2, 1, []float64{math.Inf(1), 2})
	if err := RefuseMissing("m", inf, ""); err == nil || !strings.Contains(err.Error(), "infinite") {
		t.Errorf("infinite value: %v", err)
	}
}

// TestCheckHoles: a release with a missing cell where the input has a value passes only when
// the method declared exactly that many suppressions; the per-column counts are recorded.
func TestCheckHoles(t *testing.T) {
	nan := math.NaN()
	in := datasets.New("in.csv", []string{"a", "b"}, 3, 2, []float64{1, 2, nan, 4, 5, 6})
	out := func() *datasets.Dataset {
		return datasets.New("in.csv", []string{"a", "b"}, 3, 2, []float64{1, nan, nan, 4, nan, nan})
	}
	cases := []struct {
		name string
		info map[string]any
		ok   bool
	}{
		{"undeclared", nil, false},
		{"declared", map[string]any{"n_suppressed": 3}, true},
		{"declared as float", map[string]any{"n_suppressed": 3.0}, true},
		{"too few declared", map[string]any{"n_suppressed": 2}, false},
	}
	for _, c := range cases {
		rel := &Release{Masked: out(), Info: c.info}
		err := CheckHoles("m", in, rel)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v", c.name, err)
		}
		if err != nil && !strings.Contains(err.Error(), `the release of in.csv has a missing value at row 1, column "b"`) {
			t.Errorf("%s: %v does not name the file, row and column", c.name, err)
		}
		if c.ok && (rel.Info["n_suppressed:a"] != 1 || rel.Info["n_suppressed:b"] != 2) {
			t.Errorf("%s: per-column counts %v", c.name, rel.Info)
		}
	}
	// the input's own missing cells are no hole
	if err := CheckHoles("m", in, &Release{Masked: in.Clone()}); err != nil {
		t.Error(err)
	}
}

// TestCheckHolesMatchesCount compares CheckHoles with its definition through Holes on random
// tables, with and without missing cells in the input and the release, declared or not:
// an error exactly when the holes are not declared, the per-column counts recorded otherwise,
// and nothing recorded for a release without a missing cell.
func TestCheckHolesMatchesCount(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 9))
	for trial := 0; trial < 300; trial++ {
		n, p := 1+r.IntN(30), 1+r.IntN(4)
		in := datasets.New("in.csv", []string{"a", "b", "c", "d"}[:p], n, p, make([]float64, n*p))
		out := datasets.New("in.csv", in.Names, n, p, make([]float64, n*p))
		rateIn, rateOut := []float64{0, 0.1}[r.IntN(2)], []float64{0, 0.05, 0.3}[r.IntN(3)]
		for k := range in.Data {
			in.Data[k], out.Data[k] = r.NormFloat64(), r.NormFloat64()
			if r.Float64() < rateIn {
				in.Data[k] = math.NaN()
			}
			if r.Float64() < rateOut {
				out.Data[k] = math.NaN()
			}
		}
		h := Holes(in, out)
		total := 0
		for _, c := range h {
			total += c
		}
		info := map[string]any{}
		if r.IntN(2) == 0 {
			info["n_suppressed"] = total + r.IntN(2)
		}
		declared := info["n_suppressed"] == total
		rel := &Release{Masked: out, Info: info}
		err := CheckHoles("m", in, rel)
		if wantErr := total > 0 && !declared; (err != nil) != wantErr {
			t.Fatalf("trial %d: %d holes, declared %v: error %v", trial, total, info["n_suppressed"], err)
		}
		for j, c := range h {
			got, ok := info["n_suppressed:"+in.Names[j]]
			if want := total > 0 && declared && c > 0; ok != want || ok && got != c {
				t.Fatalf("trial %d: column %d has %d holes, recorded %v", trial, j, c, got)
			}
		}
	}
}
