package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/methods"
)

// randomized reports whether the method named m draws from its generator (methods.Info's
// Randomized, a chain when any of its methods does). A name the registry does not know (an
// older or foreign runs.csv) counts as deterministic: its identical replicates are collapsed,
// and replicates that differ are kept, as before the registry was asked. cache memoizes.
func randomized(m string, cache map[string]bool) bool {
	if r, ok := cache[m]; ok {
		return r
	}
	r := false
	if meth, err := methods.Lookup(m); err == nil {
		r = meth.Info().Randomized
	}
	cache[m] = r
	return r
}

// resolveUnits sets p.Units, the instances of the verdicts (docs/analysis.md "Best per
// dataset"): the blocks; with no blocks (blocks = []), one pooled instance when every
// configuration ran on the same datasets, else the datasets, with a warning, so that a median is
// never pooled over datasets some configurations did not run on.
func (p *Plan) resolveUnits(runs *Runs) {
	if len(p.Blocks) > 0 {
		p.Units = p.Blocks
		return
	}
	if runs.Col("dataset") < 0 {
		return
	}
	sets := make([]map[string]bool, len(p.Configs))
	for i, c := range p.config {
		if c < 0 {
			continue
		}
		if sets[c] == nil {
			sets[c] = map[string]bool{}
		}
		sets[c][runs.Get(i, "dataset")] = true
	}
	for _, s := range sets[1:] {
		if len(s) != len(sets[0]) || slices.ContainsFunc(keysOf(s), func(d string) bool { return !sets[0][d] }) {
			p.Units = []string{"dataset"}
			p.Warnings = append(p.Warnings, "best per dataset although blocks = []: the configurations did not all run on the same datasets, so a median pooled over datasets would compare different data")
			return
		}
	}
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// unitSet holds one metric's observations per instance (Plan.Units) and configuration.
type unitSet struct {
	by  [][]string          // per instance: the values of Plan.Units
	obs []map[int][]float64 // per instance: configuration → observations (finite values)
	nan []map[int]int       // per instance: configuration → settings without a finite value
	idx map[string]int      // instance values joined by \x1f → index
}

// observations returns the observations of metric m per instance and configuration: for each
// setting (dataset and parameters) of a configuration, every finite replicate of a randomized
// method (equal or not: independent draws), and for a deterministic one its identical
// replicates once (they repeat one run; docs/analysis.md "Replicates"). Instances are in
// level order (numbers numerically).
func (p *Plan) observations(runs *Runs, m string) unitSet {
	j := runs.ValueCol(m)
	type cellKey struct {
		u, c int
		cell string
	}
	idx := map[string]int{}
	var us unitSet
	cells := map[cellKey][]float64{}
	var order []cellKey
	for i, r := range runs.Rows {
		c := p.config[i]
		if c < 0 {
			continue
		}
		k := key(runs, i, p.Units)
		u, ok := idx[k]
		if !ok {
			u = len(us.by)
			idx[k] = u
			by := make([]string, len(p.Units))
			for n, col := range p.Units {
				by[n] = runs.Get(i, col)
			}
			us.by = append(us.by, by)
			us.obs = append(us.obs, map[int][]float64{})
			us.nan = append(us.nan, map[int]int{})
		}
		ck := cellKey{u, c, p.cell[i]}
		if _, ok := cells[ck]; !ok {
			order = append(order, ck)
		}
		cells[ck] = append(cells[ck], r.Values[j])
	}
	for _, ck := range order {
		f := finite(cells[ck])
		switch {
		case len(f) == 0:
			us.nan[ck.u][ck.c]++
			if _, ok := us.obs[ck.u][ck.c]; !ok {
				us.obs[ck.u][ck.c] = nil
			}
		case !p.random[ck.c] && allEqual(f):
			us.obs[ck.u][ck.c] = append(us.obs[ck.u][ck.c], f[0])
		default:
			us.obs[ck.u][ck.c] = append(us.obs[ck.u][ck.c], f...)
		}
	}
	perm := make([]int, len(us.by))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return compareLevels(us.by[a], us.by[b]) })
	sorted := unitSet{by: make([][]string, len(perm)), obs: make([]map[int][]float64, len(perm)), nan: make([]map[int]int, len(perm)),
		idx: make(map[string]int, len(perm))}
	for k, u := range perm {
		sorted.by[k], sorted.obs[k], sorted.nan[k] = us.by[u], us.obs[u], us.nan[u]
		sorted.idx[strings.Join(us.by[u], "\x1f")] = k
	}
	return sorted
}

// Test names of the per-instance comparisons (best.csv's test column).
const (
	VsRankSum    = "rank-sum"               // two randomized configurations: their replicates
	VsOneSample  = "signed-rank one-sample" // a randomized configuration against a fixed value
	VsDifference = "exact difference"       // two fixed values: no test
)

// Versus is the comparison of a configuration A with the best configuration B on one
// instance (docs/analysis.md "Tests that fit the design"). Estimate, Lo and Hi are A − B in
// the metric's units: the Hodges–Lehmann shift and its interval, the difference of the
// pseudomedian and the fixed value, or the exact difference of two fixed values (Lo = Hi).
type Versus struct {
	Test             string
	Estimate, Lo, Hi float64
	Level            float64 // the interval's confidence level (R's achieved level); NaN without one
	Effect           float64 // rank-biserial r of A against B: > 0 when A's values are higher; NaN for a difference
	P                float64 // NaN for a difference
	Method           string  // R's method string of the test
	Warnings         []error
	FixedA, FixedB   bool // the configuration is a single value on the instance
	NA, NB           int
}

// versus compares the observations a of a configuration with b of the best one on one instance:
// a fixed value is a deterministic configuration's single observation. Two samples: R's
// wilcox.test(a, b, conf.int = TRUE); a sample against a fixed value v: wilcox.test(x, mu = v,
// conf.int = TRUE), reported as A − B; two fixed values: their exact difference.
func (p *Plan) versus(a, b []float64, randA, randB bool) Versus {
	v := noVersus()
	v.FixedA, v.FixedB, v.NA, v.NB = !randA && len(a) == 1, !randB && len(b) == 1, len(a), len(b)
	if len(a) == 0 || len(b) == 0 {
		return v
	}
	opt := &stats.WilcoxonOptions{Alpha: p.Alpha, ConfInt: true}
	var c stats.Comparison
	switch {
	case v.FixedA && v.FixedB:
		v.Test, v.Estimate = VsDifference, a[0]-b[0]
		v.Lo, v.Hi = v.Estimate, v.Estimate
		return v
	case v.FixedB:
		v.Test = VsOneSample
		c = stats.OneSample(a, b[0], opt)
		if s := c.Shift; s != nil {
			v.Estimate, v.Lo, v.Hi, v.Level = s.Estimate-b[0], s.Lo-b[0], s.Hi-b[0], s.Level
		}
		v.Effect = c.R
	case v.FixedA:
		v.Test = VsOneSample
		c = stats.OneSample(b, a[0], opt)
		if s := c.Shift; s != nil {
			v.Estimate, v.Lo, v.Hi, v.Level = a[0]-s.Estimate, a[0]-s.Hi, a[0]-s.Lo, s.Level
		}
		v.Effect = -c.R
	default:
		v.Test = VsRankSum
		c = stats.RankSum(a, b, opt)
		if s := c.Shift; s != nil {
			v.Estimate, v.Lo, v.Hi, v.Level = s.Estimate, s.Lo, s.Hi, s.Level
		}
		v.Effect = c.R
	}
	v.P, v.Method, v.Warnings = c.P, c.Method, c.Warnings
	return v
}

// noVersus is the empty comparison: no test, every number NaN.
func noVersus() Versus {
	nan := math.NaN()
	return Versus{Estimate: nan, Lo: nan, Hi: nan, Level: nan, Effect: nan, P: nan}
}

// BestRow is one line of best.csv: a configuration ranked on one instance (dataset and the
// other blocks, Plan.Units) by its median there (rank 1 is the best in the metric's
// direction), with its comparison against that instance's best (MAGGA study Table 5.5, per
// instance; docs/analysis.md "Best per dataset").
type BestRow struct {
	Metric string
	// Instance holds the values of Plan.Units (nil for one pooled instance).
	Instance []string
	Rank     int
	Config   string
	Median   float64
	N        int
	// Fixed: the configuration is one value on the instance (a deterministic method's runs).
	Fixed bool
	// P, PHolm and PBH are the p-values of Vs (NaN for the best itself and for an exact
	// difference), adjusted within the metric's instance.
	P, PHolm, PBH float64
	// SameAsBest reports that the configuration is not significantly different from the best:
	// the p-value chosen by the plan's Adjust is ≥ alpha (or undefined); for two fixed values,
	// that they are equal (within 1e-9 relative, as wins).
	SameAsBest bool
	// Vs is the comparison with the instance's best (zero for the best itself).
	Vs Versus
	// RiskMetric and RiskMedian give the configuration's disclosure risk on the instance (the
	// plan's Tradeoff risk metric) beside a loss ranking, so that the best loss is never read
	// without its risk; empty and NaN for the risk metric's own ranking or without a pair.
	RiskMetric string
	RiskMedian float64
	// ParetoWins and ParetoInstances: 1/1 when the configuration is on the instance's (loss,
	// risk) front, 0/1 when it is not, 0/0 without both values.
	ParetoWins, ParetoInstances int

	cfg int // index into Plan.Configs
}

// Best ranks the configurations on every instance (Plan.Units) by their median for each metric
// of p.BestBy and compares each with the instance's best by the test that fits the design
// (Plan.versus). Configurations without a finite value rank last. Cost: linear in the runs and
// the configurations.
func Best(p *Plan, runs *Runs) []BestRow {
	var out []BestRow
	var risk unitSet
	if len(p.Tradeoff) == 2 {
		risk = p.observations(runs, p.Tradeoff[1])
	}
	for _, m := range p.BestBy {
		d := p.dirs[m]
		us := p.observations(runs, m)
		for u, by := range us.by {
			var rows []BestRow
			for c := range p.Configs {
				x, ok := us.obs[u][c]
				if !ok {
					continue
				}
				rows = append(rows, BestRow{Metric: m, Instance: by, Config: p.Configs[c], Median: stats.NewSample(x).Median(), N: len(x), Fixed: !p.random[c] && len(x) == 1,
					P: math.NaN(), PHolm: math.NaN(), PBH: math.NaN(), RiskMedian: math.NaN(), cfg: c, Vs: noVersus()})
			}
			if !slices.ContainsFunc(rows, func(r BestRow) bool { return !math.IsNaN(r.Median) }) {
				continue // no configuration has a value: there is no best
			}
			slices.SortStableFunc(rows, func(a, b BestRow) int { return cmpScore(d.score(a.Median), d.score(b.Median)) })
			best := rows[0].cfg
			ps := make([]float64, len(rows))
			for i := range rows {
				c := rows[i].cfg
				if !math.IsNaN(rows[i].Median) { // no value (e.g. a measure that does not apply): not ranked, Rank 0
					rows[i].Rank = i + 1
				}
				ps[i] = math.NaN()
				if len(p.Tradeoff) == 2 && m != p.Tradeoff[1] {
					rows[i].RiskMetric = p.Tradeoff[1]
					if u2 := risk.find(by); u2 >= 0 {
						if x, ok := risk.obs[u2][c]; ok {
							rows[i].RiskMedian = stats.NewSample(x).Median()
						}
					}
				}
				if i == 0 {
					rows[i].SameAsBest = true
					continue
				}
				rows[i].Vs = p.versus(us.obs[u][c], us.obs[u][best], p.random[c], p.random[best])
				ps[i] = rows[i].Vs.P
			}
			holm, bh := stats.Adjust(nil, ps, stats.Holm), stats.Adjust(nil, ps, stats.BH)
			for i := range rows[1:] {
				r := &rows[i+1]
				r.P, r.PHolm, r.PBH = ps[i+1], holm[i+1], bh[i+1]
				pv := r.P
				switch p.Adjust {
				case stats.Holm:
					pv = r.PHolm
				case stats.BH:
					pv = r.PBH
				}
				if r.Vs.Test == VsDifference {
					r.SameAsBest = math.Abs(r.Vs.Estimate) <= winTol*math.Max(1, math.Abs(rows[0].Median))
				} else {
					r.SameAsBest = !(pv < p.Alpha) && !math.IsNaN(r.Median)
				}
			}
			out = append(out, rows...)
		}
	}
	return out
}

// find returns the index of the instance with the values by, or −1.
func (us unitSet) find(by []string) int {
	if u, ok := us.idx[strings.Join(by, "\x1f")]; ok {
		return u
	}
	return -1
}

// instanceName joins an instance's values for the report; "all" for the pooled instance.
func instanceName(cols, by []string) string {
	if len(by) == 0 {
		return "all"
	}
	parts := make([]string, len(by))
	for i, v := range by {
		if cols[i] == "dataset" {
			parts[i] = v
		} else {
			parts[i] = short(cols[i]) + "=" + v
		}
	}
	return strings.Join(parts, " ")
}

// describe says in words how a comparison came out, for REPORT.md.
func (v Versus) describe() string {
	switch v.Test {
	case "":
		return "no values"
	case VsDifference:
		return fmt.Sprintf("both deterministic: exact difference %s, no test", num(v.Estimate))
	}
	ci := fmt.Sprintf("[%s, %s]", num(v.Lo), num(v.Hi))
	switch {
	case math.IsNaN(v.Lo) || math.IsNaN(v.Hi):
		ci = "(no interval: the values are all tied)"
	case math.Abs(v.Level-0.95) > 1e-9 && !math.IsNaN(v.Level):
		ci += fmt.Sprintf(" (%.3g %% reachable)", 100*v.Level)
	}
	return fmt.Sprintf("%s: difference %s %s, r = %s, p = %s", v.Test, num(v.Estimate), ci, num(v.Effect), num(v.P))
}
