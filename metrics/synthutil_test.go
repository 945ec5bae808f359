package metrics

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// synthPair reads the pair of files that testdata/synthutil.R wrote: the original and its
// release, the release's categories aligned to the original's codes.
func synthPair(t *testing.T) (orig, rel *datasets.Dataset) {
	t.Helper()
	orig = readTestCSV(t, "synthutil_orig.csv")
	r := readTestCSV(t, "synthutil_rel.csv")
	rel, err := r.AlignLevels(orig)
	if err != nil {
		t.Fatal(err)
	}
	return orig, rel
}

// synthExpected returns testdata/synthutil_expected.csv (measure → value, written by R).
func synthExpected(t *testing.T) map[string]float64 {
	t.Helper()
	recs := readRecords(t, filepath.Join("testdata", "synthutil_expected.csv"))
	out := map[string]float64{}
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatalf("synthutil_expected.csv: %s: %v", r[0], err)
		}
		out[r[0]] = v
	}
	return out
}

func evalID(t *testing.T, id string, in *Input) Result {
	t.Helper()
	m, err := Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Eval(in)
}

// TestSynthUtilMatchesR checks every measure of docs/synthetic.md against the values R gives
// on the committed pair (testdata/synthutil.R): pmse, s_pmse and specks against glm(binomial)
// and ks.test to 1e-8 with main effects and with two-way interactions; ci_overlap against
// lm + confint; kmarginal, dcr_median and nndr_median against their definitions in R.
func TestSynthUtilMatchesR(t *testing.T) {
	orig, rel := synthPair(t)
	want := synthExpected(t)
	cases := []struct {
		id, aux, key string
		opt          SynthOptions
		tol          float64
	}{
		{"pmse", "", "pmse_order0", SynthOptions{}, 1e-8},
		{"s_pmse", "", "s_pmse_order0", SynthOptions{}, 1e-8},
		{"specks", "", "specks_order0", SynthOptions{}, 1e-8},
		{"pmse", "df", "df_order0", SynthOptions{}, 0},
		{"pmse", "", "pmse_order1", SynthOptions{PropensityOrder: 1}, 1e-8},
		{"s_pmse", "", "s_pmse_order1", SynthOptions{PropensityOrder: 1}, 1e-8},
		{"specks", "", "specks_order1", SynthOptions{PropensityOrder: 1}, 1e-8},
		{"specks", "df", "df_order1", SynthOptions{PropensityOrder: 1}, 0},
		{"ci_overlap", "", "ci_overlap_m1", SynthOptions{CIModel: "y ~ x1 + a"}, 1e-10},
		{"ci_overlap", "min", "ci_overlap_m1_min", SynthOptions{CIModel: "y ~ x1 + a"}, 1e-10},
		{"ci_overlap", "n_coef", "ci_overlap_m1_n", SynthOptions{CIModel: "y ~ x1 + a"}, 0},
		{"ci_overlap", "", "ci_overlap_m2", SynthOptions{CIModel: "y~x1+x2+a+b"}, 1e-10},
		{"ci_overlap", "min", "ci_overlap_m2_min", SynthOptions{CIModel: "y~x1+x2+a+b"}, 1e-10},
		{"ci_overlap", "n_coef", "ci_overlap_m2_n", SynthOptions{CIModel: "y ~ ."}, 0},
		{"ci_overlap", "", "ci_overlap_m1", SynthOptions{CIModel: "#5 ~ #1 + #3"}, 1e-10},
		{"kmarginal", "", "kmarginal_k2", SynthOptions{}, 1e-9},
		{"kmarginal", "k3", "kmarginal_k3", SynthOptions{}, 1e-9},
		{"kmarginal", "worst2", "kmarginal_worst2", SynthOptions{}, 1e-9},
		{"dcr_median", "", "dcr_median", SynthOptions{}, 1e-12},
		{"dcr_median", "orig", "dcr_orig", SynthOptions{}, 1e-12},
		{"nndr_median", "", "nndr_median", SynthOptions{}, 1e-12},
	}
	for _, c := range cases {
		in := &Input{Orig: orig, Masked: rel, Opt: Options{Synth: c.opt}}
		r := evalID(t, c.id, in)
		got := r.Value
		if c.aux != "" {
			got = r.Aux[c.aux]
		}
		w, ok := want[c.key]
		if !ok {
			t.Fatalf("synthutil_expected.csv has no %s", c.key)
		}
		if math.Abs(got-w) > c.tol*math.Max(1, math.Abs(w)) {
			t.Errorf("%s %s (%s): got %.15g, R %.15g (diff %.3g)", c.id, c.aux, c.key, got, w, got-w)
		}
		if c.id != "dcr_median" && c.id != "nndr_median" && len(r.Notes) > 0 {
			t.Errorf("%s: unexpected notes %q", c.id, r.Notes)
		}
	}
}

// TestPropensityHand checks the propensity measures on a table small enough to work out:
// one binary column, the original (x, x, x, y) and the release (x, y, y, y). The main-effect
// model is saturated, so p̂ is the released share in each category: ¼ for x, ¾ for y, and
// c = ½. pMSE = 8·(¼)²/8 = 1/16; k − 1 = 1, so S_pMSE = (1/16)/(1·¼·½/8) = 4; the released
// scores (¼, ¾, ¾, ¾) against the original ones (¼, ¼, ¼, ¾) give SPECKS = |¼ − ¾| = ½.
func TestPropensityHand(t *testing.T) {
	cat := func(codes ...float64) *datasets.Dataset {
		d := datasets.New("t", []string{"a"}, len(codes), 1, codes)
		d.Levels = [][]string{{"x", "y"}}
		return d
	}
	orig, rel := cat(0, 0, 0, 1), cat(0, 1, 1, 1)
	p := PropensityScores(orig, rel, []int{0}, 0)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"pmse", p.PMSE, 1.0 / 16}, {"s_pmse", p.SPMSE, 4}, {"specks", p.SPECKS, 0.5}, {"df", float64(p.DF), 1},
	} {
		if math.Abs(c.got-c.want) > 1e-10 {
			t.Errorf("%s = %.12g, want %g", c.name, c.got, c.want)
		}
	}
	if !p.Converged {
		t.Error("saturated fit did not converge")
	}
	// the release equal to the original: every score is ½
	same := PropensityScores(orig, orig, []int{0}, 0)
	if same.PMSE > 1e-20 || same.SPECKS != 0 {
		t.Errorf("identical tables: pmse %g, specks %g, want 0, 0", same.PMSE, same.SPECKS)
	}
	// equal means on a numeric column: the main-effect model finds nothing (β = 0, every score
	// ½ up to rounding), so pMSE is 0 and SPECKS is 0, not the KS distance of rounding noise
	num := func(v ...float64) *datasets.Dataset { return datasets.New("n", []string{"x"}, len(v), 1, v) }
	flat := PropensityScores(num(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
		num(0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.55), []int{0}, 0)
	if flat.PMSE > 1e-20 || flat.SPECKS != 0 {
		t.Errorf("equal means: pmse %g, specks %g, want 0, 0", flat.PMSE, flat.SPECKS)
	}
	// more than synthpop's max.params (400) coefficients: refused with a note
	many := make([]float64, 500)
	for i := range many {
		many[i] = float64(i)
	}
	wide := datasets.New("w", []string{"id"}, 500, 1, many)
	wide.Levels = [][]string{make([]string, 500)}
	if q := PropensityScores(wide, wide, []int{0}, 0); !math.IsNaN(q.PMSE) || !strings.Contains(q.Note, "max.params") {
		t.Errorf("500 categories: pmse %g, note %q, want NaN and the max.params note", q.PMSE, q.Note)
	}
	// a constant column in both tables is left out: nothing to fit
	cst := cat(0, 0, 0, 0)
	if q := PropensityScores(cst, cat(1, 1, 1, 1), []int{0}, 0); !math.IsNaN(q.PMSE) {
		t.Errorf("single-valued columns: pmse %g, want NaN (synthpop drops them)", q.PMSE)
	}
}

// TestKSStatistic checks ksStatistic on hand-worked samples, ties included.
func TestKSStatistic(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0},
		{[]float64{1, 2}, []float64{3, 4}, 1},
		{[]float64{1, 2, 3, 4}, []float64{2, 4}, 0.25},        // at 1: ¼−0; at 3: ¾−½
		{[]float64{1, 1, 2}, []float64{1, 2, 2}, 1.0 / 3},     // tie at 1: ⅔ − ⅓
		{[]float64{0.5}, []float64{0.5, 0.5, 0.5, 0.7}, 0.25}, // 1 − ¾ at 0.5
	} {
		if got := ksStatistic(c.a, c.b); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("ks(%v, %v) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
	if !math.IsNaN(ksStatistic(nil, []float64{1})) {
		t.Error("empty sample: want NaN")
	}
}

// TestKMarginalHand: original (0,0), (0,1), (1,0), (1,1) and release (0,0), (0,0), (1,1),
// (1,1): the 2-way TVD is ½(|¼−½| + ¼ + ¼ + |¼−½|) = ½, so the score is 500; with two columns
// there is no triple (k3 NaN).
func TestKMarginalHand(t *testing.T) {
	mk := func(v ...float64) *datasets.Dataset {
		d := datasets.New("t", []string{"a", "b"}, len(v)/2, 2, v)
		d.Levels = [][]string{{"0", "1"}, {"0", "1"}}
		return d
	}
	r := KMarginal(&Input{Orig: mk(0, 0, 0, 1, 1, 0, 1, 1), Masked: mk(0, 0, 0, 0, 1, 1, 1, 1)})
	if r.Value != 500 || r.Aux["worst2"] != 500 || !math.IsNaN(r.Aux["k3"]) {
		t.Errorf("kmarginal = %g (worst2 %g, k3 %g), want 500, 500, NaN", r.Value, r.Aux["worst2"], r.Aux["k3"])
	}
	// numeric columns with few values keep them; a release value the original never takes is
	// a category of its own: (1,2,3) against (1,2,4) differ in one third of the mass per column
	num := datasets.New("n", []string{"x", "y"}, 3, 2, []float64{1, 1, 2, 2, 3, 3})
	rel := datasets.New("n", []string{"x", "y"}, 3, 2, []float64{1, 1, 2, 2, 4, 4})
	if r := KMarginal(&Input{Orig: num, Masked: rel}); math.Abs(r.Value-1000*(1-1.0/3)) > 1e-9 {
		t.Errorf("kmarginal with a new value = %g, want %g", r.Value, 1000*(1-1.0/3))
	}
}

// TestDCRHand: one numeric column, original (0, 1, 2, 3) with SD √(5/3), release
// (0, 0.5, 3, 10). Raw distances to the closest original record: 0, 0.5, 0, 7 (median 0.25);
// to the second closest: 1, 0.5, 1, 8, so the ratios are 0, 1, 0, 0.875 (median 0.4375).
// Every original record is 1 from its closest other one.
func TestDCRHand(t *testing.T) {
	orig := datasets.New("o", []string{"x"}, 4, 1, []float64{0, 1, 2, 3})
	rel := datasets.New("r", []string{"x"}, 4, 1, []float64{0, 0.5, 3, 10})
	sd := math.Sqrt(5.0 / 3)
	in := &Input{Orig: orig, Masked: rel}
	d := evalID(t, "dcr_median", in)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"dcr_median", d.Value, 0.25 / sd}, {"orig", d.Aux["orig"], 1 / sd}, {"share_zero", d.Aux["share_zero"], 0.5},
		{"nndr_median", evalID(t, "nndr_median", in).Value, 0.4375},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	if !math.IsNaN(d.Aux["control"]) {
		t.Errorf("control without a control set = %g, want NaN", d.Aux["control"])
	}
	ctl := datasets.New("c", []string{"x"}, 2, 1, []float64{0.25, 2.5})
	if got := evalID(t, "dcr_median", &Input{Orig: orig, Masked: rel, Control: ctl}).Aux["control"]; math.Abs(got-0.375/sd) > 1e-12 {
		t.Errorf("control = %g, want %g", got, 0.375/sd)
	}
}

// TestSynthUtilIdentical: a release equal to its original scores perfectly on every measure.
func TestSynthUtilIdentical(t *testing.T) {
	orig, _ := synthPair(t)
	in := &Input{Orig: orig, Masked: orig, Opt: Options{Synth: SynthOptions{CIModel: "y ~ x1 + x2 + a"}}}
	for _, c := range []struct {
		id   string
		want float64
	}{
		{"pmse", 0}, {"specks", 0}, {"kmarginal", 1000}, {"dcr_median", 0}, {"nndr_median", 0}, {"ci_overlap", 1},
	} {
		if got := evalID(t, c.id, in).Value; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s on identical tables = %g, want %g", c.id, got, c.want)
		}
	}
}

// TestSynthOptions checks the option keys of docs/synthetic.md and their errors.
func TestSynthOptions(t *testing.T) {
	var o Options
	for k, v := range map[string]string{"pmse_order": "1", "ci_model": " y ~ a + b ", "kmarginal_bins": "5"} {
		if err := o.SetOption(k, v); err != nil {
			t.Fatalf("%s=%s: %v", k, v, err)
		}
	}
	if o.Synth != (SynthOptions{PropensityOrder: 1, CIModel: "y ~ a + b", KMarginalBins: 5}) {
		t.Errorf("options = %+v", o.Synth)
	}
	for _, c := range []struct{ key, value, msg string }{
		{"pmse_order", "2", "want 0"},
		{"ci_model", "y", "response ~"},
		{"ci_model", "y ~ a + ", "empty predictor"},
		{"ci_model", "y ~ . + a", "stands alone"},
		{"ci_model", "y ~ y", "equal to the response"},
		{"kmarginal_bins", "1", "≥ 2"},
	} {
		err := o.SetOption(c.key, c.value)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s=%q: error %v, want %q", c.key, c.value, err, c.msg)
		}
	}
	// ci_overlap without a model or with an unknown column says so
	orig, rel := synthPair(t)
	if r := CIOverlap(&Input{Orig: orig, Masked: rel}); !math.IsNaN(r.Value) || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "ci_model") {
		t.Errorf("no model: %+v", r)
	}
	r := CIOverlap(&Input{Orig: orig, Masked: rel, Opt: Options{Synth: SynthOptions{CIModel: "y ~ x3"}}})
	if !math.IsNaN(r.Value) || !strings.Contains(strings.Join(r.Notes, ""), `no column "x3"`) {
		t.Errorf("unknown column: %+v", r)
	}
	r = CIOverlap(&Input{Orig: orig, Masked: rel, Opt: Options{Synth: SynthOptions{CIModel: "y ~ #6"}}})
	if !math.IsNaN(r.Value) || !strings.Contains(strings.Join(r.Notes, ""), "outside 1..5") {
		t.Errorf("position out of range: %+v", r)
	}
	r = CIOverlap(&Input{Orig: orig, Masked: rel, Opt: Options{Synth: SynthOptions{CIModel: "a ~ x1"}}})
	if !math.IsNaN(r.Value) || !strings.Contains(strings.Join(r.Notes, ""), "categorical") {
		t.Errorf("categorical response: %+v", r)
	}
}

// TestSynthUtilRScript runs testdata/synthutil.R again, where R is installed, and checks that
// it writes the committed pair and values: the committed files are what the script makes.
// Skipped without Rscript and with -short.
func TestSynthUtilRScript(t *testing.T) {
	if testing.Short() {
		t.Skip("runs R; skipped with -short")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript not installed: the committed values stand")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "synthutil.R"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "synthutil.R"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(rscript, "synthutil.R")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("Rscript synthutil.R: %v\n%s", err, out)
	}
	for _, f := range []string{"synthutil_orig.csv", "synthutil_rel.csv", "synthutil_expected.csv"} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: the script now writes other contents than the committed file", f)
		}
	}
}

// TestPropensityUnequalSizes: with n₁ = 2 original and n₂ = 6 released records, c = ¾. One
// binary column, original (x, y), release (x, x, x, y, y, y): in each category the released
// share is ¾ = c, so the saturated model gives every record c and pMSE = SPECKS = 0. With
// release (x, x, x, x, x, y): p̂ = 5/6 for x (5 of 6), ½ for y; pMSE = (6·(1/12)² +
// 2·(¼)²)/8 = (1/24 + 1/8)/8 = 1/48; S_pMSE = (1/48)/(1·(¼)²·¾/8) = 128/36 = 32/9.
func TestPropensityUnequalSizes(t *testing.T) {
	cat := func(codes ...float64) *datasets.Dataset {
		d := datasets.New("t", []string{"a"}, len(codes), 1, codes)
		d.Levels = [][]string{{"x", "y"}}
		return d
	}
	p := PropensityScores(cat(0, 1), cat(0, 0, 0, 1, 1, 1), []int{0}, 0)
	if p.PMSE > 1e-20 || p.SPECKS != 0 {
		t.Errorf("shares equal to c: pmse %g, specks %g, want 0, 0", p.PMSE, p.SPECKS)
	}
	p = PropensityScores(cat(0, 1), cat(0, 0, 0, 0, 0, 1), []int{0}, 0)
	if math.Abs(p.PMSE-1.0/48) > 1e-12 || math.Abs(p.SPMSE-32.0/9) > 1e-10 {
		t.Errorf("pmse %.15g, s_pmse %.15g, want 1/48, 32/9", p.PMSE, p.SPMSE)
	}
}
