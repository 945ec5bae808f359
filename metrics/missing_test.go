package metrics

import (
	"compress/gzip"
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// eusilcsIncome lists eusilcS's nine income columns (2,203 children have every one missing).
var eusilcsIncome = []string{"netIncome", "py010n", "py050n", "py090n", "py100n", "py110n", "py120n", "py130n", "py140n"}

// readTestCSV reads a numeric CSV of testdata (gzip when the name ends in .gz), "NA" missing.
func readTestCSV(t *testing.T, name string) *datasets.Dataset {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer gz.Close()
		r = gz
	}
	d, err := datasets.ReadCSV(r, name, datasets.ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sdcMicroExpected returns testdata/expected.csv (written by missing_sdcmicro.R) as
// case → measure → value.
func sdcMicroExpected(t *testing.T) map[string]map[string]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "expected.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatalf("expected.csv: %v", err)
		}
		if out[r[0]] == nil {
			out[r[0]] = map[string]float64{}
		}
		out[r[0]][r[1]] = v
	}
	return out
}

// missingCases returns the original and sdcMicro 5.8.1's MDAV (k = 3) release of the two
// tables with missing values of missing_sdcmicro.R.
func missingCases(t *testing.T) []struct {
	name      string
	orig, rel *datasets.Dataset
} {
	eu, err := datasets.Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	if eu, err = eu.Select(eusilcsIncome); err != nil {
		t.Fatal(err)
	}
	return []struct {
		name      string
		orig, rel *datasets.Dataset
	}{
		{"eusilcs_mdav3", eu, readTestCSV(t, "eusilcs_mdav3.csv.gz")},
		{"testdata_na_mdav3", readTestCSV(t, "testdata_na.csv"), readTestCSV(t, "testdata_na_mdav3.csv")},
	}
}

// TestMissingSdcMicro checks the measures that skip missing cells against sdcMicro 5.8.1 on
// its own MDAV (k = 3) releases of eusilcS's nine income columns (19,827 missing cells) and
// of testdata's three numeric columns with 41 cells set missing: il1s_sum_sdc is dUtility
// IL1s, interval_disclosure 100·dRisk, il1rel_sum_sdc 100·… dUtility IL1 (already in %),
// eigen_sdc 100·dUtility eigen and eigen the same sum over the eigenvalues above 1e-10·λ_1.
// On eusilcS the correlation matrix is singular (netIncome is the sum of the others), so
// eigen_sdc's last term is rounding noise (R: 2.2e-16 against 1.1e-15, a term of 4) and is
// not compared there (metrics.md §2.7).
func TestMissingSdcMicro(t *testing.T) {
	want := sdcMicroExpected(t)
	for _, c := range missingCases(t) {
		if c.orig.N != c.rel.N || c.orig.P != c.rel.P {
			t.Fatalf("%s: release %d×%d, original %d×%d", c.name, c.rel.N, c.rel.P, c.orig.N, c.orig.P)
		}
		in := &Input{Orig: c.orig, Masked: c.rel}
		w := want[c.name]
		checks := []struct {
			id      string
			scale   float64
			measure string
		}{
			{"il1s_sum_sdc", 1, "IL1s"},
			{"interval_disclosure", 100, "dRisk"},
			{"il1rel_sum_sdc", 1, "IL1"},
			{"eigen", 100, "eigen_kept"},
			{"eigen_sdc", 100, "eigen"},
		}
		for _, k := range checks {
			if c.name == "eusilcs_mdav3" && k.id == "eigen_sdc" {
				continue
			}
			exp, ok := w[k.measure]
			if !ok {
				t.Fatalf("%s: expected.csv has no %s", c.name, k.measure)
			}
			got := eval(t, k.id, in).Value / k.scale
			// 1e-9 absolute (the largest difference, 5.2e-10, is IL1's sum of 3.8e5: 1.4e-15
			// relative)
			const tol = 1e-9
			t.Logf("%s: %s = %.17g, sdcMicro %.17g, diff %.3g", c.name, k.id, got, exp, got-exp)
			if math.IsNaN(got) || math.Abs(got-exp) > tol {
				t.Errorf("%s: %s = %.17g, sdcMicro %s %.17g (diff %.3g)", c.name, k.id, got, k.measure, exp, got-exp)
			}
		}
	}
}

// TestMissingCellCounts checks CountMissing on both tables: the releases keep every missing
// cell of the original and lose none.
func TestMissingCellCounts(t *testing.T) {
	for _, c := range []struct {
		name string
		both int
	}{{"eusilcs_mdav3", 19827}, {"testdata_na_mdav3", 41}} {
		var tc *struct {
			name      string
			orig, rel *datasets.Dataset
		}
		for _, m := range missingCases(t) {
			if m.name == c.name {
				tc = &m
			}
		}
		mc := CountMissing(tc.orig, tc.rel)
		lost, both := 0, 0
		for j := range mc.Names {
			lost += mc.Lost[j]
			both += mc.Both[j]
		}
		if lost != 0 || both != c.both {
			t.Errorf("%s: lost %d, both %d; want 0, %d", c.name, lost, both, c.both)
		}
	}
	// three cells lost in the release of a complete table
	o := table([]string{"a", "b"}, []float64{1, 2}, []float64{3, 4}, []float64{5, 6})
	m := o.Clone()
	m.Data[0], m.Data[1], m.Data[5] = math.NaN(), math.NaN(), math.NaN()
	o2 := o.Clone()
	o2.Data[5] = math.NaN()
	for _, c := range []struct {
		name       string
		orig       *datasets.Dataset
		lost, both []int
	}{
		{"complete original", o, []int{1, 2}, []int{0, 0}},
		{"original missing b3", o2, []int{1, 1}, []int{0, 1}},
	} {
		mc := CountMissing(c.orig, m)
		if !slicesEqual(mc.Lost, c.lost) || !slicesEqual(mc.Both, c.both) {
			t.Errorf("%s: lost %v both %v, want %v %v", c.name, mc.Lost, mc.Both, c.lost, c.both)
		}
	}
}

func slicesEqual(a, b []int) bool {
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

// TestSUDAMissingVector is issue 29's six records (keys a, b, c; b missing in the last):
// sdcMicro 5.8.1's suda2(original_scores = TRUE, DisFraction = 0.01) gives the scores
// 1, 2, 2, 2, 2, 0 and DIS scores 1, 1, 1, 1, 1, 0 (mean 0.83333333333333337); the default
// rule skips the missing value, as sdcMicro's Suda2 does. With suda_missing = category the
// missing b of record 6 is a category seen once, so {b} is its MSU (weight (3−1)! = 2) and
// the other records keep their MSUs: scores 1, 2, 2, 2, 2, 2.
func TestSUDAMissingVector(t *testing.T) {
	nan := math.NaN()
	d := table([]string{"a", "b", "c"}, []float64{1, 1, 1}, []float64{1, 1, 2}, []float64{1, 2, 1},
		[]float64{2, 2, 2}, []float64{2, 1, 1}, []float64{2, nan, 2})
	for _, c := range []struct {
		missing string
		score   []float64
	}{
		{"", []float64{1, 2, 2, 2, 2, 0}},
		{"ignore", []float64{1, 2, 2, 2, 2, 0}},
		{"category", []float64{1, 2, 2, 2, 2, 2}},
	} {
		in := &Input{Orig: d, Masked: d, Opt: Options{SUDAMissing: c.missing}}
		s := sudaOf(in)
		for i, v := range c.score {
			if s.score[i] != v {
				t.Errorf("SUDAMissing %q: scores %v, want %v", c.missing, s.score, c.score)
				break
			}
		}
		if c.missing == "category" {
			continue
		}
		if got := disSUDA(in, false).Value; math.Abs(got-0.83333333333333337) > 1e-15 {
			t.Errorf("SUDAMissing %q: dis_suda_mean %.17g, want 0.83333333333333337", c.missing, got)
		}
		for i, want := range []float64{1, 1, 1, 1, 1, 0} {
			if math.Abs(s.dis[i]-want) > 1e-15 {
				t.Errorf("SUDAMissing %q: dis %v, want 1, 1, 1, 1, 1, 0", c.missing, s.dis)
				break
			}
		}
	}
}
