package analysis

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// bestFront fills the Pareto columns of the best rows from the first pair's fronts, when the
// verdicts' instances are the fronts' blocks.
func (r *Result) bestFront() {
	if len(r.Pareto) == 0 || !slices.Equal(r.Plan.Units, r.Plan.TradeoffBy()) {
		return
	}
	rank := make(map[string]int, len(r.Pareto))
	for _, pr := range r.Pareto {
		rank[strings.Join(pr.By, "\x1f")+"\x1e"+pr.Config] = pr.Rank
	}
	for i := range r.Best {
		b := &r.Best[i]
		if k, ok := rank[strings.Join(b.Instance, "\x1f")+"\x1e"+b.Config]; ok && k > 0 {
			b.ParetoInstances = 1
			if k == 1 {
				b.ParetoWins = 1
			}
		}
	}
}

// Recommendation is the answer under the spec's risk bound on one instance for one loss metric
// (docs/analysis.md "The answer first"): the lowest-loss configuration among those whose median
// risk stays within every bound of Plan.RiskBound, the runner-up, and the comparison of the
// two on the loss metric.
type Recommendation struct {
	Instance []string
	Loss     string
	// Config is the recommended configuration; empty when none meets the bounds.
	Config string
	// LossMedian and Risk are its median loss and its median of each bounded measure.
	LossMedian float64
	Risk       map[string]float64
	// Eligible counts the configurations within the bounds, Total those with every value.
	Eligible, Total int
	// RunnerUp is the next configuration within the bounds by loss ("" when there is none),
	// RunnerLoss its median loss and Vs the comparison RunnerUp − Config on the loss metric.
	RunnerUp   string
	RunnerLoss float64
	Vs         Versus
}

// withinBound reports whether the value v of measure m is no worse than the bound in m's
// direction (≤ for a lower-better measure).
func (p *Plan) withinBound(m string, v float64) bool {
	d := p.dirs[m]
	s, b := d.score(v), d.score(p.RiskBound[m])
	return !math.IsNaN(s) && s <= b
}

// lossMetrics returns the distinct loss metrics of the plan's pairs, in order.
func (p *Plan) lossMetrics() []string {
	var out []string
	for _, pair := range p.Tradeoffs {
		if !slices.Contains(out, pair[0]) {
			out = append(out, pair[0])
		}
	}
	return out
}

// Recommend returns, for every instance (Plan.Units) and loss metric of the plan's pairs, the
// recommendation under Plan.RiskBound; nil without bounds. Medians are over the observations
// of Plan.observations (a randomized method's replicates, a deterministic one's value).
func Recommend(p *Plan, runs *Runs) []Recommendation {
	if len(p.RiskBound) == 0 {
		return nil
	}
	bounds := slices.Sorted(maps.Keys(p.RiskBound))
	risk := make([]unitSet, len(bounds))
	for k, m := range bounds {
		risk[k] = p.observations(runs, m)
	}
	var out []Recommendation
	for _, lm := range p.lossMetrics() {
		loss := p.observations(runs, lm)
		d := p.dirs[lm]
		for u, by := range loss.by {
			rec := Recommendation{Instance: by, Loss: lm, LossMedian: math.NaN(), RunnerLoss: math.NaN()}
			type cand struct {
				c    int
				loss float64
				risk map[string]float64
			}
			var cands []cand
			for c := range p.Configs {
				x, ok := loss.obs[u][c]
				if !ok || len(x) == 0 {
					continue
				}
				cd := cand{c: c, loss: stats.NewSample(x).Median(), risk: map[string]float64{}}
				all, within := true, true
				for k, m := range bounds {
					ru := risk[k].find(by)
					var rx []float64
					if ru >= 0 {
						rx = risk[k].obs[ru][c]
					}
					if len(rx) == 0 {
						all = false
						break
					}
					cd.risk[m] = stats.NewSample(rx).Median()
					within = within && p.withinBound(m, cd.risk[m])
				}
				if !all {
					continue
				}
				rec.Total++
				if within {
					cands = append(cands, cd)
				}
			}
			rec.Eligible = len(cands)
			slices.SortStableFunc(cands, func(a, b cand) int { return cmpScore(d.score(a.loss), d.score(b.loss)) })
			if len(cands) > 0 {
				rec.Config, rec.LossMedian, rec.Risk = p.Configs[cands[0].c], cands[0].loss, cands[0].risk
			}
			if len(cands) > 1 {
				a, b := cands[1].c, cands[0].c
				rec.RunnerUp, rec.RunnerLoss = p.Configs[a], cands[1].loss
				rec.Vs = p.versus(loss.obs[u][a], loss.obs[u][b], p.random[a], p.random[b])
			}
			out = append(out, rec)
		}
	}
	return out
}

// Disagreement records that two risk measures order the configurations of one instance
// differently: Discordant of Pairs configuration pairs (both measures strictly ordering them)
// are in opposite order; A and B are one such pair, with their medians.
type Disagreement struct {
	Instance                   []string
	M1, M2                     string
	Discordant, Pairs          int
	A, B                       string
	A1, B1, A2, B2             float64
	Tau                        float64 // Kendall's τ-a over the pairs ordered by both: (concordant − discordant)/Pairs
	ExampleRank1, ExampleRank2 int     // ranks of A by M1 and by M2 (1 = best)
}

// riskMetrics returns the analysed risk measures: the plan's metrics, its pairs' risk metrics and
// its bounds that are risk measures (IsRisk), in that order.
func (p *Plan) riskMetrics() []string {
	var out []string
	add := func(m string) {
		if IsRisk(m) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	for _, m := range p.Metrics {
		add(m)
	}
	for _, pair := range p.Tradeoffs {
		add(pair[1])
	}
	for _, m := range slices.Sorted(maps.Keys(p.RiskBound)) {
		add(m)
	}
	return out
}

// Disagreements compares, on every instance, the order of the configurations by median under
// each two risk measures of the plan (lower-better scores) and returns the pairs of measures
// that disagree on at least one pair of configurations. The example pair is the discordant one
// whose better configuration by the first measure ranks best. Cost O(k²·C²) per instance for k
// measures and C configurations.
func Disagreements(p *Plan, runs *Runs) []Disagreement {
	ms := p.riskMetrics()
	if len(ms) < 2 {
		return nil
	}
	sets := make([]unitSet, len(ms))
	for k, m := range ms {
		sets[k] = p.observations(runs, m)
	}
	var out []Disagreement
	for _, by := range sets[0].by {
		med := make([][]float64, len(ms)) // measure → configuration → score of the median
		for k, m := range ms {
			med[k] = make([]float64, len(p.Configs))
			uk := sets[k].find(by)
			for c := range p.Configs {
				med[k][c] = math.NaN()
				if uk >= 0 {
					if x := sets[k].obs[uk][c]; len(x) > 0 {
						med[k][c] = p.dirs[m].score(stats.NewSample(x).Median())
					}
				}
			}
		}
		for k1 := range ms {
			for k2 := k1 + 1; k2 < len(ms); k2++ {
				if dis, ok := disagreement(med[k1], med[k2]); ok {
					dis.Instance, dis.M1, dis.M2 = by, ms[k1], ms[k2]
					dis.A, dis.B = p.Configs[dis.ExampleRank1], p.Configs[dis.ExampleRank2]
					// back from scores to the measures' values
					a, b := p.configIndex(dis.A), p.configIndex(dis.B)
					dis.A1, dis.B1 = p.medianOf(sets[k1], by, a), p.medianOf(sets[k1], by, b)
					dis.A2, dis.B2 = p.medianOf(sets[k2], by, a), p.medianOf(sets[k2], by, b)
					dis.ExampleRank1, dis.ExampleRank2 = rankOf(med[k1], a), rankOf(med[k2], a)
					out = append(out, dis)
				}
			}
		}
	}
	return out
}

// disagreement counts the concordant and discordant configuration pairs of two score vectors;
// ok when some are discordant. ExampleRank1/2 carry the example pair's configuration indexes.
func disagreement(s1, s2 []float64) (Disagreement, bool) {
	var d Disagreement
	conc := 0
	bestA := math.Inf(1)
	for a := range s1 {
		if math.IsNaN(s1[a]) || math.IsNaN(s2[a]) {
			continue
		}
		for b := a + 1; b < len(s1); b++ {
			if math.IsNaN(s1[b]) || math.IsNaN(s2[b]) || s1[a] == s1[b] || s2[a] == s2[b] {
				continue
			}
			d.Pairs++
			if (s1[a] < s1[b]) == (s2[a] < s2[b]) {
				conc++
				continue
			}
			d.Discordant++
			x, y := a, b
			if s1[b] < s1[a] {
				x, y = b, a
			}
			if s1[x] < bestA {
				bestA, d.ExampleRank1, d.ExampleRank2 = s1[x], x, y
			}
		}
	}
	if d.Pairs > 0 {
		d.Tau = float64(conc-d.Discordant) / float64(d.Pairs)
	}
	return d, d.Discordant > 0
}

// configIndex returns the index of the configuration named c.
func (p *Plan) configIndex(c string) int { return slices.Index(p.Configs, c) }

// medianOf returns the median of configuration c's observations on the instance by, NaN if none.
func (p *Plan) medianOf(us unitSet, by []string, c int) float64 {
	u := us.find(by)
	if u < 0 || c < 0 {
		return math.NaN()
	}
	return stats.NewSample(us.obs[u][c]).Median()
}

// rankOf returns the rank (1 = lowest score) of entry c among the finite scores s.
func rankOf(s []float64, c int) int {
	r := 1
	for _, v := range s {
		if !math.IsNaN(v) && v < s[c] {
			r++
		}
	}
	return r
}
