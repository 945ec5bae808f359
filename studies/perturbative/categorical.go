// CATEGORICAL.md is the report of perturbative-categorical, the categorical stage of the
// study: the sdcMicro 5.8.1 values of the risk of testdata's keys and of the local-suppression
// sequence beside ours with a computed verdict per cell, the PRAM checks (invariance, changes
// against their expectation), the agreement with sdcMicro's own suppressed records and PRAM
// matrix, and the study's confidential-data numbers (Morais 2022, MSc dissertation,
// Universidade do Minho), which cannot be recomputed (categorical.md).

package perturbative

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods/categorical"
	"github.com/sdcbench/sdcbench/studies"
)

// Target is one expected value: sdcMicro 5.8.1 on testdata (the harness's spec values).
type Target struct {
	Stage   string // the run: dataset label and local_supp parameters
	Dataset string
	KeyVar  string
	Thr     string
	Metric  string // runs.csv column
	Want    float64
	Tol     float64 // absolute; 0 means 1e-9 relative (exact up to summation order)
	Note    string  // "printed to N decimals": Tol is half the last printed digit
}

// keys is the dataset label of the unweighted runs.
const keys = "keys"

// Targets are the exact checks (categorical-targets.reference.csv): risk of the original
// (unweighted and weighted) and after each local-suppression step. The suppression count of
// step 2 is checked as the difference of the two runs (the second run does both steps).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var Targets = sync.OnceValue(mustTargets)

// mustTargets reads categorical-targets.reference.csv. The file is embedded, so an error is a
// programming error and panics.
func mustTargets() []Target {
	const name = "categorical-targets.reference.csv"
	rows, err := studies.ReadTable(files, name, 8)
	out := make([]Target, len(rows))
	for i := 0; err == nil && i < len(rows); i++ {
		r := rows[i]
		var v []float64
		if v, err = studies.ParseFloats(r[5:7]); err == nil {
			out[i] = Target{Stage: r[0], Dataset: r[1], KeyVar: r[2], Thr: r[3], Metric: r[4], Want: v[0], Tol: v[1], Note: r[7]}
		}
	}
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	return out
}

// CategoricalRow is one number of the study's categorical stage on its confidential file.
type CategoricalRow struct{ Stage, Measure, Value string }

// Categorical holds the study's categorical-stage values (Codes 31-37 of the dissertation;
// categorical-stage.expected.csv): not reproducible.
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var Categorical = sync.OnceValue(mustCategorical)

// mustCategorical reads categorical-stage.expected.csv. The file is embedded, so an error is a
// programming error and panics.
func mustCategorical() []CategoricalRow {
	const name = "categorical-stage.expected.csv"
	rows, err := studies.ReadTable(files, name, 3)
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	out := make([]CategoricalRow, len(rows))
	for i, r := range rows {
		out[i] = CategoricalRow{Stage: r[0], Measure: r[1], Value: r[2]}
	}
	return out
}

type table struct {
	t   *resultsdir.Table
	col map[string]int
}

func (t table) rows(dataset, method string, match map[string]string) [][]string {
	var out [][]string
	for _, r := range t.t.Rows {
		if r[t.col["dataset"]] != dataset || r[t.col["method"]] != method || r[t.col["status"]] != "ok" {
			continue
		}
		ok := true
		for k, v := range match {
			if c, has := t.col[k]; !has || r[c] != v {
				ok = false
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

func (t table) value(r []string, name string) float64 {
	c, ok := t.col[name]
	if !ok {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(r[c], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// Counts of the exact checks of section 1, and every verdict of the report.
type Counts struct {
	Exact, Within, Fail, Missing int
	Rows                         []Verdict
}

// The verdict words: the vocabulary of resultsdir (docs/reproducing.md).
const (
	Exact         = string(resultsdir.Exact)
	Tolerance     = string(resultsdir.Tolerance)
	NotReproduced = string(resultsdir.NotReproduced)
	NotPossible   = string(resultsdir.NotPossible)
)

// add records a verdict. Every table of the categorical stage checks sdcMicro 5.8.1's values on
// testdata or PRAM's own transition matrices (source "reference") except the study's PT2020
// file, whose printed numbers are judged as the study's (source "study").
func (c *Counts) add(table, item, verdict string) {
	c.Rows = append(c.Rows, Verdict{Table: table, Item: item, Verdict: verdict, Ref: table != PT2020Table})
}

// WriteCategoricalVerdicts reads dir/runs.csv, writes dir/CATEGORICAL.md and returns every
// verdict it printed (for the study's Reporter; see register.go).
func WriteCategoricalVerdicts(dir string) ([]Verdict, error) {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	c, err := Report(&b, t)
	if err != nil {
		return nil, err
	}
	return c.Rows, datasets.AtomicWrite(filepath.Join(dir, "CATEGORICAL.md"), func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// Report writes the report and returns the verdict counts of the exact checks.
func Report(w io.Writer, rt *resultsdir.Table) (Counts, error) {
	t := table{t: rt, col: map[string]int{}}
	for i, h := range rt.Header {
		t.col[h] = i
	}
	var c Counts
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# perturbative-categorical: categorical keys on testdata\n\n")
	p("Generated by `sdcbench report DIR` from runs.csv; every verdict below is computed.\n")
	p("Keys urbrur, roof, walls, water, electcon, relat, sex (as categories), no weights unless stated;\n")
	p("expected values are sdcMicro 5.8.1's on the same file (docs/categorical.md).\n\n")
	p("## 1. Risk of the original and the local-suppression sequence (criterion: exact)\n\n")
	p("| stage | measure | sdcMicro 5.8.1 | ours | tolerance | verdict | note |\n|---|---|---|---|---|---|---|\n")
	printed := false
	verdict := func(got, want, tol float64) string {
		switch {
		case math.IsNaN(got):
			c.Missing++
			return "missing"
		case tol == 0 && math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)):
			c.Exact++
			return "exact"
		case tol > 0 && math.Abs(got-want) <= tol && printed:
			c.Exact++
			return "exact to the printed digits"
		case tol > 0 && math.Abs(got-want) <= tol:
			c.Within++
			return "within tolerance"
		}
		c.Fail++
		return "**differs**"
	}
	for _, tg := range Targets() {
		got := math.NaN()
		if rs := t.rows(tg.Dataset, "local_supp", map[string]string{"param_key_var": tg.KeyVar, "param_threshold": tg.Thr}); len(rs) > 0 {
			got = t.value(rs[0], tg.Metric)
		}
		tol := "1e-9 rel."
		if tg.Tol > 0 {
			tol = fmtG(tg.Tol)
		}
		printed = tg.Tol > 0 && tg.Tol < 1e-4
		v := verdict(got, tg.Want, tg.Tol)
		c.add(section1, tg.Stage+": "+tg.Metric, word(v))
		p("| %s | %s | %s | %s | %s | %s | %s |\n", tg.Stage, tg.Metric, fmtG(tg.Want), fmtG(got), tol, v, tg.Note)
	}
	// Step 2's suppressions: both steps minus the first.
	one := t.rows(keys, "local_supp", map[string]string{"param_key_var": "water", "param_threshold": "0.4"})
	two := t.rows(keys, "local_supp", map[string]string{"param_key_var": "water,relat", "param_threshold": "0.4,0.7"})
	got := math.NaN()
	if len(one) > 0 && len(two) > 0 {
		got = t.value(two[0], "n_suppressed") - t.value(one[0], "n_suppressed")
	}
	v := verdict(got, 57, 0)
	c.add(section1, "then local_supp(relat, 0.7): n_suppressed (this step)", word(v))
	p("| then local_supp(relat, 0.7) | n_suppressed (this step) | 57 | %s | 1e-9 rel. | %s | both steps' count minus the first's |\n", fmtG(got), v)
	p("\nA tolerance other than 1e-9 relative is half a unit of the last digit sdcMicro's value is given\n")
	p("to: such a match is exact to the printed digits. The two ER values after suppression come from\n")
	p("methods/categorical/sdcmicro/sdcmicro.R run with sdcMicro 5.8.1 (10 decimals).\n\n")
	p("**%d exact, %d within tolerance, %d differ, %d missing** (of %d checks).\n\n", c.Exact, c.Within, c.Fail, c.Missing, len(Targets())+1)

	pramSection(p, t, &c)
	if err := sdcMicroSection(p, &c); err != nil {
		return c, err
	}
	if err := pramAgreement(p, t, &c); err != nil {
		return c, err
	}
	p("## 4. The study's numbers (confidential PT2020 file): not reproducible\n\n")
	p("Morais (2022) protected six categorical keys of the confidential PT2020 incentives file (43,333 records)\n")
	p("with local suppression, three manual recodes and PRAM. That file cannot be shared, so none of these\n")
	p("numbers can be recomputed; testdata stands in for it and sdcMicro 5.8.1 is the reference above.\n\n")
	p("| stage | measure | study | ours |\n|---|---|---|---|\n")
	for _, s := range Categorical() {
		c.add(PT2020Table, s.Stage+": "+s.Measure, NotPossible)
		p("| %s | %s | %s | not reproducible (confidential data) |\n", s.Stage, s.Measure, s.Value)
	}
	p("\n")
	return c, nil
}

// Table names of the verdicts.
const (
	section1 = "sdcMicro 5.8.1 risk and suppression on testdata"
	// PT2020Table holds the study's printed PT2020 numbers of the categorical stage.
	PT2020Table = "Morais (2022), PT2020 file"
	section3    = "agreement with sdcMicro 5.8.1"
)

// word maps a printed verdict of section 1 to the registry's word.
func word(printed string) string {
	switch printed {
	case "exact", "exact to the printed digits":
		return Exact
	case "within tolerance":
		return Tolerance
	}
	return NotReproduced
}

// meanSE returns the mean and standard error of x.
func meanSE(x []float64) (m, se float64) {
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	if len(x) > 1 {
		se = math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
	}
	return m, se
}

func pramSection(p func(string, ...any), t table, c *Counts) {
	p("## 2. PRAM (criterion: invariance to 1e-12; changes within 4 SE of their expectation)\n\n")
	p("| run | replicates | mean changes (%%) | mean expected | difference ± SE | z | max \\|πᵀRs − πᵀ\\| | verdict |\n|---|---|---|---|---|---|---|---|\n")
	for _, run := range []struct{ label, desc string }{
		{"roof", "roof: pd 0.75, α 0.5, strata urbrur (global matrix)"},
		{"sex", "sex: matrix rows (1, 0), (0.05, 0.95)"},
	} {
		rs := t.rows(run.label, "pram", nil)
		if len(rs) == 0 {
			c.add("PRAM checks", run.desc, NotReproduced)
			p("| %s | 0 | | | | | | missing |\n", run.desc)
			continue
		}
		var diff, changed, pct []float64
		inv := 0.0
		for _, r := range rs {
			ch, ex := t.value(r, "pram_changed"), t.value(r, "pram_expected")
			changed = append(changed, ch)
			pct = append(pct, t.value(r, "pram_changed_pct"))
			diff = append(diff, ch-ex)
			inv = math.Max(inv, t.value(r, "pram_invariance_err"))
		}
		mc, _ := meanSE(changed)
		mp, _ := meanSE(pct)
		md, se := meanSE(diff)
		z := md / se
		v := "holds"
		if math.Abs(z) > 4 || inv > 1e-12 || math.IsNaN(z) {
			v = "**fails**"
			c.add("PRAM checks", run.desc, NotReproduced)
		} else {
			c.add("PRAM checks", run.desc, Tolerance)
		}
		p("| %s | %d | %.2f (%.3f%%) | %.2f | %.2f ± %.2f | %.2f | %.2g | %s |\n", run.desc, len(rs), mc, mp, mc-md, md, se, z, inv, v)
	}
	p("\nThe expectation is Σ_i n_i·(1 − Rs_ii) for the matrix each run drew (its diagonal draws are random),\n")
	p("so the test compares each run's changes with its own expectation; replicates are independent draws.\n\n")
}

// sdcMicroSection re-runs local_supp on testdata and the PRAM matrix for sdcMicro's own
// diagonal draws, and compares them with sdcMicro 5.8.1's output (embedded reference).
func sdcMicroSection(p func(string, ...any), c *Counts) error {
	p("## 3. Agreement with sdcMicro 5.8.1 (computed now, against its output stored with the code)\n\n")
	d, err := datasets.Load("testdata")
	if err != nil {
		return err
	}
	ks := []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}
	if d, err = d.Categorize(ks); err != nil {
		return err
	}
	if d, err = d.Select(ks); err != nil {
		return err
	}
	ref, err := categorical.SdcMicroLocalSupp()
	if err != nil {
		return err
	}
	m := categorical.LocalSupp{}
	cur := d
	p("| check | sdcMicro | ours | verdict |\n|---|---|---|---|\n")
	for _, st := range [][2]string{{"water", "0.4"}, {"relat", "0.7"}} {
		pr, err := m.Info().Resolve(map[string]string{"key_var": st[0], "threshold": st[1]})
		if err != nil {
			return err
		}
		rel, err := m.Protect(context.Background(), cur, pr, nil)
		if err != nil {
			return err
		}
		j := cur.ColIndex(st[0])
		var rows []int
		for i := 0; i < cur.N; i++ {
			if !math.IsNaN(cur.At(i, j)) && math.IsNaN(rel.Masked.At(i, j)) {
				rows = append(rows, i)
			}
		}
		want := ref[st[0]+":"+st[1]]
		same := len(rows) == len(want)
		for i := 0; same && i < len(rows); i++ {
			same = rows[i] == want[i]
		}
		v := "same records"
		item := "localSupp(" + st[0] + ", " + st[1] + "): suppressed records"
		if !same {
			v = "**different records**"
			c.add(section3, item, NotReproduced)
		} else {
			c.add(section3, item, Exact)
		}
		p("| localSupp(%s, %s): suppressed records | %d | %d | %s |\n", st[0], st[1], len(want), len(rows), v)
		cur = rel.Masked
	}
	levels, pd, rs, err := categorical.SdcMicroPRAMRoof()
	if err != nil {
		return err
	}
	j := d.ColIndex("roof")
	cnt := make([]float64, len(d.Levels[j]))
	for i := 0; i < d.N; i++ {
		if c := d.Code(i, j); c >= 0 {
			cnt[c]++
		}
	}
	if strings.Join(levels, ",") != strings.Join(d.Levels[j], ",") {
		return fmt.Errorf("perturbative: roof levels %v, sdcMicro's %v", d.Levels[j], levels)
	}
	ours := categorical.InvariantMatrix(cnt, pd, 0.5)
	var maxd float64
	for i := range rs {
		for k := range rs[i] {
			maxd = math.Max(maxd, math.Abs(ours[i][k]-rs[i][k]))
		}
	}
	v := "agrees to 2.2e-16"
	if maxd > 2.3e-16 {
		v = "**differs**"
		c.add(section3, "PRAM invariant matrix of roof", NotReproduced)
	} else {
		c.add(section3, "PRAM invariant matrix of roof", Exact)
	}
	p("| PRAM invariant matrix of roof (pd 0.75, α 0.5, sdcMicro's diagonal draws) | %d×%d | max \\|difference\\| %.2g | %s |\n\n", len(rs), len(rs), maxd, v)
	p("sdcMicro draws its PRAM categories with R's generator, ours with the run's PCG: single\n")
	p("releases differ, so the changes are compared as two independent samples of 100 calls each:\n\n")
	return nil
}

// pramAgreement compares our pram_changed over the runs of a dataset with sdcMicro's 100
// reference calls: difference of means with its standard error (Welch), verdict |z| ≤ 4.
func pramAgreement(p func(string, ...any), t table, cnt *Counts) error {
	roof, sex, err := categorical.SdcMicroPRAMChanges()
	if err != nil {
		return err
	}
	var notes []string
	p("| PRAM run | sdcMicro mean ± SD (n) | ours mean ± SD (n) | difference ± SE | relative | z | verdict |\n|---|---|---|---|---|---|---|\n")
	for _, c := range []struct {
		label, desc string
		ref         []float64
	}{
		{"roof_only", "roof: pd 0.75, α 0.5, no strata", roof},
		{"sex", "sex: matrix rows (1, 0), (0.05, 0.95)", sex},
	} {
		var ours, exp []float64
		for _, r := range t.rows(c.label, "pram", nil) {
			ours = append(ours, t.value(r, "pram_changed"))
			exp = append(exp, t.value(r, "pram_expected"))
		}
		if len(ours) < 2 {
			cnt.add(section3, "pram changes, "+c.desc, NotReproduced)
			p("| %s | | missing | | | | missing |\n", c.desc)
			continue
		}
		mr, ser := meanSE(c.ref)
		mo, seo := meanSE(ours)
		se := math.Hypot(ser, seo)
		z := (mo - mr) / se
		v := "agrees (\\|z\\| ≤ 4)"
		if math.Abs(z) > 4 || math.IsNaN(z) {
			v = "**differs**"
			cnt.add(section3, "pram changes, "+c.desc, NotReproduced)
		} else {
			cnt.add(section3, "pram changes, "+c.desc, Tolerance)
		}
		sd := func(se float64, n int) float64 { return se * math.Sqrt(float64(n)) }
		p("| %s | %.2f ± %.2f (%d) | %.2f ± %.2f (%d) | %.2f ± %.2f | %+.1f%% | %.2f | %s |\n", c.desc,
			mr, sd(ser, len(c.ref)), len(c.ref), mo, sd(seo, len(ours)), len(ours), mo-mr, se, 100*(mo-mr)/mr, z, v)
		if e, _ := meanSE(exp); slices.Min(exp) == slices.Max(exp) {
			notes = append(notes, fmt.Sprintf("With an explicit matrix the expected number of changes is exact: %.2f for sex. "+
				"sdcMicro's mean lies %.2f SE from it, ours %.2f SE.", e, (mr-e)/ser, (mo-e)/seo))
		}
	}
	p("\n%s\n\n", strings.Join(notes, " "))
	return nil
}
