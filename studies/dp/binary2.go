package dp

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// e3 data: the dissertation's coverage at M = 1 (Figs 3.2–3.3) and the spec's expected value with
// its 3SE band.
var (
	e3Seed     = sync.OnceValue(func() float64 { return published().get("Figs 3.2-3.3", "coverage_hpd %", 1)[0] })
	e3ExpCov   = sync.OnceValue(func() float64 { return reference().get("Figs 3.2-3.3", "coverage_hpd %", 1)[0] })
	e3BandCov  = sync.OnceValue(func() float64 { return reference().band("Figs 3.2-3.3", "coverage_hpd %", 1)[0] })
	e3ExpCovET = sync.OnceValue(func() float64 { return reference().get("Figs 3.2-3.3", "coverage_et %", 1)[0] })
	e3ExpWidth = sync.OnceValue(func() float64 { return reference().get("Figs 3.2-3.3", "hpd_width", 1)[0] })
)

// e3: coverage at M = 1 (Figs 3.2–3.3).
func e3(r *report, rs *runs) error {
	r.printf("## E3 `dp-coverage`: coverage of the 95%% intervals (Figs 3.2–3.3)\n\n")
	r.printf("Seed: 95%% HPD coverage of %s%% at M = 1; the spread of the estimates grows with M. Expected (exact model): coverage_hpd\n", f(e3Seed(), 0))
	r.printf("%s%%, coverage_et %s%%, hpd_width %s, the same for target 0.3 and 0.3039. Criterion: within 3SE = %s points of %s.\n\n",
		f(e3ExpCov(), 2), f(e3ExpCovET(), 2), f(e3ExpWidth(), 4), f(e3BandCov(), 1), f(e3ExpCov(), 2))
	var rows [][]string
	var groups [][]float64
	var names []string
	for _, M := range mList {
		for _, tg := range []string{"true", "orig_posterior"} {
			sel := rs.sel("method", "charest_exact", "M", itoa(M), "target", tg)
			a := rs.aggregate(sel, 0)
			row := []string{itoa(M), tg, f(a.CovHPD, 1), f(a.CovET, 1), f(a.HPDWidth, 4), f(a.Est, 4), f(math.Sqrt(a.Var), 4)}
			if M == 1 {
				row = append(row, r.bandRef("M=1 charest_exact target "+tg+", coverage_hpd vs expected (3SE)", a.CovHPD, e3ExpCov(), e3BandCov()))
			} else {
				row = append(row, "")
			}
			rows = append(rows, row)
			if tg == "true" {
				groups = append(groups, rs.col(sel, "post_mean"))
				names = append(names, "M="+itoa(M))
			}
		}
	}
	a := rs.aggregate(rs.sel("method", "charest_mhl", "M", "1"), 0)
	rows = append(rows, []string{"1 (charest_mhl)", "true", f(a.CovHPD, 1), f(a.CovET, 1), f(a.HPDWidth, 4), f(a.Est, 4), f(math.Sqrt(a.Var), 4), r.bandRef("M=1 charest_mhl target true, coverage_hpd vs expected (3SE)", a.CovHPD, e3ExpCov(), e3BandCov())})
	r.table([]string{"M", "target", "coverage_hpd %", "coverage_et %", "hpd_width", "est_mean", "sd of E_r", "verdict (M = 1)"}, rows)
	r.printf("- seed %s%% vs expected %s%%: gap %s ≤ %s: **%s**\n", f(e3Seed(), 0), f(e3ExpCov(), 2), f(math.Abs(e3Seed()-e3ExpCov()), 2), f(e3BandCov(), 1),
		r.seedBand(e3Seed(), e3ExpCov(), e3BandCov(), false))
	sd := make([]float64, len(groups))
	grow := true
	for i, g := range groups {
		_, v, _, _ := moments(g)
		sd[i] = math.Sqrt(v)
		if i > 0 {
			grow = grow && sd[i] > sd[i-1]
		}
	}
	r.printf("- the spread of E_r grows with M (sd %s, %s, %s, %s): **%s**\n\n", f(sd[0], 4), f(sd[1], 4), f(sd[2], 4), f(sd[3], 4), r.check("the spread of E_r grows with M", grow))
	p, err := boxPlot("Posterior means E_r by M (E3, Fig. 3.2)", "E_r (target 0.3)", names, groups)
	if err != nil {
		return err
	}
	if err := r.save(p, "est_box_by_M", "boxplots of E_r by M"); err != nil {
		return err
	}
	var cov []float64
	for _, M := range mList {
		cov = append(cov, rs.aggregate(rs.sel("method", "charest_exact", "M", itoa(M), "target", "true"), 0).CovHPD)
	}
	p, err = curvePlot("HPD coverage vs M (E3)", "M", "coverage_hpd (%)", false, []series{
		{Name: "charest_exact", X: []float64{1, 2, 5, 10}, Y: cov},
		{Name: "seed (M = 1)", X: []float64{1}, Y: []float64{e3Seed()}, Points: true}})
	if err != nil {
		return err
	}
	return r.save(p, "coverage_vs_M", "coverage vs M")
}

// e4 data: the dissertation's Table 3.5 and the spec's expectations (with their 3SE bands), its
// α of the mv2008 rule at each ε and its predicted misses.
var (
	e4Eps    = []float64{0.1, 0.5, 1, 2, 3, 250}
	e4SeedE  = sync.OnceValue(func() []float64 { return published().get("Table 3.5", "est_mean", len(e4Eps)) })
	e4ExpE   = sync.OnceValue(func() []float64 { return reference().get("Table 3.5", "est_mean", len(e4Eps)) })
	e4BandE  = sync.OnceValue(func() []float64 { return reference().band("Table 3.5", "est_mean", len(e4Eps)) })
	e4SeedV  = sync.OnceValue(func() []float64 { return published().get("Table 3.5", "var_est", len(e4Eps)) })
	e4ExpV   = sync.OnceValue(func() []float64 { return reference().get("Table 3.5", "var_est", len(e4Eps)) })
	e4BandV  = sync.OnceValue(func() []float64 { return reference().band("Table 3.5", "var_est", len(e4Eps)) })
	e4ExpPV  = sync.OnceValue(func() []float64 { return reference().get("Table 3.5", "post_var_mean", len(e4Eps)) })
	e4ExpCov = sync.OnceValue(func() []float64 { return reference().get("Table 3.5", "coverage_hpd %", len(e4Eps)) })
	e4ExpPr  = sync.OnceValue(func() float64 { return reference().get("Table 3.5", "est_mean printed", 1)[0] }) // the printed α rule at ε = 0.1
	e4Alpha  = []string{"950.83", "154.15", "58.198", "15.652", "5.2396", "≈0"}
	e4MissV  = map[float64]bool{0.1: true, 0.5: true}
)

func e4(r *report, rs *runs) error {
	r.printf("## E4 `dp-eps`: sensitivity to ε (Table 3.5, Figs 3.4–3.5)\n\n")
	r.printf("Base scenario, M = 1, R = 1000. Criterion: |seed − expected| ≤ 3SE; the spec expects all six means and the Var cells for\n")
	r.printf("ε ≥ 1 to reproduce, and Var at ε = 0.1 and 0.5 to miss (MCMC error of the seed's MH-L chain on a posterior spanning [0, 1]).\n\n")
	var rows [][]string
	var estE, estP, estM, vE, vP, vM []float64
	for i, e := range e4Eps {
		ex := rs.aggregate(rs.sel("method", "charest_exact", "eps", ftoa(e), "alpha_rule", "mv2008"), 0)
		pr := rs.aggregate(rs.sel("method", "charest_exact", "eps", ftoa(e), "alpha_rule", "printed"), 0)
		mh := rs.aggregate(rs.sel("method", "charest_mhl", "eps", ftoa(e)), 0)
		estE, estP, estM = append(estE, ex.Est), append(estP, pr.Est), append(estM, mh.Est)
		vE, vP, vM = append(vE, ex.Var), append(vP, pr.Var), append(vM, mh.Var)
		rows = append(rows, []string{ftoa(e), e4Alpha[i],
			f(e4SeedE()[i], 4) + " — " + r.seedBand(e4SeedE()[i], e4ExpE()[i], e4BandE()[i], false),
			pm(e4ExpE()[i], e4BandE()[i], 4),
			f(ex.Est, 4) + " — " + r.bandRef("ε="+ftoa(e)+" charest_exact, est_mean vs expected (3SE)", ex.Est, e4ExpE()[i], e4BandE()[i]),
			f(e4SeedV()[i], 4) + " — " + r.seedBand(e4SeedV()[i], e4ExpV()[i], e4BandV()[i], e4MissV[e]),
			pm(e4ExpV()[i], e4BandV()[i], 5),
			f(ex.Var, 5) + " — " + r.bandRef("ε="+ftoa(e)+" charest_exact, var_est vs expected (3SE)", ex.Var, e4ExpV()[i], e4BandV()[i]),
			f(e4ExpPV()[i], 5) + " / " + f(ex.PostVar, 5),
			f(e4ExpCov()[i], 1) + " / " + f(ex.CovHPD, 1),
			f(mh.Est, 4) + " / " + f(mh.Var, 5),
			f(pr.Est, 4) + " / " + f(pr.Var, 5),
		})
	}
	r.table([]string{"ε", "α", "seed E", "expected E (3SE)", "ours E (exact)", "seed Var", "expected var_est (3SE)", "ours var_est (exact)",
		"post_var_mean exp / ours", "coverage_hpd exp / ours", "MH-L E / Var", "printed rule E / Var"}, rows)
	decE, incV := true, true
	for i := 1; i < 4; i++ {
		decE = decE && estE[i] < estE[i-1]
	}
	r.printf("- bias grows as ε falls (ε ≤ 2): E = %s → %s: **%s**; ε < 0.5 is badly biased (E(0.1) − 0.3 = %s): **%s**\n",
		f(estE[3], 4), f(estE[0], 4), r.check("bias grows as ε falls (ε ≤ 2)", decE), f(estE[0]-0.3, 4), r.check("ε < 0.5 badly biased (E(0.1) − 0.3 > 0.1)", estE[0]-0.3 > 0.1))
	for i := 2; i < 5; i++ {
		incV = incV && vE[i] > vE[i+1]
	}
	r.printf("- var_est grows as ε falls from 250 to 0.5 (%s → %s): **%s**. At ε = 0.1 the exact var_est is small again (%s) because every\n",
		f(vE[5], 5), f(vE[1], 5), r.check("var_est grows as ε falls from 250 to 0.5", incV && vE[1] > vE[2]), f(vE[0], 5))
	r.printf("  posterior is shrunk to ≈0.49; the seed's %s there is MCMC error (our MH-L gives %s).\n", f(e4SeedV()[0], 4), f(vM[0], 5))
	r.printf("- ε = 250 is close to ε = 3 (|Δ E| = %s) but does not reach the original-data posterior mean 0.3039 (E = %s): **%s**\n",
		f(math.Abs(estE[5]-estE[4]), 4), f(estE[5], 4), r.check("ε = 250 close to ε = 3 but short of 0.3039", math.Abs(estE[5]-estE[4]) < 0.005 && estE[5] > 0.3039+0.003))
	r.printf("- printed rule at ε = 0.1: E = %s (spec %s; the seed's %s is mv2008's).\n\n", f(estP[0], 4), f(e4ExpPr(), 3), f(e4SeedE()[0], 4))
	ss := []series{{Name: "exact (mv2008)", X: e4Eps, Y: estE}, {Name: "MH-L (mv2008)", X: e4Eps, Y: estM}, {Name: "exact (printed)", X: e4Eps, Y: estP},
		{Name: "seed", X: e4Eps, Y: e4SeedE(), Points: true}, {Name: "expected", X: e4Eps, Y: e4ExpE(), Points: true}}
	p, err := curvePlot("est_mean vs ε (E4, Table 3.5)", "ε (log scale)", "est_mean (target 0.3)", true, ss)
	if err != nil {
		return err
	}
	if err := r.save(p, "est_vs_eps", "est_mean vs ε"); err != nil {
		return err
	}
	ss = []series{{Name: "exact (mv2008)", X: e4Eps, Y: vE}, {Name: "MH-L (mv2008)", X: e4Eps, Y: vM}, {Name: "exact (printed)", X: e4Eps, Y: vP},
		{Name: "seed", X: e4Eps, Y: e4SeedV(), Points: true}, {Name: "expected", X: e4Eps, Y: e4ExpV(), Points: true}}
	p, err = curvePlot("var_est vs ε (E4, Table 3.5)", "ε (log scale)", "var_est", true, ss)
	if err != nil {
		return err
	}
	return r.save(p, "var_vs_eps", "var_est vs ε")
}

// e5Cell is one row of Table 3.6: the dissertation's est_mean at p = 0.01, 0.5 and 0.99 and the
// spec's expected value at p = 0.01 with its 3SE band.
type e5Cell struct {
	n, nt, M               int
	s01, e01, b01, s5, s99 float64
}

// e5Cells are the rows of Table 3.6.
var e5Cells = sync.OnceValue(func() []e5Cell {
	var cells []e5Cell
	for _, c := range []e5Cell{{n: 100, nt: 100, M: 1}, {n: 100, nt: 100, M: 5}, {n: 1000, nt: 1000, M: 1}, {n: 1000, nt: 1000, M: 5},
		{n: 1000, nt: 100, M: 1}, {n: 1000, nt: 100, M: 5}} {
		item := fmt.Sprintf("est_mean (n,nt)=(%d,%d) M=%d", c.n, c.nt, c.M)
		s := published().get("Table 3.6", item, 3)
		c.s01, c.s5, c.s99 = s[0], s[1], s[2]
		c.e01, c.b01 = reference().get("Table 3.6", item, 1)[0], reference().band("Table 3.6", item, 1)[0]
		cells = append(cells, c)
	}
	return cells
})

// e5: Table 3.6.
func e5(r *report, rs *runs) error {
	r.printf("## E5 `dp-edge`: n, nt and boundary p (Table 3.6)\n\n")
	r.printf("ε = 2 (not stated by the seed), exact posterior, R = 1000, x = round(n·p) fixed. Criteria: p = 0.5 cells within 3SE of 0.5;\n")
	r.printf("boundary cells |seed − expected| ≤ 0.025 (the spec's relaxed band: the seed's MCMC error), our run within 3SE of the expected value.\n\n")
	cells := e5Cells()
	var rows [][]string
	var low []float64 // our est_mean at p = 0.01, in the order of cells
	for _, c := range cells {
		ds := func(p float64) string { return "dp_bin_n" + itoa(c.n) + "_x" + itoa(int(math.Round(p*float64(c.n)))) }
		nt := "0"
		if c.nt != c.n {
			nt = itoa(c.nt)
		}
		a01 := rs.aggregate(rs.sel("dataset", ds(0.01), "M", itoa(c.M), "nt", nt), 0)
		a5 := rs.aggregate(rs.sel("dataset", ds(0.5), "M", itoa(c.M), "nt", nt), 0)
		a99 := rs.aggregate(rs.sel("dataset", ds(0.99), "M", itoa(c.M), "nt", nt), 0)
		low = append(low, a01.Est)
		cell := fmt.Sprintf("(n,nt)=(%d,%d) M=%d", c.n, c.nt, c.M)
		rows = append(rows, []string{"(" + itoa(c.n) + "," + itoa(c.nt) + ")", itoa(c.M),
			f(c.s01, 3) + " — " + r.seedBand(c.s01, c.e01, 0.025, false), pm(c.e01, c.b01, 4), f(a01.Est, 4) + " — " + r.bandRef(cell+" p=0.01, est_mean vs expected (3SE)", a01.Est, c.e01, c.b01),
			f(c.s5, 3) + " — " + r.seedBand(c.s5, 0.5, 3*a5.SEEst, false), f(a5.Est, 4) + " — " + r.bandRef(cell+" p=0.5, est_mean vs 0.5 (3SE)", a5.Est, 0.5, 3*a5.SEEst),
			f(c.s99, 3) + " — " + r.seedBand(c.s99, 1-c.e01, 0.025, false), f(1-c.e01, 4), f(a99.Est, 4) + " — " + r.bandRef(cell+" p=0.99, est_mean vs expected (3SE)", a99.Est, 1-c.e01, c.b01)})
	}
	r.table([]string{"(n, nt)", "M", "seed p=0.01", "expected (3SE)", "ours", "seed p=0.5", "ours p=0.5 (3SE of ours)", "seed p=0.99", "expected", "ours"}, rows)
	r.printf("Qualitative (the seed's claims, judged on our p = 0.01 column):\n\n")
	r.printf("- estimates are pulled towards 0.5 (every est_mean > 0.01): **%s**\n", r.check("estimates pulled towards 0.5 at p = 0.01", slices.Min(low) > 0.01))
	r.printf("- larger n is better ((1000,1000) closer to 0.01 than (100,100) at both M): **%s**\n", r.check("larger n is better at p = 0.01", low[2] < low[0] && low[3] < low[1]))
	r.printf("- M = 5 is worse than M = 1 for every (n, nt): **%s**\n\n", r.check("M = 5 worse than M = 1 at p = 0.01", low[1] > low[0] && low[3] > low[2] && low[5] > low[4]))
	return nil
}
