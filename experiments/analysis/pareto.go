package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/metrics"
)

// ParetoRanks returns the non-domination rank of every point (x[i], y[i]), both coordinates
// lower-better: rank 1 is the Pareto front (no other point is at least as good in both and
// better in one), rank 2 the front once rank 1 is removed, and so on. Identical points share a
// rank. A point with a NaN or infinite coordinate gets rank 0 (not ranked). It panics if the
// lengths differ. Cost O(n log n + n·L) for L ranks.
func ParetoRanks(x, y []float64) []int {
	if len(x) != len(y) {
		panic("analysis: ParetoRanks: length mismatch")
	}
	idx := make([]int, 0, len(x))
	for i := range x {
		if isFinite(x[i]) && isFinite(y[i]) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(x[a], x[b]); c != 0 {
			return c
		}
		return cmp.Compare(y[a], y[b])
	})
	ranks := make([]int, len(x))
	// Each layer keeps the smallest y of its members so far and the x where it was reached;
	// every member so far has x ≤ the current point's x.
	type layer struct{ minY, atX float64 }
	var layers []layer
	for _, i := range idx {
		l := 0
		for l < len(layers) && (layers[l].minY < y[i] || layers[l].minY == y[i] && layers[l].atX < x[i]) {
			l++ // dominated by a member of layer l
		}
		if l == len(layers) {
			layers = append(layers, layer{y[i], x[i]})
		} else if y[i] < layers[l].minY {
			layers[l] = layer{y[i], x[i]}
		}
		ranks[i] = l + 1
	}
	return ranks
}

// ParetoRow is one line of pareto.csv: a configuration's (loss, risk) in one block, with its
// non-domination rank there.
type ParetoRow struct {
	By                     []string // values of Plan.TradeoffBy
	LossMetric, RiskMetric string   // the pair (one of Plan.Tradeoffs)
	Config                 string
	Loss, Risk             float64
	Rank                   int  // 1 = on the front; 0 = missing loss or risk
	Front                  bool // Rank == 1
}

// ParetoWin counts how often a configuration is on the front, per value of Plan.WinsBy.
type ParetoWin struct {
	By        []string
	Config    string
	Wins      int // blocks where it is on the front
	Instances int // blocks where it has both metrics
}

// TradeoffBy returns the columns whose values make one risk–utility comparison: the blocks, or
// the instances when there are none.
func (p *Plan) TradeoffBy() []string {
	if len(p.Blocks) > 0 {
		return p.Blocks
	}
	return p.Instances
}

// Pareto computes the Pareto fronts of (loss, risk) = p.Tradeoff in every block: each
// configuration's replicates in the block reduced by ReplicateAgg, both metrics scored
// lower-better. It returns the rows in block order, configurations in plan order, and the
// Pareto wins per WinsBy value and configuration.
func Pareto(p *Plan, runs *Runs) ([]ParetoRow, []ParetoWin) { return ParetoOf(p, runs, p.Tradeoff) }

// ParetoOf is Pareto for the (loss, risk) pair, one of p.Tradeoffs.
func ParetoOf(p *Plan, runs *Runs, pair []string) ([]ParetoRow, []ParetoWin) {
	if len(pair) != 2 {
		return nil, nil
	}
	by := p.TradeoffBy()
	jl, jr := runs.ValueCol(pair[0]), runs.ValueCol(pair[1])
	type block struct {
		by, wins []string
		loss     map[int][]float64
		risk     map[int][]float64
	}
	idx := map[string]int{}
	var blocks []block
	for i, r := range runs.Rows {
		c := p.config[i]
		if c < 0 {
			continue
		}
		k := key(runs, i, by)
		b, ok := idx[k]
		if !ok {
			b = len(blocks)
			idx[k] = b
			nb := block{loss: map[int][]float64{}, risk: map[int][]float64{}}
			for _, col := range by {
				nb.by = append(nb.by, runs.Get(i, col))
			}
			for _, col := range p.WinsBy {
				nb.wins = append(nb.wins, runs.Get(i, col))
			}
			blocks = append(blocks, nb)
		}
		blocks[b].loss[c] = append(blocks[b].loss[c], r.Values[jl])
		blocks[b].risk[c] = append(blocks[b].risk[c], r.Values[jr])
	}
	slices.SortStableFunc(blocks, func(a, b block) int { return compareLevels(a.by, b.by) })
	dl, dr := p.dirs[pair[0]], p.dirs[pair[1]]
	var rows []ParetoRow
	wins := map[string]*ParetoWin{}
	var order []string
	for _, b := range blocks {
		var cs []int
		for c := range p.Configs {
			if _, ok := b.loss[c]; ok {
				cs = append(cs, c)
			}
		}
		x, y := make([]float64, len(cs)), make([]float64, len(cs))
		lv, rv := make([]float64, len(cs)), make([]float64, len(cs))
		for k, c := range cs {
			lv[k], rv[k] = p.aggregate(b.loss[c]), p.aggregate(b.risk[c])
			x[k], y[k] = dl.score(lv[k]), dr.score(rv[k])
		}
		ranks := ParetoRanks(x, y)
		for k, c := range cs {
			rows = append(rows, ParetoRow{By: b.by, LossMetric: pair[0], RiskMetric: pair[1], Config: p.Configs[c], Loss: lv[k], Risk: rv[k], Rank: ranks[k], Front: ranks[k] == 1})
			wk := strings.Join(b.wins, "\x1f") + "\x1e" + p.Configs[c]
			w, ok := wins[wk]
			if !ok {
				w = &ParetoWin{By: b.wins, Config: p.Configs[c]}
				wins[wk] = w
				order = append(order, wk)
			}
			if ranks[k] > 0 {
				w.Instances++
			}
			if ranks[k] == 1 {
				w.Wins++
			}
		}
	}
	out := make([]ParetoWin, len(order))
	for i, k := range order {
		out[i] = *wins[k]
	}
	return rows, out
}

// riskIDs are the registered metrics that measure disclosure risk (or protection); the others
// measure information loss. Prefixes end with "_".
var riskIDs = []string{"dld", "dbrl", "dbrl2", "dbrl_attr", "dbrl_attr2", "prl", "interval_disclosure", "id_rank",
	"sdid", "dr", "risky_obs", "kanon_viol_", "ind_risk_", "global_risk_", "hier_risk_", "dis_suda_", "ldiv_"}

// IsRisk reports whether the value column m is a disclosure-risk measure.
func IsRisk(m string) bool {
	for _, r := range riskIDs {
		if m == r || strings.HasSuffix(r, "_") && strings.HasPrefix(m, r) {
			return true
		}
	}
	return false
}

// isLoss reports whether m is an information-loss measure: a registered metric that is not a
// risk measure.
func isLoss(m string) bool {
	if IsRisk(m) || m == "seconds" {
		return false
	}
	_, err := metrics.Lookup(m)
	return err == nil
}

// defaultTradeoff is the spec's first loss metric and first risk metric, else the scatter pair.
func defaultTradeoff(ms, scatter []string) []string {
	var loss, risk string
	for _, m := range ms {
		if loss == "" && isLoss(m) {
			loss = m
		}
		if risk == "" && IsRisk(m) {
			risk = m
		}
	}
	if loss != "" && risk != "" {
		return []string{loss, risk}
	}
	if len(scatter) == 2 && IsRisk(scatter[1]) {
		return scatter
	}
	return nil
}

// frontLine returns the staircase through the front points (x, y) sorted by x: from each
// point horizontally to the next point's x, then down to it.
func frontLine(x, y []float64) ([]float64, []float64) {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	var lx, ly []float64
	for k, i := range idx {
		if k > 0 {
			lx, ly = append(lx, x[i]), append(ly, ly[len(ly)-1])
		}
		lx, ly = append(lx, x[i]), append(ly, y[i])
	}
	return lx, ly
}

// paretoWinsOf returns the Pareto wins and instances of config at the WinsBy values by, summed
// over the values when by is nil.
func (r *Result) paretoWinsOf(by []string, config string) (wins, instances int) {
	for _, w := range r.ParetoWins {
		if w.Config == config && (by == nil || slices.Equal(w.By, by)) {
			wins += w.Wins
			instances += w.Instances
		}
	}
	return wins, instances
}
