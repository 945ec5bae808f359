package categorical

import (
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

var testdataKeys = []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}

// keysOf returns testdata's seven key variables as categorical columns.
func keysOf(t testing.TB) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Categorize(testdataKeys)
	if err != nil {
		t.Fatal(err)
	}
	k, err := c.Select(testdataKeys)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func resolve(t testing.TB, m methods.Method, raw map[string]string) methods.Params {
	t.Helper()
	p, err := m.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:]
}

// TestInvariantMatrixSpec checks perturbative.md §8.4: π = (0.6, 0.3, 0.1), pd draws
// (0.9, 0.8, 0.7), α = 0.5.
func TestInvariantMatrixSpec(t *testing.T) {
	want := [][]float64{
		{0.92378543, 0.04989879, 0.02631579},
		{0.09979757, 0.85094467, 0.04925776},
		{0.15789474, 0.14777328, 0.69433198},
	}
	pi := []float64{0.6, 0.3, 0.1}
	rs := InvariantMatrix(pi, []float64{0.9, 0.8, 0.7}, 0.5)
	for i := range want {
		var row float64
		for j := range want[i] {
			row += rs[i][j]
			if math.Abs(rs[i][j]-want[i][j]) > 5e-9 {
				t.Errorf("Rs[%d][%d] = %.10f, want %.8f", i, j, rs[i][j], want[i][j])
			}
		}
		if math.Abs(row-1) > 1e-12 {
			t.Errorf("row %d sums to %.17g", i, row)
		}
	}
	if e := invarianceErr(pi, rs); e > 1e-12 {
		t.Errorf("πᵀRs − πᵀ = %g, want ≤ 1e-12", e)
	}
	// Any positive rescaling of π gives the same matrix.
	rs2 := InvariantMatrix([]float64{6, 3, 1}, []float64{0.9, 0.8, 0.7}, 0.5)
	for i := range rs {
		for j := range rs[i] {
			if math.Abs(rs[i][j]-rs2[i][j]) > 1e-15 {
				t.Errorf("rescaled π changed Rs[%d][%d]: %g vs %g", i, j, rs[i][j], rs2[i][j])
			}
		}
	}
}

// TestInvariantMatrixSdcMicro compares the matrix with sdcMicro 5.8.1's pram on testdata's
// roof for the same diagonal draws (sdcmicro/pram_roof.csv, made by sdcmicro/sdcmicro.R):
// every entry agrees to 2.2e-16 (one unit of double rounding near 1).
func TestInvariantMatrixSdcMicro(t *testing.T) {
	recs := readCSV(t, "sdcmicro/pram_roof.csv")
	d := keysOf(t)
	j := d.ColIndex("roof")
	if len(d.Levels[j]) != len(recs) {
		t.Fatalf("roof has %d levels, the reference %d", len(d.Levels[j]), len(recs))
	}
	pd := make([]float64, len(recs))
	want := make([][]float64, len(recs))
	for i, r := range recs {
		if r[0] != d.Levels[j][i] {
			t.Fatalf("level %d is %q, reference %q", i, d.Levels[j][i], r[0])
		}
		pd[i], _ = strconv.ParseFloat(r[1], 64)
		for _, s := range r[2:] {
			v, _ := strconv.ParseFloat(s, 64)
			want[i] = append(want[i], v)
		}
	}
	rs := InvariantMatrix(levelCounts(d, j, nil), pd, 0.5)
	var maxDiff float64
	for i := range want {
		for k := range want[i] {
			maxDiff = max(maxDiff, math.Abs(rs[i][k]-want[i][k]))
		}
	}
	if maxDiff > 2.3e-16 {
		t.Errorf("max |Rs − sdcMicro| = %g, want ≤ 2.2e-16", maxDiff)
	}
	t.Logf("max |Rs − sdcMicro Rs| = %g", maxDiff)
}

// TestLocalSuppSequence checks perturbative.md §8.8 on testdata and that the suppressed records
// are sdcMicro 5.8.1's (sdcmicro/localsupp.csv).
func TestLocalSuppSequence(t *testing.T) {
	d := keysOf(t)
	ref := map[string][]int{}
	for _, r := range readCSV(t, "sdcmicro/localsupp.csv") {
		i, _ := strconv.Atoi(r[1])
		ref[r[0]] = append(ref[r[0]], i-1)
	}
	steps := []struct {
		key, thr   string
		supp       int
		k2, k3, k5 float64
		er         float64
	}{
		{"water", "0.4", 281, 57, 113, 282, 283.6555},
		{"relat", "0.7", 57, 2, 44, 177, 216.0655},
	}
	cur := d
	for _, s := range steps {
		rel, err := LocalSupp{}.Protect(context.Background(), cur, resolve(t, LocalSupp{}, map[string]string{"key_var": s.key, "threshold": s.thr}), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := rel.Info["n_suppressed"].(int); got != s.supp {
			t.Errorf("%s: %d suppressed, want %d", s.key, got, s.supp)
		}
		j := cur.ColIndex(s.key)
		var rows []int
		for i := 0; i < cur.N; i++ {
			if !math.IsNaN(cur.At(i, j)) && math.IsNaN(rel.Masked.At(i, j)) {
				rows = append(rows, i)
			}
		}
		want := ref[s.key+":"+s.thr]
		if !equalInts(rows, want) {
			t.Errorf("%s: suppressed records differ from sdcMicro's (%d vs %d)", s.key, len(rows), len(want))
		}
		in := &metrics.Input{Orig: d, Masked: rel.Masked, Opt: metrics.Options{Keys: testdataKeys}}
		for _, c := range []struct {
			id   string
			want float64
			tol  float64
		}{{"kanon_viol_2", s.k2, 0}, {"kanon_viol_3", s.k3, 0}, {"kanon_viol_5", s.k5, 0}, {"global_risk_er", s.er, 1e-4}} {
			m, _ := metrics.Lookup(c.id)
			if v := m.Eval(in).Value; math.Abs(v-c.want) > c.tol {
				t.Errorf("after %s: %s = %.6f, want %v", s.key, c.id, v, c.want)
			}
		}
		cur = rel.Masked
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBadParameters(t *testing.T) {
	d := keysOf(t)
	for _, c := range []struct {
		m    methods.Method
		raw  map[string]string
		want string
	}{
		{PRAM{}, map[string]string{"matrix": "1,0;0.1,0.8"}, "row 2 sums to 0.9"},
		{PRAM{}, map[string]string{"matrix": "1,0;0,1"}, `column "roof" has 5 levels`},
		{PRAM{}, map[string]string{"matrix": "1,0,0;0,1"}, "row 1 has 3 entries"},
		{PRAM{}, map[string]string{"strata": "region"}, `strata column "region"`},
		{LocalSupp{}, map[string]string{"key_var": "income"}, `key_var="income": not among the key columns`},
		{LocalSupp{}, map[string]string{}, "name the key to suppress"},
		{LocalSupp{}, map[string]string{"key_var": "water", "threshold": "1.5"}, `threshold="1.5"`},
		{GlobalRecode{}, map[string]string{}, "no map is given"},
		{GlobalRecode{}, map[string]string{"map": "1"}, `"1" is not old:new`},
		{TopBot{}, map[string]string{"value": "77"}, `not a level of column "urbrur"`},
	} {
		p := resolve(t, c.m, c.raw)
		err := c.m.(methods.Validator).Validate(d, p)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: error %v, want one line containing %q", c.m.Info().Name, c.raw, err, c.want)
		}
		if _, perr := c.m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2))); perr == nil {
			t.Errorf("%s %v: Protect accepted what Validate rejects", c.m.Info().Name, c.raw)
		}
	}
	num, _ := datasets.Load("testdata")
	if err := (PRAM{}).Validate(num, resolve(t, PRAM{}, nil)); err == nil || !strings.Contains(err.Error(), "is numeric") {
		t.Errorf("pram on numeric columns: %v", err)
	}
}
