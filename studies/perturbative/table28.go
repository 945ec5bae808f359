package perturbative

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
	"github.com/sdcbench/sdcbench/studies"
)

// StudyRow is one row of the study's Tables 28 and 34 (eigen as printed, a fraction; risk in %).
type StudyRow struct {
	Label  string
	Flag   bool // reverse-mapped (Table 28) or restricted (Table 34)
	Method string
	Vals   [10]float64 // IL1, IL1s, Eig, EQM, EQM Σ, EQM ρ, EAM, EAM Σ, EAM ρ, Risk
}

// studyCols are the metric IDs of StudyRow.Vals; eigen is converted from the printed fraction.
var studyCols = []string{"il1rel_sum_sdc", "il1s_sum_sdc", "eigen", "mse", "mse_cov", "mse_cor", "mae", "mae_cov", "mae_cor", "interval_disclosure"}

var studyHead = []string{"IL1", "IL1s", "Eig. %", "EQM", "EQM Σ", "EQM ρ", "EAM", "EAM Σ", "EAM ρ", "Risk %"}

// Table28 is the study's Table 28 verbatim, with the method chain each row corresponds to
// (table28.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var Table28 = sync.OnceValue(func() []StudyRow { return mustStudyRows("table28.expected.csv") })

// mustStudyRows reads one of the study's published tables from the study's folder: the
// columns label, a yes/no flag, method and the ten values of StudyRow.Vals. The files are
// embedded, so an error is a programming error and panics.
func mustStudyRows(name string) []StudyRow {
	rows, err := readStudyRows(files, name)
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	return rows
}

// readStudyRows reads a published table of StudyRows (see mustStudyRows) from fsys.
func readStudyRows(fsys fs.FS, name string) ([]StudyRow, error) {
	recs, err := studies.ReadTable(fsys, name, 13)
	if err != nil {
		return nil, err
	}
	var out []StudyRow
	for i, rec := range recs {
		r := StudyRow{Label: rec[0], Method: rec[2]}
		switch rec[1] {
		case "yes":
			r.Flag = true
		case "no":
		default:
			return nil, fmt.Errorf("row %d: flag %q, want yes or no", i+1, rec[1])
		}
		vals, err := studies.ParseFloats(rec[3:])
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		copy(r.Vals[:], vals)
		out = append(out, r)
	}
	return out, nil
}

// studyValue returns the value of a metric (one of studyCols; eigen as printed, a fraction) in
// the row of a study table for a method chain. The tables are embedded, so a missing row or
// metric is a programming error and panics.
func studyValue(rows []StudyRow, method, metric string) float64 {
	k := slices.Index(studyCols, metric)
	for _, r := range rows {
		if r.Method == method && k >= 0 {
			return r.Vals[k]
		}
	}
	panic(fmt.Sprintf("perturbative: no study value of %s for %s", metric, method))
}

// sdcCheck are the sdcMicro 5.8.1 values (R's generator, one draw of pt2020_like) by method:
// interval_disclosure, il1s_sum_sdc, eigen (sdcmicro.reference.csv). They are reference values:
// Morais (2022) does not print them.
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var sdcCheck = sync.OnceValue(mustSdcCheck)

// mustSdcCheck reads sdcmicro.reference.csv. The file is embedded, so an error is a programming
// error and panics.
func mustSdcCheck() map[string][3]float64 {
	const name = "sdcmicro.reference.csv"
	recs, err := studies.ReadTable(files, name, 4)
	out := map[string][3]float64{}
	for i := 0; err == nil && i < len(recs); i++ {
		var v []float64
		if v, err = studies.ParseFloats(recs[i][1:]); err == nil {
			out[recs[i][0]] = [3]float64(v)
		}
	}
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	return out
}

// byMethod returns the first cell of a method on any pt2020_like label.
func byMethod(cells []*Cell, method string) *Cell {
	for _, c := range cells {
		if c.Method == method && strings.HasPrefix(c.Dataset, "pt2020_like") {
			return c
		}
	}
	return nil
}

// writeStudyTable prints the study's rows beside ours. Per cell: ours (mean), the study's
// value and the order-of-magnitude agreement |log10(ours/study)| ≤ 1 — informative only, since
// the data differ.
func writeStudyTable(w io.Writer, rows []StudyRow, cells []*Cell, flagName string) {
	fmt.Fprintf(w, "| method | %s | | %s |\n|---|---|---|%s\n", flagName, strings.Join(studyHead, " | "), strings.Repeat("---|", len(studyHead)))
	for _, r := range rows {
		c := byMethod(cells, r.Method)
		yes := map[bool]string{true: "yes", false: "no"}[r.Flag]
		fmt.Fprintf(w, "| %s | %s | study |", r.Label, yes)
		for k, v := range r.Vals {
			if studyCols[k] == "eigen" {
				v *= 100
			}
			fmt.Fprintf(w, " %s |", g(v))
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "| `%s` | %s | ours |", r.Method, yes)
		for k, v := range r.Vals {
			if c == nil {
				fmt.Fprint(w, " not run |")
				continue
			}
			m := c.Mean(studyCols[k])
			if studyCols[k] == "eigen" {
				v *= 100
			}
			mark := ""
			if v > 0 && m > 0 {
				if math.Abs(math.Log10(m/v)) <= 1 {
					mark = " ≈"
				} else {
					mark = " ≠"
				}
			}
			fmt.Fprintf(w, " %s%s |", g(m), mark)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\n≈: same order of magnitude as the study (|log10 ratio| ≤ 1); ≠: not. Informative only — "+
		"the study's data are confidential and differ from the substitute; the gated checks are below.")
	fmt.Fprintln(w)
}

// Pattern is one gated check with its computed evidence. Ref marks a check of a reference
// (a formula, our own definition or method) rather than of a claim printed in the study.
type Pattern struct {
	Name     string
	Evidence string
	OK       bool
	Skipped  string // non-empty when the check could not run
	Ref      bool
}

func writePatterns(w io.Writer, r *rec, table string, ps []Pattern) {
	ok, run := 0, 0
	for _, p := range ps {
		if p.Skipped == "" {
			run++
			if p.OK {
				ok++
			}
		}
	}
	fmt.Fprintf(w, "**%d of %d pattern checks reproduced** (%d not run).\n\n", ok, run, len(ps)-run)
	fmt.Fprintln(w, "| # | check | source | evidence (replicate means) | verdict |\n|---|---|---|---|---|")
	for i, p := range ps {
		if p.Skipped == "" {
			r.check(table, p.Name, p.OK, "pattern", p.Ref)
		}
		v := verdict(p.OK)
		if p.Skipped != "" {
			v, p.Evidence = "— not run", p.Skipped
		}
		src := "study"
		if p.Ref {
			src = "reference"
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s |\n", i+1, p.Name, src, p.Evidence, v)
	}
	fmt.Fprintln(w)
}

func writeTable28(w io.Writer, r *rec, cells []*Cell, load func(string) (*datasets.Dataset, error)) error {
	fmt.Fprintln(w, "## Table 28: the study's chosen settings, with and without reverse mapping")
	fmt.Fprintln(w)
	writeStudyTable(w, Table28(), cells, "M.I.")
	fmt.Fprintln(w, "### sdcMicro 5.8.1 check values (one pt2020_like draw with R's generator) beside ours")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| method | risk % sdcMicro | ours | IL1s sdcMicro | ours | eigen % sdcMicro | ours |\n|---|---|---|---|---|---|---|")
	for _, r := range Table28() {
		v, ok := sdcCheck()[r.Method]
		c := byMethod(cells, r.Method)
		if !ok || c == nil {
			continue
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s |\n", r.Method, g(v[0]), g(c.Mean("interval_disclosure")),
			g(v[1]), g(c.Mean("il1s_sum_sdc")), g(v[2]), g(c.Mean("eigen")))
	}
	fmt.Fprintln(w)
	ps, err := table28Patterns(cells, load)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "### Gated pattern checks")
	fmt.Fprintln(w)
	writePatterns(w, r, "Table 28", ps)
	writeDesc(w, cells, load)
	return nil
}

// plain lists the cells of the plain (no chain) methods present, except the textbook egadp
// (not in the study).
func plain(cells []*Cell) []*Cell {
	var out []*Cell
	for _, c := range cells {
		if !strings.Contains(c.Method, "(") && c.Method != "egadp" {
			out = append(out, c)
		}
	}
	return out
}

func table28Patterns(cells []*Cell, load func(string) (*datasets.Dataset, error)) ([]Pattern, error) {
	var ps []Pattern
	na := byMethod(cells, "noise_additive")
	c2 := byMethod(cells, "noise_correlated2")
	if na == nil || c2 == nil {
		return nil, fmt.Errorf("perturbative: table28 runs lack noise_additive or noise_correlated2")
	}
	d, err := load(na.Dataset)
	if err != nil {
		return nil, err
	}
	// 1. additive: lowest il1s, mse, mae of the unrestricted methods, i.e. of every row of
	// Table 28 (the study's unrestricted releases, with and without M.I.; the restricted ones
	// are Table 34's), as in the study.
	ps = append(ps, lowestPattern(cells, na))
	// 1b. additive: risk within 4 SE of the formula (a reference, not printed in the study).
	ea := Expect(d, Noise{Kind: "additive", Level: na.Param("noise_pct") / 100})
	ra := expectCheck(na, "interval_disclosure", ea["interval_disclosure"])
	ps = append(ps, Pattern{Name: "`noise_additive` 5 %: risk within 4 SE of the formula", Ref: true,
		Evidence: fmt.Sprintf("risk %s ± %s vs formula %s (z = %.2f)", g(ra.Mean), g(ra.SE), g(ra.Want), ra.Z()), OK: ra.OK})
	// 2. correlated2: risk < 2 % (the study's 0.73 %).
	ps = append(ps, Pattern{Name: fmt.Sprintf("`noise_correlated2` δ = 0.1: risk < 2 %% (study %.2f %%)", studyValue(Table28(), "noise_correlated2", "interval_disclosure")),
		Evidence: fmt.Sprintf("risk %s", g(c2.Mean("interval_disclosure"))), OK: c2.Mean("interval_disclosure") < 2})
	// 2b. correlated2: eigen within tolerance of 100δ²Σ|λ−1|/λ (a reference formula).
	e2 := Expect(d, Noise{Kind: "correlated2", Level: c2.Param("delta")})
	eg := expectCheck(c2, "eigen", e2["eigen"])
	ps = append(ps, Pattern{Name: "`noise_correlated2` δ = 0.1: eigen within max(4 SE, 15 %) of 100δ²Σ|λ−1|/λ", Ref: true,
		Evidence: fmt.Sprintf("eigen %s ± %s vs %s", g(eg.Mean), g(eg.SE), g(eg.Want)), OK: eg.OK})
	// 3. both noise methods negative on every column.
	ps = append(ps, Pattern{Name: "both noise methods release negative values on every zero-inflated column",
		Evidence: fmt.Sprintf("columns with a negative value: additive %s, correlated2 %s of %d", g(na.Mean("neg_cols")), g(c2.Mean("neg_cols")), d.P),
		OK:       na.Mean("neg_cols") == float64(d.P) && c2.Mean("neg_cols") == float64(d.P)})
	// 4. revmap, shuffle_ds, rankswap keep every sorted column.
	var ev4 []string
	ok4, n4 := true, 0
	for _, c := range cells {
		if strings.HasPrefix(c.Method, "revmap(") || c.Method == "shuffle_ds" || c.Method == "rankswap" {
			n4++
			ev4 = append(ev4, fmt.Sprintf("%s %s", c.Method, g(c.Mean("marg_kept"))))
			ok4 = ok4 && c.Mean("marg_kept") == float64(d.P) && len(c.Vals["marg_kept"]) > 0
		}
	}
	ps = append(ps, Pattern{Name: "`revmap(...)`, `shuffle_ds` and `rankswap` reproduce every original sorted column exactly",
		Evidence: fmt.Sprintf("columns kept (of %d): %s", d.P, strings.Join(ev4, "; ")), OK: ok4 && n4 > 0})
	// 5. egadp_sdcmicro: means exact, variances smaller, risk < 1 % (the study's EGADP rows).
	if es := byMethod(cells, "egadp_sdcmicro"); es == nil {
		ps = append(ps, Pattern{Name: "EGADP as sdcMicro computes it", Skipped: "egadp_sdcmicro not run"})
	} else {
		ps = append(ps, Pattern{Name: "`egadp_sdcmicro`: means exact (≤ 1e-9 SD), every variance smaller, risk < 1 %",
			Evidence: fmt.Sprintf("max mean dev %s SD, max var ratio %s, risk %s",
				g(es.Mean("mean_dev_max")), g(es.Mean("var_ratio_max")), g(es.Mean("interval_disclosure"))),
			OK: es.Mean("mean_dev_max") <= 1e-9 && es.Mean("var_ratio_max") < 1 && es.Mean("interval_disclosure") < 1})
	}
	// 5b. the textbook egadp (ours, not in the study): means and covariances exact.
	if eb := byMethod(cells, "egadp"); eb == nil {
		ps = append(ps, Pattern{Name: "textbook EGADP", Skipped: "egadp not run", Ref: true})
	} else {
		ps = append(ps, Pattern{Name: "`egadp` (textbook, not in the study): means and covariances exact (≤ 1e-8)", Ref: true,
			Evidence: fmt.Sprintf("max mean dev %s, max cov dev %s", g(eb.Mean("mean_dev_max")), g(eb.Mean("cov_dev_max"))),
			OK:       eb.Mean("mean_dev_max") <= 1e-8 && eb.Mean("cov_dev_max") <= 1e-8})
	}
	// 6. microaggregation with large k: means exact, maxima collapse.
	var ev6 []string
	ok6, n6 := true, 0
	for _, m := range []string{"ma_mdav", "ma_rmd_sdc", "ma_onedims_sdc"} {
		c := byMethod(cells, m)
		if c == nil {
			continue
		}
		n6++
		ev6 = append(ev6, fmt.Sprintf("%s: mean dev %s SD, max ratio %s", m, g(c.Mean("mean_dev_max")), g(c.Mean("max_ratio_max"))))
		ok6 = ok6 && c.Mean("mean_dev_max") <= 1e-9 && c.Mean("max_ratio_max") < 0.2
	}
	if n6 == 0 {
		ps = append(ps, Pattern{Name: "microaggregation k = 1000 / 4000: means exact, max(Y_j) < max(X_j)/5", Skipped: "the ma_* methods were not available when this experiment ran"})
	} else {
		ps = append(ps, Pattern{Name: "microaggregation k = 1000 / 4000: means exact, max(Y_j) < max(X_j)/5", Evidence: strings.Join(ev6, "; "), OK: ok6})
	}
	// 7. rankswap has the largest eigen among the plain methods.
	rs := byMethod(cells, "rankswap")
	if rs == nil {
		ps = append(ps, Pattern{Name: "rankswap largest eigen", Skipped: "rankswap not run"})
	} else {
		best := ""
		bestV := math.Inf(-1)
		for _, c := range plain(cells) {
			if v := c.Mean("eigen"); v > bestV {
				best, bestV = c.Method, v
			}
		}
		ps = append(ps, Pattern{Name: fmt.Sprintf("`rankswap` p_frac = 0.1 has the largest eigen of the unrestricted methods without M.I. (study %.0f %%)",
			100*studyValue(Table28(), "rankswap", "eigen")),
			Evidence: fmt.Sprintf("largest: %s %s %%; rankswap %s %%", best, g(bestV), g(rs.Mean("eigen"))), OK: best == "rankswap"})
	}
	return ps, nil
}

// lowestPattern checks the study's claim that independent noise (na) has the lowest il1s_sum_sdc,
// mse and mae of the unrestricted methods: against every other cell whose method is a row of
// Table 28 (with and without M.I.), with ties counting against it.
func lowestPattern(cells []*Cell, na *Cell) Pattern {
	var worse []string
	for _, m := range []string{"il1s_sum_sdc", "mse", "mae"} {
		for _, c := range cells {
			if c == na || !slices.ContainsFunc(Table28(), func(r StudyRow) bool { return r.Method == c.Method }) {
				continue
			}
			if c.Mean(m) <= na.Mean(m) {
				worse = append(worse, fmt.Sprintf("%s %s %s ≤ %s", c.Method, m, g(c.Mean(m)), g(na.Mean(m))))
			}
		}
	}
	ev := fmt.Sprintf("noise_additive: il1s_sum_sdc %s, mse %s, mae %s; lowest of the %d Table 28 rows on all three",
		g(na.Mean("il1s_sum_sdc")), g(na.Mean("mse")), g(na.Mean("mae")), len(Table28()))
	if len(worse) > 0 {
		ev = fmt.Sprintf("noise_additive: il1s_sum_sdc %s, mse %s, mae %s; not lowest: %s",
			g(na.Mean("il1s_sum_sdc")), g(na.Mean("mse")), g(na.Mean("mae")), strings.Join(worse, ", "))
	}
	return Pattern{Name: fmt.Sprintf("`noise_additive` 5 %%: lowest il1s_sum_sdc, mse, mae of the unrestricted methods, every Table 28 row with and without M.I. (study %s, %s, %s)",
		g(studyValue(Table28(), "noise_additive", "il1s_sum_sdc")), g(studyValue(Table28(), "noise_additive", "mse")), g(studyValue(Table28(), "noise_additive", "mae"))),
		Evidence: ev, OK: len(worse) == 0}
}

// studyOrigCol1 is the study's Table 29 (investaprov): min, Q1, median, mean, Q3, max,
// variance of the original (table29.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var studyOrigCol1 = sync.OnceValue(mustTable29)

// mustTable29 reads table29.expected.csv. The file is embedded, so an error is a programming
// error and panics.
func mustTable29() [7]float64 {
	const name = "table29.expected.csv"
	header, recs, err := studies.ReadCSV(files, name)
	if err == nil && (len(header) != 2 || len(recs) != 7) {
		err = fmt.Errorf("%d columns and %d rows, want 2 and 7", len(header), len(recs))
	}
	var out [7]float64
	for i, stat := range []string{"min", "q1", "median", "mean", "q3", "max", "variance"} {
		if err != nil {
			break
		}
		if recs[i][0] != stat {
			err = fmt.Errorf("row %d: statistic %q, want %q", i+1, recs[i][0], stat)
			break
		}
		var v []float64
		if v, err = studies.ParseFloats(recs[i][1:]); err == nil {
			out[i] = v[0]
		}
	}
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	return out
}

func writeDesc(w io.Writer, cells []*Cell, load func(string) (*datasets.Dataset, error)) {
	fmt.Fprintln(w, "### Descriptive statistics of investaprov (the study's Table 29 layout; replicate means)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| release | min | Q1 | median | mean | Q3 | max | variance |\n|---|---|---|---|---|---|---|---|")
	fmt.Fprintf(w, "| study original (PT2020) |")
	for _, v := range studyOrigCol1() {
		fmt.Fprintf(w, " %s |", g(v))
	}
	fmt.Fprintln(w)
	if d, err := load("pt2020_like"); err == nil {
		r := metrics.DescCol1(&metrics.Input{Orig: d, Masked: d})
		fmt.Fprintf(w, "| pt2020_like original | %s | %s | %s | %s | %s | %s | %s |\n", g(r.Aux["min"]), g(r.Aux["q1"]),
			g(r.Aux["median"]), g(r.Value), g(r.Aux["q3"]), g(r.Aux["max"]), g(r.Aux["var"]))
	}
	for _, c := range cells {
		if len(c.Vals["desc_col1"]) == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s | %s | %s | %s |\n", c.Dataset, c.Key(), g(c.Mean("desc_col1_min")), g(c.Mean("desc_col1_q1")),
			g(c.Mean("desc_col1_median")), g(c.Mean("desc_col1")), g(c.Mean("desc_col1_q3")), g(c.Mean("desc_col1_max")), g(c.Mean("desc_col1_var")))
	}
	fmt.Fprintln(w)
}
