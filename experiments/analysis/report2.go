package analysis

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// reportTradeoff writes the risk–utility section: how often each configuration is on the
// Pareto front of (loss, risk), and the front of every block (at most 30 blocks listed).
func (r *Result) reportTradeoff(w io.Writer) {
	p := r.Plan
	if len(r.Pareto) == 0 {
		return
	}
	fmt.Fprintf(w, "## Risk–utility trade-off\n\nLoss `%s` against risk `%s`, both lower-better after the registry's direction; a configuration is on the Pareto front of a block when no other configuration there has lower-or-equal loss and risk with one strictly lower (replicates aggregated by %s). pareto.csv has every point and its rank.\n\n", p.Tradeoff[0], p.Tradeoff[1], p.ReplicateAgg)
	var rows [][]string
	for _, c := range p.Configs {
		wins, n := r.paretoWinsOf(nil, c)
		if n > 0 {
			rows = append(rows, []string{c, fmt.Sprintf("%d/%d (%.0f%%)", wins, n, 100*float64(wins)/float64(n))})
		}
	}
	table(w, []string{"configuration", "on the front"}, rows)
	rows = nil
	blocks := 0
	for lo := 0; lo < len(r.Pareto); {
		hi := lo
		for hi < len(r.Pareto) && strings.Join(r.Pareto[hi].By, " ") == strings.Join(r.Pareto[lo].By, " ") {
			hi++
		}
		if blocks++; blocks <= 30 {
			var front []string
			for _, pr := range r.Pareto[lo:hi] {
				if pr.Front {
					front = append(front, fmt.Sprintf("%s (%s, %s)", pr.Config, num(pr.Loss), num(pr.Risk)))
				}
			}
			rows = append(rows, []string{strings.Join(r.Pareto[lo].By, " "), strings.Join(front, "; "), r.originalPoint(r.Pareto[lo].By)})
		}
		lo = hi
	}
	fmt.Fprintf(w, "Front per %s (configuration (loss, risk)):\n\n", names(p.TradeoffBy()))
	table(w, []string{names(p.TradeoffBy()), "Pareto front", "original (loss, risk)"}, rows)
	if blocks > 30 {
		fmt.Fprintf(w, "%d more blocks in pareto.csv.\n\n", blocks-30)
	}
}

// reportBestPairs lists the tests of the best configuration against the others with their
// effect sizes (at most 10 per metric).
func (r *Result) reportBestPairs(w io.Writer) {
	fmt.Fprintf(w, "Best configuration against the next ones, with effect sizes: the Hodges–Lehmann shift (A − B, the metric's units) and its 95 %% interval, and A12 = P(A > B) + ½P(A = B) (0.5: no effect; for a lower-better metric A12 < 0.5 favours A).\n\n")
	var rows [][]string
	for _, m := range r.Plan.BestBy {
		best := ""
		n := 0
		for _, b := range r.Best {
			if b.Metric != m {
				continue
			}
			if b.Rank == 1 {
				best = b.Config
				continue
			}
			if n >= 10 {
				break
			}
			for _, pr := range r.Pairs {
				if pr.Metric != m || !(pr.A == best && pr.B == b.Config || pr.B == best && pr.A == b.Config) {
					continue
				}
				est, lo, hi, a12, lvl := "–", "–", "–", num(pr.A12), ""
				if s := pr.Shift; s != nil {
					sign := 1.0
					if pr.B == best { // report as best − other
						sign = -1
						a12 = num(1 - pr.A12)
					}
					l, h := sign*s.Lo, sign*s.Hi
					if l > h {
						l, h = h, l
					}
					est, lo, hi = num(sign*s.Estimate), num(l), num(h)
					if math.Abs(s.Level-0.95) > 1e-9 { // too few values for 95 %: R's achieved level
						lvl = fmt.Sprintf(" at %.3g %%", 100*s.Level)
					}
				}
				warn := ""
				if len(pr.Warnings) > 0 {
					warn = joinErrs(pr.Warnings)
				}
				rows = append(rows, []string{m, best, b.Config, strconv.Itoa(pr.N2), num(pr.P), est, "[" + lo + ", " + hi + "]" + lvl, a12, warn})
				n++
			}
		}
	}
	table(w, []string{"metric", "A (best)", "B", "n", "p", "shift A − B", "95 % CI (or the level reachable)", "A12", "warnings"}, rows)
}

// reportProfiles summarises the performance profiles.
func (r *Result) reportProfiles(w io.Writer) {
	if len(r.Profiles) == 0 || len(r.Plan.Configs) < 2 {
		return
	}
	fmt.Fprintf(w, "## Performance profiles\n\nDolan–Moré profiles over the instances (%s): ρ(τ) is the share of instances where a configuration's value is within a factor τ of the best one there (profiles.csv, plots/profile_*.png).\n\n", names(r.Plan.TradeoffBy()))
	var rows [][]string
	for _, m := range r.Plan.Metrics {
		for _, pr := range r.Profiles[m] {
			rows = append(rows, []string{m, pr.Config, strconv.Itoa(pr.Instances), num(pr.Rho1), num(pr.Rho2), num(pr.Rho10)})
		}
	}
	if len(rows) > 60 {
		fmt.Fprintf(w, "%d rows in profiles.csv; the plots show them all.\n\n", len(rows))
		return
	}
	table(w, []string{"metric", "configuration", "instances", "ρ(1)", "ρ(2)", "ρ(10)"}, rows)
}
