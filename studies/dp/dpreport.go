// Package dp is the DP study (README.md): its specs and the reproduction reports, DP.md, of
// its experiments dp-e1 … dp-e10.
//
// A report reads a results folder written by the runner, aggregates the per-replicate DP metrics of metrics/dp.go over the R replicates of each
// configuration (est_mean, var_est with its standard error, post_var_mean, coverage, widths,
// ESS, acceptance, time), puts the dissertation's published tables beside ours with the spec's expected
// values and 3SE bands, gives a verdict per cell and draws the ε and M curves (PNG and SVG,
// gonum.org/v1/plot). The dissertation's published numbers are read from
// dissertation.expected.csv and the spec's expected values and bands from spec.reference.csv.
//
// Verdicts (docs/reproducing.md "What reproduced means"): "exact" (equal at the published
// precision), "within tolerance" (the per-table band of the spec), "pattern" (the qualitative
// claim holds) and "not reproduced". A seed cell that the spec predicts cannot reproduce is
// marked "expected miss"; the report says whether that prediction was confirmed.
package dp

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

// Write writes dir/DP.md (linked from the analysis REPORT.md) and the plots for the experiment name ("dp-e1" … "dp-e10"),
// reading dir/runs.csv (or runs.csv.gz) and dir/manifest.json.
func Write(dir, name string, tally *studies.Tally) error {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return fmt.Errorf("dp: %w", err)
	}
	rs := &runs{t: t}
	gen, ok := generators[name]
	if !ok {
		var names []string
		for n := range generators {
			names = append(names, n)
		}
		slices.Sort(names)
		return fmt.Errorf("dp: no report for %q (have %s)", name, strings.Join(names, ", "))
	}
	r := &report{dir: dir, tally: tally}
	r.printf("# %s: DP study reproduction report\n\n", name)
	if m, err := resultsdir.ReadManifest(dir); err == nil {
		wall := m.Finished.Sub(m.Started)
		r.printf("Runs: %d (%d workers, %d CPUs, %s/%s, %s). Wall time of the whole spec: %s; sum of the per-run\n",
			m.Runs, m.Workers, m.CPUs, m.OS, m.Arch, m.GoVersion, wall.Round(time.Millisecond))
		r.printf("method times: %s. The machine was shared with other jobs, so wall times are upper bounds.\n\n",
			time.Duration(m.Cumulative*float64(time.Second)).Round(time.Millisecond))
	}
	r.printf("Spec: docs/dp.md; metrics: docs/metrics.md §5. Aggregates are over the R replicates\n")
	r.printf("of each configuration: est_mean = mean of post_mean, var_est = its sample variance (R−1), SE(est_mean) =\n")
	r.printf("sd/√R, SE(var_est) = √((m4 − s⁴(R−3)/(R−1))/R); coverage in %%. Regenerate with `sdcbench report %s`.\n\n", dir)
	if err := gen(r, rs); err != nil {
		return fmt.Errorf("dp: %s: %w", name, err)
	}
	if len(r.verdicts)+len(r.constVerdicts) > 0 {
		r.printf("\n## Verdict summary\n\n")
		keys := []string{"exact", "within tolerance", "pattern", "not reproduced", "expected miss confirmed", "expected miss refuted"}
		if len(r.verdicts) > 0 {
			r.printf("Reproductions (our runs against the seed's numbers or claims, source study in verdicts.csv, or against the\n" +
				"spec's expected values and predictions, source reference):\n\n")
			for _, k := range keys {
				if n := r.verdicts[k]; n > 0 {
					r.printf("- %s: %d (%d study, %d reference)\n", k, n, n-r.refVerdicts[k], r.refVerdicts[k])
				}
			}
		}
		if len(r.constVerdicts) > 0 {
			if len(r.verdicts) > 0 {
				r.printf("\n")
			}
			r.printf("Published-constant checks (the seed's printed numbers against the spec's expected values or\n" +
				"their own inputs; no run involved, so they reproduce nothing):\n\n")
			for _, k := range keys {
				if n := r.constVerdicts[k]; n > 0 {
					r.printf("- %s: %d\n", k, n)
				}
			}
		}
	}
	tally.Wrote("DP.md")
	return datasets.AtomicWrite(filepath.Join(dir, "DP.md"), func(w io.Writer) error { _, err := io.WriteString(w, r.b.String()); return err })
}

// generators maps an experiment name to its report generator.
var generators = map[string]func(*report, *runs) error{}

// report accumulates the Markdown text and the verdicts.
type report struct {
	dir           string
	b             strings.Builder
	verdicts      map[string]int
	refVerdicts   map[string]int // the part of verdicts that checks the spec's values (source reference)
	constVerdicts map[string]int // checks of published constants only (constVerdict)
	tally         *studies.Tally // the verdicts of our runs by section, for the status page; may be nil
	section       string         // the last heading printed
}

// printf appends to the report; a format that starts a heading ("## …", "### …") becomes the
// section under which the following verdicts are recorded.
func (r *report) printf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if h := strings.TrimLeft(s, "\n"); strings.HasPrefix(h, "## ") || strings.HasPrefix(h, "### ") {
		r.section = strings.TrimSpace(strings.TrimLeft(h, "#"))
	}
	r.b.WriteString(s)
}

// verdict records and returns the verdict of a comparison with our runs, also in the tally of
// the status page (published-constant checks go through constVerdict and are not counted there).
// ref says what it checks: a value or prediction of the spec (the exact model's expected value,
// its reference runs: source "reference") rather than a number or claim printed in the
// dissertation (source "study"). item names the cell or claim within the section; it must not be
// empty.
func (r *report) verdict(ref bool, item, v string) string {
	if item == "" {
		panic("dp: a verdict without an item")
	}
	if r.verdicts == nil {
		r.verdicts, r.refVerdicts = map[string]int{}, map[string]int{}
	}
	r.verdicts[v]++
	if ref {
		r.refVerdicts[v]++
	}
	if r.tally != nil {
		if ref {
			r.tally.AddRef(r.section, item, v)
		} else {
			r.tally.Add(r.section, item, v)
		}
	}
	return v
}

// table writes a Markdown table.
func (r *report) table(head []string, rows [][]string) {
	r.printf("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range rows {
		r.printf("| %s |\n", strings.Join(row, " | "))
	}
	r.printf("\n")
}

// constVerdict records and returns the verdict of a check that compares published constants
// only (the seed's printed numbers with the spec's expected values): it is counted apart
// from the verdicts of our runs.
func (r *report) constVerdict(v string) string {
	if r.constVerdicts == nil {
		r.constVerdicts = map[string]int{}
	}
	r.constVerdicts[v]++
	return v
}

// band returns the verdict of our value against a number printed in the dissertation, within a
// tolerance (source "study").
func (r *report) band(item string, got, want, tol float64) string {
	return r.verdict(false, item, bandVerdict(got, want, tol))
}

// bandRef returns the verdict of our value against the spec's expected value, within a tolerance
// (source "reference": the exact model or the spec's reference runs, not a published number).
func (r *report) bandRef(item string, got, want, tol float64) string {
	return r.verdict(true, item, bandVerdict(got, want, tol))
}

func bandVerdict(got, want, tol float64) string {
	if !math.IsNaN(got) && math.Abs(got-want) <= tol {
		return "within tolerance"
	}
	return "not reproduced"
}

// seedBand is band for a seed cell, with the spec's prediction of a miss. Both numbers are
// published constants, so the verdict is counted as a published-constant check.
func (r *report) seedBand(seed, want, tol float64, expectMiss bool) string {
	ok := math.Abs(seed-want) <= tol
	switch {
	case expectMiss && !ok:
		return r.constVerdict("expected miss confirmed")
	case expectMiss && ok:
		return r.constVerdict("expected miss refuted")
	case ok:
		return r.constVerdict("within tolerance")
	}
	return r.constVerdict("not reproduced")
}

// check records a pattern verdict on a claim printed in the dissertation (source "study").
func (r *report) check(item string, ok bool) string {
	return r.verdict(false, item, checkVerdict(ok))
}

// checkRef records a pattern verdict on a prediction of the spec (source "reference").
func (r *report) checkRef(item string, ok bool) string {
	return r.verdict(true, item, checkVerdict(ok))
}

func checkVerdict(ok bool) string {
	if ok {
		return "pattern"
	}
	return "not reproduced"
}

// runs is a runs.csv table with helpers.
type runs struct{ t *resultsdir.Table }

// sel returns the ok rows whose columns equal the given values (pairs: column, value; a
// parameter column may be named without its "param_" prefix). An empty cell matches any value:
// the row's method does not have that parameter.
func (rs *runs) sel(kv ...string) [][]string {
	idx := make([]int, len(kv)/2)
	for i := range idx {
		c := rs.t.Col(kv[2*i])
		if c < 0 {
			c = rs.t.Col("param_" + kv[2*i])
		}
		idx[i] = c
	}
	st := rs.t.Col("status")
	var out [][]string
rows:
	for _, row := range rs.t.Rows {
		if st >= 0 && row[st] != "ok" {
			continue
		}
		for i, c := range idx {
			if c < 0 || (row[c] != kv[2*i+1] && row[c] != "") {
				continue rows
			}
		}
		out = append(out, row)
	}
	return out
}

// col returns the finite values of a column over rows.
func (rs *runs) col(rows [][]string, name string) []float64 {
	c := rs.t.Col(name)
	if c < 0 {
		return nil
	}
	var out []float64
	for _, row := range rows {
		v, err := strconv.ParseFloat(row[c], 64)
		if err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// agg holds the aggregates of one configuration and parameter.
type agg struct {
	R                          int
	Est, SEEst, Var, SEVar     float64
	PostVar, CovHPD, CovET     float64
	HPDWidth, ESS, ESSMed, Acc float64
	Secs, SecsTotal            float64
}

// aggregate computes agg for parameter cat (0 = binary columns; i ≥ 1 = cat_*_c<i>).
func (rs *runs) aggregate(rows [][]string, cat int) agg {
	name := func(m string) string {
		if cat == 0 {
			return m
		}
		return fmt.Sprintf("cat_%s_c%d", m, cat)
	}
	e := rs.col(rows, name("post_mean"))
	a := agg{R: len(e)}
	a.Est, a.Var, a.SEEst, a.SEVar = moments(e)
	a.PostVar = mean(rs.col(rows, name("post_var")))
	a.CovHPD = mean(rs.col(rows, name("coverage_hpd")))
	a.CovET = mean(rs.col(rows, name("coverage_et")))
	a.HPDWidth = mean(rs.col(rows, name("hpd_width")))
	ess := rs.col(rows, "ess")
	a.ESS = mean(ess)
	if len(ess) > 0 {
		s := slices.Clone(ess)
		slices.Sort(s)
		a.ESSMed = s[len(s)/2]
		if len(s)%2 == 0 {
			a.ESSMed = (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
	} else {
		a.ESSMed = math.NaN()
	}
	a.Acc = mean(rs.col(rows, "acc_rate"))
	secs := rs.col(rows, "seconds")
	a.Secs = mean(secs)
	for _, v := range secs {
		a.SecsTotal += v
	}
	return a
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// moments returns the mean, the sample variance (R−1) and their standard errors (§9: SE of
// the mean sd/√R; of the variance √((m4 − s⁴(R−3)/(R−1))/R)).
func moments(v []float64) (m, s2, seM, seS2 float64) {
	R := float64(len(v))
	if len(v) < 4 {
		return mean(v), math.NaN(), math.NaN(), math.NaN()
	}
	m = mean(v)
	var m4 float64
	for _, x := range v {
		d := x - m
		s2 += d * d
		m4 += d * d * d * d
	}
	s2 /= R - 1
	m4 /= R
	return m, s2, math.Sqrt(s2 / R), math.Sqrt(math.Max(0, m4-s2*s2*(R-3)/(R-1)) / R)
}

// f formats a value with d decimals ("—" for NaN).
func f(v float64, d int) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// pm formats "v (±t)".
func pm(v, t float64, d int) string { return f(v, d) + " (" + f(t, d) + ")" }

// itoa is strconv.Itoa.
func itoa(i int) string { return strconv.Itoa(i) }

// ftoa is the runs.csv form of a parameter value.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
