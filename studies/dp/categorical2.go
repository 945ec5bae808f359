package dp

import (
	"fmt"
	"math"
	"sync"
)

// e8 data: the spec's reference E of the unbalanced table (Table 3.9): the exact model with
// each α rule and the fixed Algorithm 6.
var (
	e8RefMV      = sync.OnceValue(func() []float64 { return reference().get("Table 3.9", "est_mean unbalanced mv2008", 4) })
	e8RefPrinted = sync.OnceValue(func() []float64 { return reference().get("Table 3.9", "est_mean unbalanced printed", 4) })
	e8RefAlg6    = sync.OnceValue(func() []float64 { return reference().get("Table 3.9", "est_mean unbalanced dm_alg6 fixed", 4) })
)

// e8: Tables 3.8–3.9.
func e8(r *report, rs *runs) error {
	r.printf("## E8 `dp-cat-balance`: balanced against unbalanced tables (Tables 3.8–3.9, Figs 3.10–3.11)\n\n")
	r.printf("C = 4, n = 500, ε = 2, M = 1. Criterion: qualitative — small categories overestimated, the large one underestimated, the\n")
	r.printf("unbalanced case worse. The spec expects the seed's unbalanced E to be far from every correct-model value.\n\n")
	cases := []struct {
		ds, label       string
		p, seedE, seedV []float64
	}{
		{"dp_cat4bal_n500", "3.8 balanced", []float64{0.25, 0.25, 0.25, 0.25},
			published().get("Table 3.8", "est_mean balanced", 4), published().get("Table 3.8", "var_est balanced", 4)},
		{"dp_cat4unbal_n500", "3.9 unbalanced", []float64{0.96, 0.02, 0.018, 0.002},
			published().get("Table 3.9", "est_mean unbalanced", 4), published().get("Table 3.9", "var_est unbalanced", 4)},
	}
	var bias []float64
	var unbal []agg
	for _, c := range cases {
		r.printf("### Table %s, p = (%s)\n\n", c.label, join(c.p, 3))
		rows := [][]string{{"seed", join(c.seedE, 4), join(c.seedV, 4), "bal. > 85%; unbal. ≈80% large, < 50% small"}}
		for _, m := range []string{"dm_exact", "dm_alg6"} {
			for _, rule := range []string{"mv2008", "printed"} {
				a := rs.catAggs(4, "dataset", c.ds, "method", m, "alpha_rule", rule)
				rows = append(rows, []string{m + " " + rule, join(ests(a), 4), join(vars(a), 5), join(covs(a), 1)})
				if m == "dm_exact" && rule == "mv2008" {
					bias = append(bias, meanAbsBias(a, c.p))
					if c.label[:3] == "3.9" {
						unbal = a
					}
				}
			}
		}
		r.table([]string{"source", "E", "var_est", "coverage_hpd %"}, rows)
	}
	mv, pr, al := e8RefMV(), e8RefPrinted(), e8RefAlg6()
	r.printf("Reference (spec): balanced E ≈ 0.25, Var 0.0016–0.0017 (mv2008) or 0.0030–0.0040 (printed); unbalanced E = (%s, %s,\n", f(mv[0], 3), f(mv[1], 3))
	r.printf("%s, %s) with mv2008, (%s) printed; the fixed Alg. 6 gave (%s).\n\n", f(mv[2], 3), f(mv[3], 3), join(pr, 3), join(al, 3))
	shrink := unbal[0].Est < 0.96 && unbal[1].Est > 0.02 && unbal[2].Est > 0.018 && unbal[3].Est > 0.002
	r.printf("- unbalanced: large category underestimated, small ones overestimated (exact mv2008): **%s**\n", r.check("unbalanced: large category underestimated, small ones overestimated", shrink))
	r.printf("- unbalanced worse than balanced (mean |bias| %s vs %s): **%s**\n", f(bias[1], 4), f(bias[0], 4), r.check("unbalanced worse than balanced (mean |bias|)", bias[1] > bias[0]))
	d := maxAbsDiff(ests(unbal), cases[1].seedE)
	r.printf("- the seed's unbalanced E is far from the correct model (max |Δ| = %s > 0.04), as the spec predicts: **%s**\n\n", f(d, 4), r.checkRef("the published unbalanced E more than 0.04 from the exact model", d > 0.04))
	return nil
}

// e9: Figs 3.12–3.13.
func e9(r *report, rs *runs) error {
	r.printf("## E9 `dp-cat-eps`: categorical ε (Figs 3.12–3.13)\n\n")
	r.printf("n = 500, C = 4 and 8 (the E7 vectors), ε ∈ {0.5, 1, 2, 250}, M = 1, mv2008. Seed claims: bias and variance grow as ε falls;\n")
	r.printf("ε ≥ 2 is close to ε = 250; coverage < 30%% at ε = 0.5. Criterion: qualitative. `dm_exact` R = 1000, `dm_alg6` R = 100.\n\n")
	ps := map[int][]float64{4: pC4, 8: {0.30, 0.24, 0.16, 0.10, 0.08, 0.06, 0.04, 0.02}}
	epss := []float64{0.5, 1, 2, 250}
	var ss, sc []series
	for _, C := range []int{4, 8} {
		var rows [][]string
		ds := fmt.Sprintf("dp_cat%d_n500", C)
		for _, m := range []string{"dm_exact", "dm_alg6"} {
			var b, v, c []float64
			for _, e := range epss {
				a := rs.catAggs(C, "dataset", ds, "method", m, "eps", ftoa(e))
				b, v, c = append(b, meanAbsBias(a, ps[C])), append(v, meanOf(vars(a))), append(c, meanOf(covs(a)))
				rows = append(rows, []string{m, ftoa(e), join(ests(a), 3), f(b[len(b)-1], 4), f(v[len(v)-1], 5), f(c[len(c)-1], 1), f(a[0].Acc, 3)})
			}
			ss = append(ss, series{Name: fmt.Sprintf("%s C=%d", m, C), X: epss, Y: b})
			sc = append(sc, series{Name: fmt.Sprintf("%s C=%d", m, C), X: epss, Y: c})
			grow := b[0] > b[1] && b[1] > b[2] && v[0] > v[1] && v[1] > v[2]
			close := math.Abs(b[2]-b[3]) < 0.5*b[0]
			r.printf("- C = %d, %s: bias and variance grow as ε falls: **%s**; ε = 2 close to ε = 250 (mean |bias| %s vs %s): **%s**; coverage at ε = 0.5 is %s%% (seed: < 30%%): **%s**\n",
				C, m, r.check(fmt.Sprintf("C=%d %s: bias and variance grow as ε falls", C, m), grow), f(b[2], 4), f(b[3], 4),
				r.check(fmt.Sprintf("C=%d %s: ε = 2 close to ε = 250", C, m), close), f(c[0], 1), r.check(fmt.Sprintf("C=%d %s: coverage < 30 %% at ε = 0.5", C, m), c[0] < 30))
		}
		r.printf("\n")
		r.table([]string{"method", "ε", "E", "mean |bias|", "mean var_est", "mean coverage_hpd %", "acc"}, rows)
	}
	r.printf("Under a correct posterior the coverage at ε = 0.5 stays near nominal: the seed's < 30%% is a property of its sampler (the spec's\n")
	r.printf("\"pattern\" criterion is then refuted for the exact reference and judged on `dm_alg6`).\n\n")
	p, err := curvePlot("Mean |bias| vs ε (E9)", "ε (log scale)", "mean |E − p| over categories", true, ss)
	if err != nil {
		return err
	}
	if err := r.save(p, "bias_vs_eps", "mean abs bias vs ε"); err != nil {
		return err
	}
	p, err = curvePlot("Mean HPD coverage vs ε (E9)", "ε (log scale)", "mean coverage_hpd (%)", true, sc)
	if err != nil {
		return err
	}
	return r.save(p, "coverage_vs_eps", "coverage vs ε")
}

// SUSEP cells in dataset order: (M,26–35), (F,26–35), (M,36–45), (F,36–45), …: the counts x of
// the dataset susep_collisions, the dissertation's Tables 4.2–4.5 and the spec's reference values
// of the exact model (400 replicates) by α rule and scope.
var (
	susepX     = []int{21, 6, 24, 2, 19, 10, 21, 4}
	susepCells = []string{"M 26–35", "F 26–35", "M 36–45", "F 36–45", "M 46–55", "F 46–55", "M 55+", "F 55+"}
	susepT     = sync.OnceValue(func() []float64 { return published().get("Table 4.2", "target", len(susepX)) })
	susepE     = sync.OnceValue(func() []float64 { return published().get("Table 4.3", "est_mean", len(susepX)) })
	susepB     = sync.OnceValue(func() []float64 { return published().get("Table 4.4", "bias", len(susepX)) })
	susepRB    = sync.OnceValue(func() []float64 { return published().get("Table 4.5", "rel_bias", len(susepX)) })
	susepRefPT = sync.OnceValue(func() []float64 { return reference().get("Table 4.3", "est_mean printed total", len(susepX)) })
	susepRefMV = sync.OnceValue(func() []float64 { return reference().get("Table 4.3", "est_mean mv2008 per_category", len(susepX)) })
	susepRefPC = sync.OnceValue(func() []float64 { return reference().get("Table 4.3", "est_mean printed per_category", len(susepX)) })
)

// e10: Tables 4.2–4.5.
func e10(r *report, rs *runs) error {
	r.printf("## E10 `dp-susep`: SUSEP application (Tables 4.1–4.5, Fig. 4.2)\n\n")
	r.printf("AutoSeg collisions, n = nt = 107, C = 8, ε = 2, M = 1, γ = 0.5, 1000 independent releases, target = original-data posterior\n")
	r.printf("mean (x + 0.5)/111. The seed's α = 39.37 is the printed rule with total scope (α_i = 4.92). Criteria: Table 4.2 exact to 4\n")
	r.printf("decimals (allowing the seed's 0.1936); Tables 4.3–4.4 |ours − seed| ≤ 0.01 with printed + total, bias sign equal wherever\n")
	r.printf("|seed bias| > 0.005; Table 4.5 largest rel_bias in (F, 36–45); coverage qualitative.\n\n")
	pt := rs.catAggs(8, "method", "dm_exact", "alpha_rule", "printed", "alpha_scope", "total")
	mv := rs.catAggs(8, "method", "dm_exact", "alpha_rule", "mv2008", "alpha_scope", "per_category")
	pc := rs.catAggs(8, "method", "dm_exact", "alpha_rule", "printed", "alpha_scope", "per_category")
	co := rs.catAggs(8, "method", "dm_collapsed")
	al := rs.catAggs(8, "method", "dm_alg6")
	var rows [][]string
	maxRel, arg := -1.0, -1
	for i := range susepX {
		t := (float64(susepX[i]) + 0.5) / 111
		tv := "not reproduced"
		// Exact at the published precision: the seed rounds some cells and truncates others
		// (0.19369 → 0.1936, 0.058559 → 0.0585), so one unit of the 4th decimal is allowed.
		if math.Abs(t-susepT()[i]) < 1e-4 {
			tv = "exact"
		}
		tv = r.constVerdict(tv) // (x + 0.5)/111 from the published x against the published target: no run
		bias := pt[i].Est - t
		rel := bias / t
		if rel > maxRel {
			maxRel, arg = rel, i
		}
		sign := "—"
		if math.Abs(susepB()[i]) > 0.005 {
			sign = r.check(susepCells[i]+": bias sign as Table 4.4", math.Signbit(bias) == math.Signbit(susepB()[i]))
		}
		rows = append(rows, []string{susepCells[i], itoa(susepX[i]), f(susepT()[i], 4) + " / " + f(t, 5) + " " + tv,
			f(susepE()[i], 4) + " / " + f(pt[i].Est, 4) + " " + r.band(susepCells[i]+": est_mean (printed, total) vs Table 4.3 ± 0.01", pt[i].Est, susepE()[i], 0.01),
			f(susepB()[i], 4) + " / " + f(bias, 4) + " " + sign, f(susepRB()[i], 4) + " / " + f(rel, 4),
			f(susepRefPT()[i], 4), f(co[i].Est, 4), f(al[i].Est, 4), f(mv[i].Est, 4) + " (" + f(susepRefMV()[i], 4) + ")",
			f(pc[i].Est, 4) + " (" + f(susepRefPC()[i], 4) + ")", f(pt[i].CovHPD, 1)})
	}
	r.table([]string{"cell", "x", "4.2 target seed / ours", "4.3 E seed / ours (printed+total, exact)", "4.4 bias seed / ours", "4.5 rel. bias seed / ours",
		"spec ref. E", "dm_collapsed", "dm_alg6", "mv2008 per cat. (spec)", "printed per cat. (spec)", "coverage_hpd %"}, rows)
	r.printf("- Table 4.5: our largest rel_bias is in %s (seed: F 36–45): **%s**\n", susepCells[arg], r.check("largest rel_bias in F 36–45", arg == 3))
	r.printf("- Coverage (seed: 70–85%% for high-count cells, > 60%% for F 26–35 and F 36–45): ours %s%% (printed + total, exact);\n", join(covs(pt), 1))
	r.printf("  dm_alg6 %s%% (acceptance %s).\n", join(covs(al), 1), f(al[0].Acc, 3))
	r.printf("- Table 4.2: the seed truncates two cells (M 55+: 0.19369 → 0.1936, which the spec allows, and F 26–35: 0.058559 →\n")
	r.printf("  0.0585, which it does not list); both are counted exact at the published precision.\n")
	r.printf("- against the spec's reference values (exact model, 400 replicates): printed + total differs by at most %s (within their\n",
		f(maxAbsDiff(ests(pt), susepRefPT()), 4))
	imv, ipc := argMaxAbsDiff(ests(mv), susepRefMV()), argMaxAbsDiff(ests(pc), susepRefPC())
	r.printf("  Monte Carlo error); mv2008 per category by %s (largest in %s, x = %d) and printed per category by %s (largest in\n",
		f(maxAbsDiff(ests(mv), susepRefMV()), 4), susepCells[imv], susepX[imv], f(maxAbsDiff(ests(pc), susepRefPC()), 4))
	r.printf("  %s, x = %d). These two gaps are not explained and no second implementation has checked them; the seed's Table 4.3\n",
		susepCells[ipc], susepX[ipc])
	r.printf("  is compared only with printed + total.\n")
	r.printf("- mv2008 per category (α_i = 16.75, the privacy-correct setting) and printed per category (39.36) shrink much more towards 1/8\n")
	r.printf("  and miss the seed's Table 4.3 by up to %s and %s: only printed + total reproduces it, as the spec says.\n\n",
		f(maxAbsDiff(ests(mv), susepE()), 3), f(maxAbsDiff(ests(pc), susepE()), 3))
	rows = rs.sel("method", "dm_exact", "alpha_rule", "printed", "alpha_scope", "total")
	groups := make([][]float64, 8)
	for i := range groups {
		groups[i] = rs.col(rows, fmt.Sprintf("cat_post_mean_c%d", i+1))
	}
	p, err := boxPlot("SUSEP: posterior means E_r per cell (E10, Fig. 4.2; printed + total)", "E_r", susepCells, groups)
	if err != nil {
		return err
	}
	return r.save(p, "susep_est_box", "boxplots of E_r per SUSEP cell")
}

// argMaxAbsDiff returns the index of the largest |a[i] − b[i]|.
func argMaxAbsDiff(a, b []float64) int {
	arg, m := 0, -1.0
	for i := range a {
		if d := math.Abs(a[i] - b[i]); d > m {
			arg, m = i, d
		}
	}
	return arg
}
