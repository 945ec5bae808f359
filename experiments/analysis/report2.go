package analysis

import (
	"fmt"
	"io"
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
