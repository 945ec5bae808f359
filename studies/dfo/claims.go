package dfo

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/internal/binomial"
	"github.com/sdcbench/sdcbench/studies"
)

// Alpha is the significance level of the claims' tests.
const Alpha = 0.05

// PaperImproved is the paper's rate of improved cells, 25 of the 54 of Tables 1–3 ("cerca de 46 %").
const PaperImproved = 25.0 / 54

// ImprovedRule is the rule of the claim on PaperImproved, as the report prints it: a rate holds
// only if ours is consistent with it, more improvements being as much a miss as fewer.
const ImprovedRule = "exact two-sided binomial test of our count against 25/54 (the 54 cells as independent trials, as the paper counts them); held when p ≥ 0.05"

// BinomTest returns the two-sided exact binomial test p-value of x successes in n trials with
// success probability p0, as R's binom.test: the sum of the probabilities of the outcomes no
// more likely than x (relative tolerance 1e-7).
func BinomTest(x, n int, p0 float64) float64 {
	if n == 0 {
		return math.NaN()
	}
	b := distuv.Binomial{N: float64(n), P: p0}
	d := b.Prob(float64(x)) * (1 + 1e-7)
	var s float64
	for i := 0; i <= n; i++ {
		if v := b.Prob(float64(i)); v <= d {
			s += v
		}
	}
	return math.Min(1, s)
}

// judged records a claim's verdict in t (nil: not recorded) and returns Verdict(held).
func judged(t *studies.Tally, item string, held bool) string {
	if t != nil {
		t.Check("claims", item, held)
	}
	return Verdict(held)
}

// Verdict is a claim's computed outcome.
func Verdict(held bool) string {
	if held {
		return "**held**"
	}
	return "**not held**"
}

// trend runs a Friedman test over the treatments (columns of y, one row per block) and reports
// whether the mean ranks strictly decrease from the first column to the last.
func trend(y [][]float64) (stats.FriedmanResult, bool) {
	fr := stats.Friedman(y, Alpha)
	dec := len(fr.MeanRanks) > 1
	for j := 1; j < len(fr.MeanRanks); j++ {
		dec = dec && fr.MeanRanks[j] < fr.MeanRanks[j-1]
	}
	return fr, dec
}

// negligibleW is the Kendall's W below which the treatments' ranks agree too little across the
// blocks to speak of a systematic effect (0.1, the usual bound of a small effect).
const negligibleW = 0.1

// noEffect reports whether a Friedman result supports the claim that the treatments have no
// systematic effect: no significant effect (p ≥ Alpha) is not enough on its own, since a few
// blocks cannot detect anything; the concordance must be negligible too (W < negligibleW).
func noEffect(fr stats.FriedmanResult) bool {
	return !(fr.P < Alpha) && kendallW(fr) < negligibleW
}

// kendallW returns Kendall's coefficient of concordance of a Friedman result, χ²/(N(k−1)).
func kendallW(fr stats.FriedmanResult) float64 {
	return fr.Statistic / float64(fr.N*(fr.K-1))
}

func ranks(fr stats.FriedmanResult) string {
	s := make([]string, len(fr.MeanRanks))
	for i, v := range fr.MeanRanks {
		s[i] = fmt.Sprintf("%.2f", v)
	}
	return strings.Join(s, " / ")
}

// claims writes a computed verdict for every claim of the paper, on the paper's method.
func claims(w io.Writer, paper []Run, t *studies.Tally) {
	fmt.Fprintf(w, "## The paper's claims, with computed verdicts (the paper's method)\n\n")
	fmt.Fprintf(w, "| claim | paper | ours | test | verdict |\n|---|---|---|---|---|\n")

	// 1. share of improved cells: a claim about a rate holds when our rate is consistent with
	// it (ImprovedRule), whichever way it differs.
	x, n := countImproved(paper), len(paper)
	lo, hi := binomial.ClopperPearson(x, n, 1-Alpha)
	p := BinomTest(x, n, PaperImproved)
	var imps []float64
	maxImp, maxAt := 0.0, Run{}
	for _, r := range paper {
		if r.Improved() {
			imps = append(imps, r.Imp)
			if r.Imp > maxImp {
				maxImp, maxAt = r.Imp, r
			}
		}
	}
	slices.Sort(imps)
	rng := "—"
	if len(imps) > 0 {
		rng = fmt.Sprintf("%.2f %% to %.2f %%", imps[0], imps[len(imps)-1])
	}
	held := p >= Alpha
	v := judged(t, "the DFO improves its start in about 46 % of the cells", held)
	switch {
	case !held && float64(x) > PaperImproved*float64(n):
		v += " (ours significantly more often)"
	case !held:
		v += " (ours significantly less often)"
	}
	fmt.Fprintf(w, "| the DFO improves its start in about 46 %% of the cells | 25 of 54, by 1.30 %%–45.00 %% | %d of %d (%.0f %%, 95 %% Clopper–Pearson CI %.0f–%.0f %%), by %s | "+
		"%s: p = %.3g | %s |\n",
		x, n, 100*float64(x)/float64(max(n, 1)), 100*lo, 100*hi, rng, ImprovedRule, p, v)

	// 2. where the largest gain is
	at := "—"
	if maxImp > 0 {
		at = fmt.Sprintf("%.2f %% at %s k = %d, %s", maxImp, maxAt.Dataset, maxAt.K, maxAt.Config())
	}
	fmt.Fprintf(w, "| the largest gain is EIA k = 10 from MDAV | 45.00 %% | %s | location of the maximum | %s |\n",
		at, judged(t, "the largest gain is EIA k = 10 from MDAV", maxAt.Dataset == "eia" && maxAt.K == 10 && maxAt.Start == "mdav"))

	// 3. γ0 has no systematic effect: Friedman of IL over γ0, blocks (dataset, k, start)
	var y [][]float64
	for _, ds := range Datasets {
		for _, k := range Ks {
			for _, st := range []string{"mdav", "gsms"} {
				row := make([]float64, 3)
				for j, g := range []int{10, 20, 30} {
					row[j] = math.NaN()
					if rs := find(paper, func(r Run) bool { return r.Dataset == ds && r.K == k && r.Start == st && r.Gamma0 == g }); len(rs) > 0 {
						row[j] = rs[0].IL
					}
				}
				y = append(y, row)
			}
		}
	}
	fr := stats.Friedman(y, Alpha)
	fmt.Fprintf(w, "| γ0 has no systematic effect | stated | mean ranks of IL for γ0 = 10 / 20 / 30: %s (%d blocks) | "+
		"Friedman χ² = %.2f, df = %d, p = %.3g; Kendall's W = %.2f; held when p ≥ %.2f and W < %.1f | %s |\n",
		ranks(fr), fr.N, fr.Statistic, fr.DF, fr.P, kendallW(fr), Alpha, negligibleW, judged(t, "γ0 has no systematic effect", noEffect(fr)))

	// 4. time falls with k: Friedman of CPU seconds over k, blocks (dataset, start, γ0)
	y = y[:0]
	var yp [][]float64
	for j, ds := range Datasets {
		for _, st := range []string{"mdav", "gsms"} {
			for _, g := range []int{10, 20, 30} {
				row, prow := make([]float64, 3), make([]float64, 3)
				for c, k := range Ks {
					row[c] = math.NaN()
					if rs := find(paper, func(r Run) bool { return r.Dataset == ds && r.K == k && r.Start == st && r.Gamma0 == g }); len(rs) > 0 {
						row[c] = rs[0].CPU
					}
					for _, s := range Seed() {
						if s.K == k && s.Start == st && s.Gamma0 == g {
							prow[c] = s.Time[j]
						}
					}
				}
				y, yp = append(y, row), append(yp, prow)
			}
		}
	}
	fr, dec := trend(y)
	pfr, pdec := trend(yp)
	fmt.Fprintf(w, "| time falls with k | mean ranks of the paper's times for k = 3 / 5 / 10: %s; Friedman p = %.3g | "+
		"mean ranks of our CPU seconds for k = 3 / 5 / 10: %s (%d blocks); %s | Friedman χ² = %.2f, df = %d, p = %.3g; W = %.2f; held when p < %.2f and the ranks fall | %s (the paper's own times: %s) |\n",
		ranks(pfr), pfr.P, ranks(fr), fr.N, meanCPUByK(paper), fr.Statistic, fr.DF, fr.P, kendallW(fr), Alpha,
		judged(t, "time falls with k", fr.P < Alpha && dec), strings.Trim(Verdict(pfr.P < Alpha && pdec), "*"))

	// 5. new best-known values
	var better []string
	for _, c := range Cells(paper) {
		if c.Found && c.Best.IL < Target(c.Dataset, c.K)-0.005 {
			better = append(better, fmt.Sprintf("%s k = %d: %.2f < %.2f", c.Dataset, c.K, c.Best.IL, Target(c.Dataset, c.K)))
		}
	}
	fmt.Fprintf(w, "| three new best-known solutions (the bold marks are lost in the text) | candidates Tarragona k = 3 15.44, k = 5 20.93, Census k = 10 13.16, EIA k = 5 0.79, k = 10 2.05 | "+
		"our best is below the paper's best in %d cells: %s | count | (no verdict: the paper's bold marks are lost) |\n",
		len(better), strings.Join(better, "; "))

	// 6. the harness's speed goal at EIA k = 3
	eia3 := find(paper, func(r Run) bool { return r.Dataset == "eia" && r.K == 3 })
	var cpus []float64
	for _, r := range eia3 {
		cpus = append(cpus, r.CPU)
	}
	if len(cpus) > 0 {
		fmt.Fprintf(w, "| (our goal) EIA k = 3 takes ≤ 20 s per run | 278–715 s per run (1.2 GHz) | %.2f–%.2f CPU s over %d runs | maximum | %s |\n",
			slices.Min(cpus), slices.Max(cpus), len(cpus), Verdict(slices.Max(cpus) <= 20))
	}
	fmt.Fprintln(w)
}

// meanCPUByK renders the mean CPU seconds per dataset and k.
func meanCPUByK(runs []Run) string {
	var parts []string
	for _, ds := range Datasets {
		var ts []string
		for _, k := range Ks {
			rs := find(runs, func(r Run) bool { return r.Dataset == ds && r.K == k })
			var s float64
			for _, r := range rs {
				s += r.CPU
			}
			if len(rs) > 0 {
				ts = append(ts, fmt.Sprintf("%.2f", s/float64(len(rs))))
			}
		}
		parts = append(parts, ds+" "+strings.Join(ts, " / "))
	}
	return "mean CPU s for k = 3 / 5 / 10: " + strings.Join(parts, "; ")
}
