package perturbative

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/studies"
)

// Table34 is the study's Table 34 verbatim (its risk column is labelled "RL" but is the
// interval measure; table34.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var Table34 = sync.OnceValue(func() []StudyRow { return mustStudyRows("table34.expected.csv") })

// studyGini is the study's Table 44: Gini (%) original / independent restricted / correlated
// restricted per variable (table44.expected.csv).
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var studyGini = sync.OnceValue(mustGini)

// mustGini reads table44.expected.csv. The file is embedded, so an error is a programming
// error and panics.
func mustGini() [5][3]float64 {
	const name = "table44.expected.csv"
	var out [5][3]float64
	header, rows, err := studies.ReadCSV(files, name)
	if err == nil && (len(header) != 3 || len(rows) != len(out)) {
		err = fmt.Errorf("%d columns and %d rows, want 3 and %d", len(header), len(rows), len(out))
	}
	for i := 0; err == nil && i < len(rows); i++ {
		var v []float64
		if v, err = studies.ParseFloats(rows[i]); err == nil {
			out[i] = [3]float64(v)
		}
	}
	if err != nil {
		panic(fmt.Sprintf("perturbative: %s: %v", name, err))
	}
	return out
}

func studyGiniDiff(k int) float64 {
	var s float64
	for _, r := range studyGini() {
		s += math.Abs(r[0] - r[k])
	}
	return s / float64(len(studyGini()))
}

func writeRestricted(w io.Writer, r *rec, cells []*Cell, load func(string) (*datasets.Dataset, error)) error {
	fmt.Fprintln(w, "## Table 34: restricted releases (zeros kept, negatives folded)")
	fmt.Fprintln(w)
	writeStudyTable(w, Table34(), cells, "restricted")
	fmt.Fprintf(w, "Study Gini difference (mean over the five variables of |Gini(X) − Gini(Y)|, Table 44): restricted independent %.4f pp, restricted correlated %.4f pp.\n\n",
		studyGiniDiff(1), studyGiniDiff(2))
	na, nr := byMethod(cells, "noise_additive"), byMethod(cells, "restrict(noise_additive)")
	ca, cr := byMethod(cells, "noise_correlated2"), byMethod(cells, "restrict(noise_correlated2)")
	if na == nil || nr == nil || ca == nil || cr == nil {
		return fmt.Errorf("perturbative: restricted runs lack a noise row")
	}
	d, err := load(na.Dataset)
	if err != nil {
		return err
	}
	var ps []Pattern
	// 1. every restricted release non-negative with zeros exact.
	var ev []string
	ok := true
	for _, c := range cells {
		if strings.HasPrefix(c.Method, "restrict(") {
			ev = append(ev, fmt.Sprintf("%s %s", c.Method, g(c.Mean("zeros_kept"))))
			ok = ok && c.Mean("zeros_kept") == float64(d.P)
		}
	}
	// (The definition of restrict, so a check of our code: a reference.)
	ps = append(ps, Pattern{Name: "every restricted release has min ≥ 0 and y = 0 exactly where x = 0", Ref: true,
		Evidence: fmt.Sprintf("columns satisfying it (of %d): %s", d.P, strings.Join(ev, "; ")), OK: ok})
	// 2. restriction at least doubles the noise risks; restricted risks match the formula.
	fa := expectCheck(nr, "interval_disclosure", Expect(d, Noise{Kind: "additive", Level: nr.Param("noise_pct") / 100, Restrict: true})["interval_disclosure"])
	fc := expectCheck(cr, "interval_disclosure", Expect(d, Noise{Kind: "correlated2", Level: cr.Param("delta"), Restrict: true})["interval_disclosure"])
	ratioA := nr.Mean("interval_disclosure") / na.Mean("interval_disclosure")
	ratioC := cr.Mean("interval_disclosure") / ca.Mean("interval_disclosure")
	risk := func(method string) float64 { return studyValue(Table34(), method, "interval_disclosure") }
	ps = append(ps, Pattern{Name: fmt.Sprintf("restriction raises the risk of both noise methods ≥ 2× (study %.2f → %.2f %%, %.2f → %.2f %%)",
		risk("noise_additive"), risk("restrict(noise_additive)"), risk("noise_correlated2"), risk("restrict(noise_correlated2)")),
		Evidence: fmt.Sprintf("additive %s → %s %% (×%.2f); correlated2 %s → %s %% (×%.2f)",
			g(na.Mean("interval_disclosure")), g(nr.Mean("interval_disclosure")), ratioA,
			g(ca.Mean("interval_disclosure")), g(cr.Mean("interval_disclosure")), ratioC),
		OK: ratioA >= 2 && ratioC >= 2})
	// 2b. the restricted risks against the restricted formula (a reference).
	ps = append(ps, Pattern{Name: "the restricted risks of both noise methods match the restricted formula within 4 SE", Ref: true,
		Evidence: fmt.Sprintf("additive %s ± %s vs formula %s (z = %.2f); correlated2 %s ± %s vs formula %s (z = %.2f)",
			g(fa.Mean), g(fa.SE), g(fa.Want), fa.Z(), g(fc.Mean), g(fc.SE), g(fc.Want), fc.Z()),
		OK: fa.OK && fc.OK})
	// 3. restricted additive: lowest il1s of all rows; gini_diff below restricted correlated's.
	lowest := true
	for _, c := range cells {
		if c != nr && c.Mean("il1s_sum_sdc") <= nr.Mean("il1s_sum_sdc") {
			lowest = false
		}
	}
	ps = append(ps, Pattern{Name: "restricted independent noise has the lowest il1s_sum_sdc of all rows and a smaller gini_diff than restricted correlated noise (study: about half)",
		Evidence: fmt.Sprintf("il1s: restricted additive %s, restricted correlated2 %s; gini_diff %s vs %s pp (study %.3f vs %.3f)",
			g(nr.Mean("il1s_sum_sdc")), g(cr.Mean("il1s_sum_sdc")), g(nr.Mean("gini_diff")), g(cr.Mean("gini_diff")), studyGiniDiff(1), studyGiniDiff(2)),
		OK: lowest && nr.Mean("gini_diff") < cr.Mean("gini_diff")})
	// 4. restricted egadp_sdcmicro keeps the lowest risk of the restricted rows.
	re := byMethod(cells, "restrict(egadp_sdcmicro)")
	if re == nil {
		ps = append(ps, Pattern{Name: "restricted EGADP lowest risk", Skipped: "restrict(egadp_sdcmicro) not run"})
	} else {
		low := true
		var ev4 []string
		for _, c := range cells {
			if strings.HasPrefix(c.Method, "restrict(") {
				ev4 = append(ev4, fmt.Sprintf("%s %s", c.Method, g(c.Mean("interval_disclosure"))))
				if c != re && c.Mean("interval_disclosure") <= re.Mean("interval_disclosure") {
					low = false
				}
			}
		}
		ps = append(ps, Pattern{Name: fmt.Sprintf("`restrict(egadp_sdcmicro)` keeps the lowest risk of the restricted rows (study %.2f %% vs %.2f-%.2f %%)",
			risk("restrict(egadp_sdcmicro)"), risk("restrict(noise_correlated2)"), risk("restrict(noise_additive)")),
			Evidence: "risk %: " + strings.Join(ev4, "; "), OK: low})
	}
	fmt.Fprintln(w, "### Gated pattern checks")
	fmt.Fprintln(w)
	writePatterns(w, r, "Table 34", ps)
	writeDesc(w, cells, load)
	return nil
}
