package metrics

import (
	"compress/gzip"
	"encoding/csv"
	"io"
	"math"
	"math/rand/v2"
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
	rows := readRecords(t, filepath.Join("testdata", "expected.csv"))
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

// TestCountMissingBlocks checks CountMissing against the cell-by-cell definition on random
// tables whose sizes straddle its blocks (1–9 columns, 0–3,000 rows), with 0–100 % of the
// release's cells missing and some of those missing in the original too.
func TestCountMissingBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	for trial := range 60 {
		n, p := rng.IntN(3001), 1+rng.IntN(9)
		if trial < 3 {
			n = []int{0, 1, 4096}[trial]
		}
		miss := []float64{0, 0.02, 0.3, 1}[trial%4]
		names := make([]string, p)
		for j := range names {
			names[j] = "c" + strconv.Itoa(j)
		}
		od, md := make([]float64, n*p), make([]float64, n*p)
		for i := range md {
			od[i], md[i] = rng.NormFloat64(), rng.NormFloat64()
			if rng.Float64() < miss {
				md[i] = math.NaN()
			}
			if rng.Float64() < 0.5*miss {
				od[i] = math.NaN()
			}
		}
		orig, rel := datasets.New("o", names, n, p, od), datasets.New("m", names, n, p, md)
		lost, both := make([]int, p), make([]int, p)
		for i := range n {
			for j := range p {
				if math.IsNaN(md[i*p+j]) {
					if math.IsNaN(od[i*p+j]) {
						both[j]++
					} else {
						lost[j]++
					}
				}
			}
		}
		mc := CountMissing(orig, rel)
		if !slicesEqual(mc.Lost, lost) || !slicesEqual(mc.Both, both) {
			t.Fatalf("trial %d (n %d, p %d): lost %v both %v, want %v %v", trial, n, p, mc.Lost, mc.Both, lost, both)
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

// TestCompleteCases checks the complete-case rule (metrics.md §0.4): with missing cells, a
// measure without a rule of its own equals the same measure on the tables without the records
// that have a missing cell in either table, with Aux "nomit" counting them and a note.
func TestCompleteCases(t *testing.T) {
	o := readTestCSV(t, "testdata_na.csv")
	m := readTestCSV(t, "testdata_na_mdav3.csv")
	// also lose two cells of complete records in the release
	m.Data[7*3+1], m.Data[900*3+2] = math.NaN(), math.NaN()
	var rows []int
	for i := 0; i < o.N; i++ {
		ok := true
		for l := 0; l < o.P; l++ {
			ok = ok && !math.IsNaN(o.Data[i*3+l]) && !math.IsNaN(m.Data[i*3+l])
		}
		if ok {
			rows = append(rows, i)
		}
	}
	pick := func(d *datasets.Dataset) *datasets.Dataset {
		var data []float64
		for _, i := range rows {
			data = append(data, d.Row(i)...)
		}
		return datasets.New(d.Name, d.Names, len(rows), d.P, data)
	}
	omitted := float64(o.N - len(rows))
	if omitted != 28 { // 26 records with a missing cell in testdata_na.csv, 2 lost here
		t.Fatalf("%v records omitted, want 28", omitted)
	}
	full := &Input{Orig: o, Masked: m, Opt: Options{K: 3}}
	sub := &Input{Orig: pick(o), Masked: pick(m), Opt: Options{K: 3}}
	for _, id := range []string{"dld", "dbrl", "dbrl2", "dbrl_attr", "dbrl_attr2", "id_rank", "il3",
		"il3_code", "pil", "reg_coef_dev", "rmd_risk1", "rmd_risk2", "cov_dev_max", "sse_sst_lb"} {
		got, want := eval(t, id, full), eval(t, id, sub)
		if math.IsNaN(got.Value) || got.Value != want.Value {
			t.Errorf("%s = %v, on the complete cases %v", id, got.Value, want.Value)
		}
		if got.Aux["nomit"] != omitted {
			t.Errorf("%s: nomit %v, want %v", id, got.Aux["nomit"], omitted)
		}
		if len(got.Notes) == 0 || !strings.HasPrefix(got.Notes[len(got.Notes)-1], NoteMissing) {
			t.Errorf("%s: notes %q, want one beginning %q", id, got.Notes, NoteMissing)
		}
	}
}

// TestMissingCellRules checks the rule of each cell-skipping measure (metrics.md §0.4) on a
// 5×2 table with one missing cell in the original and two in the release, seven cells
// observed in both:
//
//	x:  a = 1, 2, 3, 4, 5      b = 2, NA, 1, 4, 3
//	x': a = 1.5, 2, NA, 4, 4   b = 2, 1, 1, NA, 3
//
// sdcMicro 5.8.1 / R give dUtility IL1s 0.67082039324993692, IL1 70, dRisk 0.6, eigen
// 0.66159345783084933, and with cov/cor(…, use = "pairwise.complete.obs") the mean squared
// and absolute matrix differences 0.30305989583333337, 0.46354166666666674 (covariances),
// 0.025714285714285714, 0.11338934190276817 (correlations). By hand: the observed
// differences are 0.5 and 1 (column a, rows 1 and 5), so mse = 1.25/7 and mae = 1.5/7;
// il1rel = 100·(0.5/1 + 1/5)/7 = 10; in z-space (S_a² = 2.5, S_b² = 5/3 over b's observed
// values, mean 2.5) SSE = 1.25/2.5 = 0.5 and SST over the seven cells = 10/2.5 + 2.75/(5/3)
// = 5.65, so sse_sst = 100·0.5/5.65; sdid keeps records 2, 3 and 4 as dRisk does.
func TestMissingCellRules(t *testing.T) {
	nan := math.NaN()
	x := table([]string{"a", "b"}, []float64{1, 2}, []float64{2, nan}, []float64{3, 1}, []float64{4, 4}, []float64{5, 3})
	xm := table([]string{"a", "b"}, []float64{1.5, 2}, []float64{2, 1}, []float64{nan, 1}, []float64{4, nan}, []float64{4, 3})
	for _, c := range []struct {
		id   string
		want float64
	}{
		{"il1s_sum_sdc", 0.67082039324993692},
		{"il1s", 0.67082039324993692 / 7},
		{"il1rel_sum_sdc", 70},
		{"il1rel", 10},
		{"interval_disclosure", 60},
		{"sdid", 60},
		{"eigen_sdc", 100 * 0.66159345783084933},
		{"mse", 1.25 / 7},
		{"mae", 1.5 / 7},
		{"mse_cov", 0.30305989583333337},
		{"mae_cov", 0.46354166666666674},
		{"mse_cor", 0.025714285714285714},
		{"mae_cor", 0.11338934190276817},
		{"sse_sst", 100 * 0.5 / 5.65},
		{"fobj1", 100 * 0.5 / 5.65},
	} {
		got := eval(t, c.id, &Input{Orig: x, Masked: xm}).Value
		if math.IsNaN(got) || math.Abs(got-c.want) > 1e-12*max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.17g, want %.17g", c.id, got, c.want)
		}
	}
	// a release with no cell observed where the original has one: NaN with a note
	empty := table([]string{"a", "b"}, []float64{nan, nan}, []float64{nan, nan}, []float64{nan, nan}, []float64{nan, nan}, []float64{nan, nan})
	for _, id := range []string{"sse_sst", "il1s", "dld", "pil"} {
		r := eval(t, id, &Input{Orig: x, Masked: empty})
		if !math.IsNaN(r.Value) || len(r.Notes) == 0 || !strings.HasPrefix(r.Notes[0], NoteMissing) {
			t.Errorf("all missing: %s = %v, notes %q; want NaN with a note beginning %q", id, r.Value, r.Notes, NoteMissing)
		}
	}
}

// TestMissingKeysSdcMicro checks the frequency and SUDA measures on testdata's seven keys with
// 91 cells set missing against sdcMicro 5.8.1 (freqCalc, suda2; missing_sdcmicro.R): the
// frequencies treat a missing value as matching any value and SUDA never puts it in an MSU,
// so both agree with sdcMicro. The SUDA counts are exact; DIS to 1e-7 relative (5.8e-8 and
// 2.4e-8 here: sdcMicro's single-precision U/Dis − U, metrics.md §4.6).
func TestMissingKeysSdcMicro(t *testing.T) {
	want := sdcMicroExpected(t)["testdata_keys_na"]
	d := readTestCSV(t, "testdata_keys_na.csv")
	keys := []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}
	in := &Input{Orig: d, Masked: d, Opt: Options{Keys: keys}}
	suda := disSUDA(in, false)
	for _, c := range []struct {
		name, measure string
		got, tol      float64
	}{
		{"kanon_viol_2", "kanon_viol_2", eval(t, "kanon_viol_2", in).Value, 0},
		{"kanon_viol_3", "kanon_viol_3", eval(t, "kanon_viol_3", in).Value, 0},
		{"kanon_viol_5", "kanon_viol_5", eval(t, "kanon_viol_5", in).Value, 0},
		{"global_risk_er", "global_risk_er", eval(t, "global_risk_er", in).Value, 1e-12},
		{"ind_risk_max", "ind_risk_max", eval(t, "ind_risk_max", in).Value, 0},
		{"n_score", "suda_n_score", suda.Aux["n_score"], 0},
		{"score_sum", "suda_score_sum", suda.Aux["score_sum"], 0},
		{"score_max", "suda_score_max", suda.Aux["score_max"], 0},
		{"dis_suda_mean", "dis_suda_mean", suda.Value, 1e-7},
		{"dis_suda_max", "dis_suda_max", eval(t, "dis_suda_max", in).Value, 1e-7},
	} {
		w, ok := want[c.measure]
		if !ok {
			t.Fatalf("expected.csv has no testdata_keys_na %s", c.measure)
		}
		if math.Abs(c.got-w) > c.tol*math.Abs(w) {
			t.Errorf("%s = %.17g, sdcMicro %.17g", c.name, c.got, w)
		}
	}
	// With suda_missing = category a missing value is a rare category: more records get MSUs
	// (227 against 156).
	cat := disSUDA(&Input{Orig: d, Masked: d, Opt: Options{Keys: keys, SUDAMissing: "category"}}, false)
	if cat.Aux["n_score"] <= want["suda_n_score"] {
		t.Errorf("category rule: %v records with a score, want more than sdcMicro's %v", cat.Aux["n_score"], want["suda_n_score"])
	}
}

// TestNearestMissing: in the attacks' neighbour search a distance with a missing coordinate
// counts as +Inf, so a release row with a missing value is never nearer than a complete one
// (before, a NaN distance in the last slot blocked every later candidate).
func TestNearestMissing(t *testing.T) {
	nan := math.NaN()
	r := []float64{nan, 0, 5, 5, 1, 1, 0.5, nan} // rows (NaN, 0), (5, 5), (1, 1), (0.5, NaN)
	for _, c := range []struct {
		k    int
		q    []float64
		want []int
	}{
		{1, []float64{0, 0}, []int{2}},
		{2, []float64{0, 0}, []int{2, 1}},
		{4, []float64{0, 0}, []int{2, 1, 0, 3}}, // the two +Inf rows last, lower index first
		{1, []float64{nan, 0}, []int{0}},        // every distance +Inf: the lowest index
	} {
		dst, dist := make([]int, c.k), make([]float64, c.k)
		nearest(dst, dist, r, 4, 2, c.q, sqDist)
		if !slicesEqual(dst, c.want) {
			t.Errorf("k = %d, q = %v: %v, want %v", c.k, c.q, dst, c.want)
		}
	}
}

// readRecords reads a committed CSV of expected values whole (encoding/csv, header included).
func readRecords(t *testing.T, path string) [][]string {
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
	return recs
}
