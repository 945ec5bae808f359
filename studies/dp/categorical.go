package dp

import (
	"fmt"
	"math"
	"strings"
)

func init() {
	generators["dp-e6"] = e6
	generators["dp-e7"] = e7
	generators["dp-e8"] = e8
	generators["dp-e9"] = e9
	generators["dp-e10"] = e10
}

// catAggs aggregates each of the C categories of the selected rows.
func (rs *runs) catAggs(C int, kv ...string) []agg {
	rows := rs.sel(kv...)
	out := make([]agg, C)
	for i := range out {
		out[i] = rs.aggregate(rows, i+1)
	}
	return out
}

func join(v []float64, d int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = f(x, d)
	}
	return strings.Join(s, ", ")
}

func ests(a []agg) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i].Est
	}
	return out
}

func vars(a []agg) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i].Var
	}
	return out
}

func covs(a []agg) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i].CovHPD
	}
	return out
}

// meanAbsBias is the mean over categories of |est_mean − p|.
func meanAbsBias(a []agg, p []float64) float64 {
	s := 0.0
	for i := range a {
		s += math.Abs(a[i].Est - p[i])
	}
	return s / float64(len(a))
}

func meanOf(v []float64) float64 { return mean(v) }

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

var pC4 = []float64{0.7, 0.1, 0.15, 0.05}

// e6 data: the dissertation's Table 3.7 by n, and the spec's reference values of the exact model
// (about 400 replicates) by n and α rule (keys "100mv2008" … "1000printed").
func e6Data() (seedE, seedV map[int][]float64, refE, refV map[string][]float64) {
	seedE, seedV, refE, refV = map[int][]float64{}, map[int][]float64{}, map[string][]float64{}, map[string][]float64{}
	for _, n := range []int{100, 500, 1000} {
		seedE[n] = published().get("Table 3.7", "est_mean n="+itoa(n), len(pC4))
		seedV[n] = published().get("Table 3.7", "var_est n="+itoa(n), len(pC4))
		for _, rule := range []string{"mv2008", "printed"} {
			refE[itoa(n)+rule] = reference().get("Table 3.7", "est_mean n="+itoa(n)+" "+rule, len(pC4))
			refV[itoa(n)+rule] = reference().get("Table 3.7", "var_est n="+itoa(n)+" "+rule, len(pC4))
		}
	}
	return seedE, seedV, refE, refV
}

// e6: Table 3.7.
func e6(r *report, rs *runs) error {
	r.printf("## E6 `dp-cat-n`: categorical, effect of n (Table 3.7, Fig. 3.6)\n\n")
	r.printf("C = 4, p = (0.7, 0.1, 0.15, 0.05), n = nt, ε = 2, M = 1, γ = 0.5. `dm_exact` R = 1000 (exact marginals by convolution),\n")
	r.printf("`dm_alg6` (the seed's Algorithm 6 with the α and acceptance fixes, adapt during burn-in) R = 200. Criteria (approximate and\n")
	r.printf("qualitative, §9 E6): with `dm_alg6` and mv2008 every E within 0.04 of the seed; the spread falls with n; the means change little\n")
	r.printf("with n (within 0.03). The spec predicts that no (rule, scope) pair reproduces the seed's numbers exactly with a correct posterior.\n\n")
	seedE, seedV, refE, refV := e6Data()
	var rows [][]string
	exactE := map[int][]float64{}
	exactV := map[int][]float64{}
	for _, n := range []int{100, 500, 1000} {
		ds := fmt.Sprintf("dp_cat4_n%d", n)
		rows = append(rows, []string{itoa(n), "seed", join(seedE[n], 4), join(seedV[n], 4), "", ""})
		for _, rule := range []string{"mv2008", "printed"} {
			ex := rs.catAggs(4, "dataset", ds, "method", "dm_exact", "alpha_rule", rule)
			al := rs.catAggs(4, "dataset", ds, "method", "dm_alg6", "alpha_rule", rule)
			if rule == "mv2008" {
				exactE[n], exactV[n] = ests(ex), vars(ex)
			}
			rows = append(rows,
				[]string{itoa(n), "reference exact " + rule + " (spec, ≈400 reps)", join(refE[itoa(n)+rule], 3), join(refV[itoa(n)+rule], 4), "", ""},
				[]string{itoa(n), "ours dm_exact " + rule, join(ests(ex), 4), join(vars(ex), 4), f(meanOf(covs(ex)), 1),
					f(maxAbsDiff(ests(ex), refE[itoa(n)+rule]), 4) + " vs ref — " + r.bandRef("n="+itoa(n)+" dm_exact "+rule+", max |E − spec reference| ≤ 0.01", maxAbsDiff(ests(ex), refE[itoa(n)+rule]), 0, 0.01)})
			v := "—"
			if rule == "mv2008" {
				d := maxAbsDiff(ests(al), seedE[n])
				v = f(d, 4) + " vs seed — " + r.band("n="+itoa(n)+" dm_alg6 mv2008, max |E − published| ≤ 0.04", d, 0, 0.04)
			}
			rows = append(rows, []string{itoa(n), "ours dm_alg6 " + rule + fmt.Sprintf(" (acc %s)", f(al[0].Acc, 3)), join(ests(al), 4), join(vars(al), 4), f(meanOf(covs(al)), 1), v})
		}
		if n == 100 {
			co := rs.catAggs(4, "dataset", ds, "method", "dm_collapsed")
			rows = append(rows, []string{"100", "ours dm_collapsed mv2008 (R = 200)", join(ests(co), 4), join(vars(co), 4), f(meanOf(covs(co)), 1),
				f(maxAbsDiff(ests(co), exactE[100]), 4) + " vs dm_exact"})
		}
	}
	r.table([]string{"n", "source", "E (p = 0.70, 0.10, 0.15, 0.05)", "var_est", "coverage_hpd (mean) %", "max abs diff, verdict"}, rows)
	fall := meanOf(exactV[100]) > meanOf(exactV[500]) && meanOf(exactV[500]) > meanOf(exactV[1000])
	little := maxAbsDiff(exactE[100], exactE[500]) <= 0.03 && maxAbsDiff(exactE[500], exactE[1000]) <= 0.03
	r.printf("- the spread of the estimates falls with n (mean var_est %s, %s, %s): **%s**\n", f(meanOf(exactV[100]), 4), f(meanOf(exactV[500]), 4), f(meanOf(exactV[1000]), 4), r.check("the spread of the estimates falls with n", fall))
	r.printf("- the mean estimates change little with n (max change %s, %s ≤ 0.03): **%s**\n", f(maxAbsDiff(exactE[100], exactE[500]), 4), f(maxAbsDiff(exactE[500], exactE[1000]), 4), r.check("the mean estimates change little with n (≤ 0.03)", little))
	r.printf("- the seed's own Var does not fall from n = 500 to 1000 (%s → %s) while the exact model's does: the seed's Table 3.7 Var row\n", f(meanOf(seedV[500]), 4), f(meanOf(seedV[1000]), 4))
	r.printf("  carries its sampler's error, as the spec predicts (**%s**).\n\n", r.checkRef("the published var_est does not fall from n = 500 to 1000 while the exact model's does", meanOf(seedV[1000]) > meanOf(seedV[500]) && meanOf(exactV[1000]) < meanOf(exactV[500])))
	return nil
}

// e7: Figs 3.7–3.9.
func e7(r *report, rs *runs) error {
	r.printf("## E7 `dp-cat-C`: number of categories (Figs 3.7–3.9)\n\n")
	r.printf("n = 500, ε = 2, M = 1, γ = 0.5. Seed claims: bias and variance grow with C; HPD coverage below 95%% everywhere (≈80%% for p > 0.10,\n")
	r.printf("≈60%% for smaller categories). Criterion: qualitative for `dm_alg6` (R = 100); the reference coverage (exact) should be near 95%%.\n\n")
	ps := map[int][]float64{4: pC4, 8: {0.30, 0.24, 0.16, 0.10, 0.08, 0.06, 0.04, 0.02},
		16: {0.20, 0.17, 0.12, 0.10, 0.06, 0.06, 0.04, 0.04, 0.04, 0.036, 0.03, 0.03, 0.024, 0.02, 0.02, 0.01}}
	var bEx, bAl, vEx, vAl, cEx, cAl, rvEx, rvAl []float64
	for _, C := range []int{4, 8, 16} {
		ds := fmt.Sprintf("dp_cat%d_n500", C)
		ex := rs.catAggs(C, "dataset", ds, "method", "dm_exact", "alpha_rule", "mv2008")
		pr := rs.catAggs(C, "dataset", ds, "method", "dm_exact", "alpha_rule", "printed")
		al := rs.catAggs(C, "dataset", ds, "method", "dm_alg6")
		r.printf("### C = %d (dm_alg6 acceptance %s)\n\n", C, f(al[0].Acc, 3))
		var rows [][]string
		for i := 0; i < C; i++ {
			rows = append(rows, []string{f(ps[C][i], 3), f(ex[i].Est, 4), f(ex[i].Var, 5), f(ex[i].CovHPD, 1), f(pr[i].Est, 4), f(pr[i].CovHPD, 1),
				f(al[i].Est, 4), f(al[i].Var, 5), f(al[i].CovHPD, 1)})
		}
		r.table([]string{"p", "exact mv2008 E", "var_est", "cov_hpd %", "exact printed E", "cov_hpd %", "alg6 E", "var_est", "cov_hpd %"}, rows)
		bEx, bAl = append(bEx, meanAbsBias(ex, ps[C])), append(bAl, meanAbsBias(al, ps[C]))
		vEx, vAl = append(vEx, meanOf(vars(ex))), append(vAl, meanOf(vars(al)))
		cEx, cAl = append(cEx, meanOf(covs(ex))), append(cAl, meanOf(covs(al)))
		rvEx, rvAl = append(rvEx, relVar(ex, ps[C])), append(rvAl, relVar(al, ps[C]))
	}
	r.printf("### Summary over C\n\n")
	r.table([]string{"summary over categories", "C = 4", "C = 8", "C = 16"}, [][]string{
		{"exact mean abs bias", f(bEx[0], 4), f(bEx[1], 4), f(bEx[2], 4)}, {"alg6 mean abs bias", f(bAl[0], 4), f(bAl[1], 4), f(bAl[2], 4)},
		{"exact mean var_est", f(vEx[0], 5), f(vEx[1], 5), f(vEx[2], 5)}, {"alg6 mean var_est", f(vAl[0], 5), f(vAl[1], 5), f(vAl[2], 5)},
		{"exact mean coverage_hpd %", f(cEx[0], 1), f(cEx[1], 1), f(cEx[2], 1)}, {"alg6 mean coverage_hpd %", f(cAl[0], 1), f(cAl[1], 1), f(cAl[2], 1)}})
	r.printf("Checks (variance relative to p², mean over categories: exact %s, %s, %s; alg6 %s, %s, %s):\n\n",
		f(rvEx[0], 3), f(rvEx[1], 3), f(rvEx[2], 3), f(rvAl[0], 3), f(rvAl[1], 3), f(rvAl[2], 3))
	r.printf("- bias grows with C (mean |bias|, exact and alg6): **%s**\n", r.check("bias grows with C (exact and dm_alg6)", bEx[1] > bEx[0] && bEx[2] > bEx[1] && bAl[1] > bAl[0] && bAl[2] > bAl[1]))
	r.printf("- variance grows with C relative to p² (the absolute var_est falls because the categories get smaller): **%s**\n",
		r.check("variance relative to p² grows with C (exact and dm_alg6)", rvEx[1] > rvEx[0] && rvEx[2] > rvEx[1] && rvAl[1] > rvAl[0] && rvAl[2] > rvAl[1]))
	r.printf("- `dm_alg6` coverage below 95%% (seed: 60–80%%): mean %s, %s, %s: **%s**\n", f(cAl[0], 1), f(cAl[1], 1), f(cAl[2], 1), r.check("dm_alg6 coverage below 95 % at every C", cAl[0] < 95 && cAl[1] < 95 && cAl[2] < 95))
	r.printf("- reference (exact) coverage much closer to 95%%: %s, %s, %s: **%s**\n\n", f(cEx[0], 1), f(cEx[1], 1), f(cEx[2], 1),
		r.checkRef("exact coverage closer to 95 % than dm_alg6's", math.Abs(cEx[0]-95) < math.Abs(cAl[0]-95) && math.Abs(cEx[2]-95) < math.Abs(cAl[2]-95)))
	p, err := curvePlot("Mean HPD coverage vs C (E7)", "C", "mean coverage_hpd (%)", false, []series{
		{Name: "dm_exact", X: []float64{4, 8, 16}, Y: cEx}, {Name: "dm_alg6", X: []float64{4, 8, 16}, Y: cAl}})
	if err != nil {
		return err
	}
	return r.save(p, "coverage_vs_C", "coverage vs C")
}

// relVar is the mean over categories of var_est/p².
func relVar(a []agg, p []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i].Var / (p[i] * p[i])
	}
	return s / float64(len(a))
}
