package perturbative

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
)

// Table34 is the study's Table 34 verbatim (its risk column is labelled "RL" but is the
// interval measure).
var Table34 = []StudyRow{
	{"Indep. noise", false, "noise_additive", [10]float64{2.62e9, 6.12e3, 0.048, 1.29e10, 8.06e15, 2.28e-10, 7.34e4, 3.46e5, 1.00e-7, 14.60}},
	{"Indep. noise", true, "restrict(noise_additive)", [10]float64{4.52e9, 3.4e3, 0.033, 9.97e9, 5.46e16, 4.29e-10, 5.25e4, 1.46e6, 3.61e-7, 42.50}},
	{"Corr. noise", false, "noise_correlated2", [10]float64{1.03e10, 1.22e4, 0.209, 5.15e10, 4.20e16, 3.82e-9, 1.47e5, 6.12e6, 6.00e-7, 0.73}},
	{"Corr. noise", true, "restrict(noise_correlated2)", [10]float64{9.06e9, 6.70e3, 0.105, 3.88e10, 7.95e17, 3.22e-9, 1.03e5, 5.79e6, 5.00e-7, 16.76}},
	{"EGADP", false, "egadp_sdcmicro", [10]float64{9.15e9, 5.34e4, 3.550, 4.66e12, 1.60e21, 9.78e-6, 4.68e5, 2.28e8, 2.63e-5, 0.00}},
	{"EGADP", true, "restrict(egadp_sdcmicro)", [10]float64{6.91e9, 4.05e4, 1.235, 4.12e12, 1.58e21, 1.24e-6, 3.42e5, 2.12e8, 8.87e-6, 2.36}},
	{"M.I. after EGADP", false, "revmap(egadp_sdcmicro)", [10]float64{1.40e10, 5.20e4, 10.644, 1.03e13, 1.61e20, 1.17e-5, 6.01e5, 8.72e7, 3.04e-5, 11.90}},
	{"M.I. after EGADP", true, "restrict(revmap(egadp_sdcmicro))", [10]float64{1.55e9, 2.57e4, 8.055, 8.74e12, 2.36e20, 1.27e-5, 4.14e5, 1.12e8, 3.28e-5, 23.15}},
	{"Data shuffling", false, "shuffle_ds", [10]float64{9.33e8, 4.54e4, 10.804, 9.90e12, 1.28e20, 1.52e-5, 5.42e5, 8.25e7, 3.50e-5, 19.22}},
	{"Data shuffling", true, "restrict(shuffle_ds)", [10]float64{8.95e9, 2.6e4, 10.804, 9.02e12, 3.70e20, 2.10e-5, 4.24e5, 1.32e8, 7.28e-5, 19.93}},
}

// studyGini is the study's Table 44: Gini (%) original / independent restricted / correlated
// restricted per variable.
var studyGini = [5][3]float64{
	{82.2049, 79.6055, 76.7565}, {89.1551, 86.9204, 84.5504}, {89.7022, 89.0430, 88.0190},
	{79.1964, 71.6055, 65.0962}, {94.2918, 93.7971, 92.8930},
}

func studyGiniDiff(k int) float64 {
	var s float64
	for _, r := range studyGini {
		s += math.Abs(r[0] - r[k])
	}
	return s / float64(len(studyGini))
}

func writeRestricted(w io.Writer, r *rec, cells []*Cell, load func(string) (*datasets.Dataset, error)) error {
	fmt.Fprintln(w, "## Table 34: restricted releases (zeros kept, negatives folded)")
	fmt.Fprintln(w)
	writeStudyTable(w, Table34, cells, "restricted")
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
	ps = append(ps, Pattern{Name: "every restricted release has min ≥ 0 and y = 0 exactly where x = 0",
		Evidence: fmt.Sprintf("columns satisfying it (of %d): %s", d.P, strings.Join(ev, "; ")), OK: ok})
	// 2. restriction at least doubles the noise risks; restricted risks match the formula.
	fa := expectCheck(nr, "interval_disclosure", Expect(d, Noise{Kind: "additive", Level: nr.Param("noise_pct") / 100, Restrict: true})["interval_disclosure"])
	fc := expectCheck(cr, "interval_disclosure", Expect(d, Noise{Kind: "correlated2", Level: cr.Param("delta"), Restrict: true})["interval_disclosure"])
	ratioA := nr.Mean("interval_disclosure") / na.Mean("interval_disclosure")
	ratioC := cr.Mean("interval_disclosure") / ca.Mean("interval_disclosure")
	ps = append(ps, Pattern{Name: "restriction raises the risk of both noise methods ≥ 2× (study 14.60 → 42.50 %, 0.73 → 16.76 %) and matches the restricted formula within 4 SE",
		Evidence: fmt.Sprintf("additive %s → %s %% (×%.2f; formula %s, z = %.2f); correlated2 %s → %s %% (×%.2f; formula %s, z = %.2f)",
			g(na.Mean("interval_disclosure")), g(fa.Mean), ratioA, g(fa.Want), fa.Z(),
			g(ca.Mean("interval_disclosure")), g(fc.Mean), ratioC, g(fc.Want), fc.Z()),
		OK: ratioA >= 2 && ratioC >= 2 && fa.OK && fc.OK})
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
		ps = append(ps, Pattern{Name: "`restrict(egadp_sdcmicro)` keeps the lowest risk of the restricted rows (study 2.36 % vs 16.76-42.50 %)",
			Evidence: "risk %: " + strings.Join(ev4, "; "), OK: low})
	}
	fmt.Fprintln(w, "### Gated pattern checks")
	fmt.Fprintln(w)
	writePatterns(w, r, "Table 34", ps)
	writeDesc(w, cells, load)
	return nil
}
