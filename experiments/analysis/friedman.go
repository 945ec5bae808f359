package analysis

import (
	"math"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// FriedmanRow is one line of friedman.csv: a configuration's mean rank on a metric (1 = best)
// with the metric's Friedman test and Nemenyi critical difference repeated on each line.
type FriedmanRow struct {
	Metric   string
	Config   string
	MeanRank float64
	stats.FriedmanResult
}

// FriedmanTable runs the Friedman test of metric m over the blocks of the plan (dataset and k
// by default; the instances when there are no blocks), one treatment per configuration, on
// lower-better scores so that rank 1 is the best. A configuration with several runs in a block
// enters with their aggregate (Plan.ReplicateAgg); blocks where a configuration has no finite value are dropped (the
// result's Warnings say how many).
func FriedmanTable(p *Plan, runs *Runs, m string) []FriedmanRow {
	cols := p.Blocks
	if len(cols) == 0 {
		cols = p.Instances
	}
	j := runs.ValueCol(m)
	d := p.dirs[m]
	idx := map[string]int{}
	var vals []map[int][]float64
	for i, r := range runs.Rows {
		c := p.config[i]
		if c < 0 {
			continue
		}
		k := key(runs, i, cols)
		b, ok := idx[k]
		if !ok {
			b = len(vals)
			idx[k] = b
			vals = append(vals, map[int][]float64{})
		}
		vals[b][c] = append(vals[b][c], r.Values[j])
	}
	y := make([][]float64, len(vals))
	for b := range vals {
		y[b] = make([]float64, len(p.Configs))
		for c := range p.Configs {
			y[b][c] = d.score(p.aggregate(vals[b][c]))
		}
	}
	res := stats.Friedman(y, p.Alpha)
	out := make([]FriedmanRow, len(p.Configs))
	for c, name := range p.Configs {
		out[c] = FriedmanRow{Metric: m, Config: name, MeanRank: math.NaN(), FriedmanResult: res}
		if res.N > 0 {
			out[c].MeanRank = res.MeanRanks[c]
		}
	}
	return out
}

// friedmanBlocks names the blocking columns of FriedmanTable, for the report.
func (p *Plan) friedmanBlocks() string {
	cols := p.Blocks
	if len(cols) == 0 {
		cols = p.Instances
	}
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = short(c)
	}
	return strings.Join(s, ", ")
}
