package analysis

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/metrics"
)

// maxAnswerInstances bounds the instances REPORT.md's answer lists one by one; best.csv,
// pareto.csv and recommend.csv have them all.
const maxAnswerInstances = 20

// maxSame bounds the configurations named as "same as the best" in one line of the answer.
const maxSame = 8

// reportAnswer writes the section REPORT.md leads with (docs/analysis.md "The answer first"):
// per instance, the best configuration of every metric with the comparison that fits the
// design, the Pareto front of every (loss, risk) pair, the recommendation under the risk bound
// and the risk measures that disagree; then the rank aggregation across instances.
func (r *Result) reportAnswer(w io.Writer) {
	p := r.Plan
	fmt.Fprintf(w, "\n## The answer, per %s\n\n", unitWord(p.Units))
	fmt.Fprintf(w, "Each %s is judged on its own: configurations are ranked by their median there; \"same\" are those not significantly different from the best (%s p ≥ %g) by the test that fits the design: rank-sum of the replicates of two randomized methods, one-sample signed-rank of a randomized method's replicates against a deterministic method's value, and the exact difference of two deterministic values (docs/analysis.md \"Tests that fit the design\"). Full ranking in best.csv.\n\n",
		unitWord(p.Units), adjName(p), p.Alpha)
	type group struct {
		by   []string
		best map[string][]BestRow
	}
	var groups []*group
	idx := map[string]*group{}
	for _, b := range r.Best {
		k := strings.Join(b.Instance, "\x1f")
		g, ok := idx[k]
		if !ok {
			g = &group{by: b.Instance, best: map[string][]BestRow{}}
			idx[k] = g
			groups = append(groups, g)
		}
		g.best[b.Metric] = append(g.best[b.Metric], b)
	}
	sameFronts := slices.Equal(p.Units, p.TradeoffBy())
	for gi, g := range groups {
		if gi == maxAnswerInstances {
			fmt.Fprintf(w, "%d more in best.csv, pareto.csv%s.\n\n", len(groups)-gi, map[bool]string{true: " and recommend.csv"}[len(r.Recommend) > 0])
			break
		}
		name := instanceName(p.Units, g.by)
		fmt.Fprintf(w, "### %s\n\n", name)
		var rows [][]string
		var daggers []string // why the † configurations' tests cannot reach alpha
		for _, m := range p.BestBy {
			bs := g.best[m]
			if len(bs) == 0 {
				continue
			}
			var same []string
			for _, b := range bs[1:] {
				if b.SameAsBest {
					if why := underpowered(b.Vs.Warnings); why != "" {
						same = append(same, b.Config+" †")
						if !slices.Contains(daggers, why) {
							daggers = append(daggers, why)
						}
						continue
					}
					same = append(same, b.Config)
				}
			}
			if len(same) > maxSame {
				same = append(same[:maxSame], fmt.Sprintf("%d more", len(same)-maxSame))
			}
			sameText := strings.Join(same, ", ")
			if sameText == "" {
				sameText = "none"
			}
			next := "–"
			if len(bs) > 1 {
				next = fmt.Sprintf("%s (%s): %s", bs[1].Config, num(bs[1].Median), bs[1].Vs.describe())
			}
			best := bs[0].Config
			if bs[0].RiskMetric != "" {
				best += fmt.Sprintf(" (%s %s)", bs[0].RiskMetric, num(bs[0].RiskMedian))
			}
			rows = append(rows, []string{m + " (" + p.dirs[m].String() + ")", best, num(bs[0].Median), strconv.Itoa(len(bs)), sameText, next})
		}
		table(w, []string{"metric", "best", "median", "configurations", "same as the best", "second: its comparison with the best"}, rows)
		if len(daggers) > 0 {
			fmt.Fprintf(w, "† not significantly different only because the test cannot reach p < %g with so few observations (%s); run more replicates to tell.\n\n", p.Alpha, strings.Join(daggers, "; "))
		}
		if sameFronts {
			for k, front := range r.Fronts {
				if k < len(p.Tradeoffs) {
					r.reportFront(w, p.Tradeoffs[k], front, g.by)
				}
			}
		}
		for _, rc := range r.Recommend {
			if slices.Equal(rc.Instance, g.by) {
				r.reportRecommendation(w, rc)
			}
		}
		for _, d := range r.Disagree {
			if slices.Equal(d.Instance, g.by) {
				fmt.Fprintf(w, "- The risk measures disagree: `%s` and `%s` order %d of %d pairs of configurations oppositely (Kendall τ = %s); `%s` puts %s (%s) before %s (%s), `%s` puts it after (%s against %s).\n",
					d.M1, d.M2, d.Discordant, d.Pairs, num(d.Tau), d.M1, d.A, num(d.A1), d.B, num(d.B1), d.M2, num(d.A2), num(d.B2))
			}
		}
		fmt.Fprintln(w)
	}
	if !sameFronts && len(r.Pareto) > 0 {
		fmt.Fprintf(w, "Pareto fronts are per %s; see \"Risk–utility trade-off\" below.\n\n", names(p.TradeoffBy()))
	}
	r.reportAcross(w)
}

// reportFront writes the Pareto front of one pair on the instance by.
func (r *Result) reportFront(w io.Writer, pair []string, front []ParetoRow, by []string) {
	var pts []string
	for _, pr := range front {
		if pr.Front && slices.Equal(pr.By, by) {
			pts = append(pts, fmt.Sprintf("%s (%s, %s)", pr.Config, num(pr.Loss), num(pr.Risk)))
		}
	}
	if len(pts) == 0 {
		return
	}
	if len(pts) > 2*maxSame {
		pts = append(pts[:2*maxSame], fmt.Sprintf("%d more in pareto.csv", len(pts)-2*maxSame))
	}
	fmt.Fprintf(w, "- Pareto front of `%s` (%s) and `%s` (risk): %s.\n", pair[0], utilityWord(pair[0]), pair[1], strings.Join(pts, "; "))
}

// reportRecommendation writes one recommendation with its evidence.
func (r *Result) reportRecommendation(w io.Writer, rc Recommendation) {
	p := r.Plan
	var bound []string
	for _, m := range slices.Sorted(maps.Keys(p.RiskBound)) {
		op := "≤"
		if p.dirs[m].better == metrics.Higher {
			op = "≥"
		}
		bound = append(bound, fmt.Sprintf("`%s` %s %s", m, op, num(p.RiskBound[m])))
	}
	b := strings.Join(bound, " and ")
	if rc.Config == "" {
		fmt.Fprintf(w, "- Under %s: no configuration qualifies (0 of %d with every value) for `%s`.\n", b, rc.Total, rc.Loss)
		return
	}
	var risk []string
	for _, m := range slices.Sorted(maps.Keys(rc.Risk)) {
		risk = append(risk, fmt.Sprintf("%s %s", m, num(rc.Risk[m])))
	}
	fmt.Fprintf(w, "- **Recommended under %s, lowest `%s`: %s** (%s %s; %s), %d of %d configurations within the bound", b, rc.Loss, rc.Config, rc.Loss, num(rc.LossMedian), strings.Join(risk, ", "), rc.Eligible, rc.Total)
	if rc.RunnerUp == "" {
		fmt.Fprintf(w, "; no runner-up.\n")
		return
	}
	fmt.Fprintf(w, "; runner-up %s (%s %s), runner-up − recommended %s.\n", rc.RunnerUp, rc.Loss, num(rc.RunnerLoss), rc.Vs.describe())
}

// reportAcross writes the rank aggregation across instances: the Friedman mean ranks over the
// blocks every configuration has (friedman.csv), the five best per metric.
func (r *Result) reportAcross(w io.Writer) {
	if len(r.Friedman) == 0 {
		return
	}
	if !slices.ContainsFunc(r.Friedman, func(f FriedmanRow) bool { return f.N > 0 }) {
		fmt.Fprintf(w, "### Across %ss\n\nNo block (%s) has a value of every configuration, so there is no rank aggregation across %ss: compare the configurations %s by %s above.\n\n",
			unitWord(r.Plan.Units), r.Plan.friedmanBlocks(), unitWord(r.Plan.Units), unitWord(r.Plan.Units), unitWord(r.Plan.Units))
		return
	}
	fmt.Fprintf(w, "### Across %ss\n\nMean rank (1 = best) over the blocks (%s) on which every configuration has a value, with the Friedman test and the Nemenyi critical difference (friedman.csv; the five best per metric). Per-instance verdicts above do not pool values over %ss.\n\n", unitWord(r.Plan.Units), r.Plan.friedmanBlocks(), unitWord(r.Plan.Units))
	byMetric := map[string][]FriedmanRow{}
	var order []string
	for _, f := range r.Friedman {
		if _, ok := byMetric[f.Metric]; !ok {
			order = append(order, f.Metric)
		}
		byMetric[f.Metric] = append(byMetric[f.Metric], f)
	}
	var rows [][]string
	for _, m := range order {
		fs := slices.Clone(byMetric[m])
		slices.SortStableFunc(fs, func(a, b FriedmanRow) int { return cmpScore(a.MeanRank, b.MeanRank) })
		var top []string
		for _, f := range fs[:min(5, len(fs))] {
			top = append(top, fmt.Sprintf("%s %s", f.Config, num(f.MeanRank)))
		}
		f := fs[0]
		if f.N == 0 {
			rows = append(rows, []string{m, "0", "none: no block has every configuration", "–", "–"})
			continue
		}
		rows = append(rows, []string{m, strconv.Itoa(f.N), strings.Join(top, "; "), num(f.P), num(f.CD)})
	}
	table(w, []string{"metric", "shared blocks", "best mean ranks", "Friedman p", "Nemenyi CD"}, rows)
}

// unitWord names the verdicts' instance for headings: "dataset" when the dataset alone makes
// one, else "instance".
func unitWord(units []string) string {
	if len(units) == 1 && units[0] == "dataset" {
		return "dataset"
	}
	return "instance"
}

func adjName(p *Plan) string {
	return map[string]string{"none": "raw", "holm": "Holm", "BH": "BH"}[string(p.Adjust)]
}

// underpowered returns, when a comparison's warnings say its test could not reach alpha with
// the observations it had (stats.ErrTooFew), the warning's numbers (e.g. "5 pairs, smallest
// p=0.0625 > alpha=0.05"); "" otherwise.
func underpowered(warnings []error) string {
	for _, w := range warnings {
		if errors.Is(w, stats.ErrTooFew) {
			return strings.TrimPrefix(w.Error(), stats.ErrTooFew.Error()+": ")
		}
	}
	return ""
}
