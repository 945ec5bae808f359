package analysis

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/metrics"
)

// ProfileRow is one line of profiles.csv: a configuration's Dolan–Moré performance profile on
// one metric, summarised by ρ(τ), the share of its instances where it is within a factor τ of
// the best configuration there.
type ProfileRow struct {
	Metric, Config string
	Instances      int
	// Rho1 is the share of instances where it is the best (ties included), Rho2 and Rho10
	// within a factor 2 and 10 of the best.
	Rho1, Rho2, Rho10 float64
	// Ratios are the performance ratios r = cost/best cost on each instance, sorted; +Inf for
	// a missing value.
	Ratios []float64
}

// Profiles returns the performance profiles of metric m (Dolan & Moré 2002, "Benchmarking
// optimization software with performance profiles", Math. Programming 91): the instances are
// the blocks (TradeoffBy), a configuration's cost on an instance is its aggregated value scored
// lower-better (the value, 1/value for a higher-better metric, the distance to a target), and
// the ratio is cost / the best cost there. A best cost of 0 gives ratio 1 to costs of 0 and +Inf
// to the others; a negative best cost gives 1 + (cost − best)/|best|. Missing values are
// failures (+Inf).
func Profiles(p *Plan, runs *Runs, m string) []ProfileRow {
	by := p.TradeoffBy()
	j := runs.ValueCol(m)
	idx := map[string]int{}
	var blocks []map[int][]float64
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
			blocks = append(blocks, map[int][]float64{})
		}
		blocks[b][c] = append(blocks[b][c], r.Values[j])
	}
	d := p.dirs[m]
	ratios := make([][]float64, len(p.Configs))
	for _, b := range blocks {
		cost := map[int]float64{}
		best := math.Inf(1)
		for c, x := range b {
			v := cost1(d, p.aggregate(x))
			cost[c] = v
			if !math.IsNaN(v) && !math.IsInf(v, 0) && v < best {
				best = v
			}
		}
		for c, v := range cost {
			ratios[c] = append(ratios[c], ratio(v, best))
		}
	}
	var out []ProfileRow
	for c, r := range ratios {
		if len(r) == 0 {
			continue
		}
		slices.Sort(r)
		n := float64(len(r))
		out = append(out, ProfileRow{Metric: m, Config: p.Configs[c], Instances: len(r),
			Rho1: rho(r, 1) / n, Rho2: rho(r, 2) / n, Rho10: rho(r, 10) / n, Ratios: r})
	}
	return out
}

// cost1 is the lower-better cost of a value for the profile, +Inf when missing.
func cost1(d direction, v float64) float64 {
	switch {
	case !isFinite(v):
		return math.Inf(1)
	case d.better == metrics.Higher && v <= 0:
		return math.Inf(1)
	case d.better == metrics.Higher:
		return 1 / v
	}
	return d.score(v)
}

func ratio(v, best float64) float64 {
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(best, 0):
		return math.Inf(1)
	case best == 0 && v == 0:
		return 1
	case best == 0:
		return math.Inf(1)
	case best < 0:
		return 1 + (v-best)/math.Abs(best)
	}
	return v / best
}

// rho counts the sorted ratios ≤ tau (with a relative tolerance of 1e-9 for ties).
func rho(r []float64, tau float64) float64 {
	var n float64
	for _, v := range r {
		if v <= tau*(1+1e-9) {
			n++
		}
	}
	return n
}
