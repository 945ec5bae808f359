package analysis

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/metrics"
)

// Plan is a Config resolved against a runs table: every default filled in, every name checked.
type Plan struct {
	Metrics    []string // value columns analysed
	BestBy     []string
	Blocks     []string // blocking factors actually used
	ConfigCols []string // columns that make a configuration
	WinsBy     []string
	Instances  []string
	Test       string // TestSignedRank or TestRankSum
	// ReplicateAgg is AggMean or AggMedian: how replicates in a block are reduced.
	ReplicateAgg string
	Alpha        float64
	Adjust       stats.Adjustment
	Scatter      []string // (loss, risk), or nil when the metrics have no such pair
	// Tradeoff is the (information loss, disclosure risk) pair of the Pareto fronts, or nil: the
	// first of Tradeoffs, the one the plots draw.
	Tradeoff []string
	// Tradeoffs are every declared (loss, risk) pair (Config.Tradeoff); each gets its fronts.
	Tradeoffs [][]string
	// RiskBound is Config.RiskBound with runs.csv names: the recommendation's bounds.
	RiskBound map[string]float64
	// Units are the columns whose values make one instance of the verdicts of best.csv (the
	// blocks; see Plan.resolveUnits), nil for one pooled instance.
	Units      []string
	Curves     []string // numeric parameter columns for metric-vs-parameter plots
	Wins, Gaps bool
	Friedman   bool
	Means      bool
	Plots      bool
	SVG        bool // SVG copies of the plots beside the PNGs
	// Configs are the configurations in order of first appearance in runs.csv.
	Configs []string
	// Warnings are decisions the report should mention (dropped blocks, a fallback test).
	Warnings []string

	dirs      map[string]direction
	labelCols []string               // ConfigCols that appear in the labels
	config    []int                  // per run: index into Configs, −1 for runs that are not ok
	random    []bool                 // per configuration: a randomized method (Plan.randomized)
	block     []string               // per run: block key
	cell      []string               // per run: dataset and every parameter; replicates share it
	pairs     func(a, b string) bool // restricts Pairwise when not nil (baseline comparisons)
}

// direction says how a metric's values are compared: scores are lower-better.
type direction struct {
	better metrics.Direction
	target float64
}

// score maps a value to a lower-is-better score: v, −v, or |v − target|; non-finite stays NaN.
func (d direction) score(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.NaN()
	}
	switch d.better {
	case metrics.Higher:
		return -v
	case metrics.Target:
		return math.Abs(v - d.target)
	}
	return v
}

func (d direction) String() string {
	if d.better == metrics.Target {
		return fmt.Sprintf("target %g", d.target)
	}
	if d.better == metrics.Higher {
		return "higher"
	}
	return "lower"
}

// Resolve fills in the defaults of c for runs. specMetrics is the spec's metrics list (may be
// nil). It returns an error naming the key when a column does not exist or the paired test is
// asked for but impossible.
func (c Config) Resolve(runs *Runs, specMetrics []string) (*Plan, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p := &Plan{Alpha: c.alpha(), Adjust: stats.Adjustment(c.Adjust), dirs: map[string]direction{}, ReplicateAgg: c.ReplicateAgg,
		Wins: on(c.Wins), Gaps: on(c.Gaps), Friedman: on(c.Friedman), Plots: on(c.Plots), Means: on(c.Means), SVG: on(c.SVG)}
	if p.Adjust == "" {
		p.Adjust = stats.NoAdjust
	}
	if p.ReplicateAgg == "" {
		p.ReplicateAgg = AggMean
	}
	hdr := runs.Header
	cols := func(key string, names []string, numeric bool) ([]string, error) {
		out := make([]string, 0, len(names))
		for _, n := range names {
			n = paramName(hdr, n)
			ok := runs.Col(n) >= 0
			if numeric {
				ok = runs.ValueCol(n) >= 0
			}
			if !ok {
				return nil, fmt.Errorf("analysis: %s: no column %q in runs.csv", key, n)
			}
			out = append(out, n)
		}
		return out, nil
	}
	var err error
	// Metrics.
	switch {
	case len(c.Metrics) > 0:
		if p.Metrics, err = cols("metrics", c.Metrics, true); err != nil {
			return nil, err
		}
	default:
		for _, m := range specMetrics {
			if runs.ValueCol(m) < 0 { // a damaged or foreign runs.csv: do not drop the metric silently
				return nil, fmt.Errorf("analysis: runs.csv has no column %q for the spec's metric %s", m, m)
			}
			p.Metrics = append(p.Metrics, m)
		}
		if len(p.Metrics) == 0 {
			p.Metrics = metricColumns(runs.Values)
		}
	}
	if len(p.Metrics) == 0 {
		return nil, fmt.Errorf("analysis: runs.csv has no metric columns")
	}
	for _, m := range p.Metrics {
		p.dirs[m] = directionOf(m, c.Higher)
	}
	if p.BestBy, err = cols("best_by", c.BestBy, true); err != nil {
		return nil, err
	}
	if len(p.BestBy) == 0 {
		p.BestBy = p.Metrics
	}
	for _, m := range p.BestBy {
		if _, ok := p.dirs[m]; !ok {
			p.dirs[m] = directionOf(m, c.Higher)
		}
	}
	// Blocks: a parameter block must be set on every ok row.
	var blocks []string
	if c.Blocks == nil {
		for _, b := range []string{"dataset", "param_k"} {
			if runs.Col(b) >= 0 {
				blocks = append(blocks, b)
			}
		}
	} else if blocks, err = cols("blocks", c.Blocks, false); err != nil {
		return nil, err
	}
	for _, b := range blocks {
		if b == "replicate" || b == "seed" || b == "run_id" {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s is not a block: replicates are independent draws, not matched units; they are aggregated per block (%s)", b, p.ReplicateAgg))
			continue
		}
		if strings.HasPrefix(b, "param_") && emptyOnSomeRun(runs, b) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s is not a block: some methods have no %s, so it is part of the configuration", b, short(b)))
			continue
		}
		p.Blocks = append(p.Blocks, b)
	}
	// Configuration columns.
	if len(c.Configs) > 0 {
		if p.ConfigCols, err = cols("configs", c.Configs, false); err != nil {
			return nil, err
		}
	} else {
		p.ConfigCols = []string{"method"}
		for _, q := range runs.Params {
			if !slices.Contains(p.Blocks, q) {
				p.ConfigCols = append(p.ConfigCols, q)
			}
		}
	}
	for _, c := range p.ConfigCols {
		if c == "replicate" || c == "seed" || c == "run_id" {
			return nil, fmt.Errorf("analysis: configs: %s cannot define a configuration", c)
		}
	}
	// Wins and instances.
	if c.WinsBy == nil {
		if slices.Contains(p.Blocks, "param_k") {
			p.WinsBy = []string{"param_k"}
		}
	} else if p.WinsBy, err = cols("wins_by", c.WinsBy, false); err != nil {
		return nil, err
	}
	if len(c.Instances) > 0 {
		if p.Instances, err = cols("instances", c.Instances, false); err != nil {
			return nil, err
		}
	} else {
		for _, b := range p.Blocks {
			if !slices.Contains(p.WinsBy, b) {
				p.Instances = append(p.Instances, b)
			}
		}
		if len(p.Instances) == 0 && !slices.Contains(p.WinsBy, "dataset") {
			p.Instances = []string{"dataset"}
		}
	}
	p.assign(runs)
	// The test.
	dup := p.duplicateBlocks(runs)
	switch c.Test {
	case "", TestAuto:
		p.Test = TestRankSum
		switch nb := p.distinctBlocks(); {
		case len(p.Blocks) > 0 && dup == "" && nb == 1:
			p.Warnings = append(p.Warnings, "unpaired rank-sum tests: all runs are in one block, so configurations are compared as independent samples of their (distinct) replicates")
		case len(p.Blocks) > 0 && dup == "":
			p.Test = TestSignedRank
		case len(p.Blocks) > 0:
			p.Warnings = append(p.Warnings, "unpaired rank-sum tests: "+dup)
		}
	case TestSignedRank:
		if len(p.Blocks) == 0 {
			return nil, fmt.Errorf("analysis: test: signed-rank needs blocks")
		}
		if dup != "" {
			return nil, fmt.Errorf("analysis: test: signed-rank impossible: %s", dup)
		}
		p.Test = TestSignedRank
	default:
		p.Test = TestRankSum
	}
	// Plots.
	if len(c.Scatter) == 2 {
		if p.Scatter, err = cols("scatter", c.Scatter, true); err != nil {
			return nil, err
		}
	} else {
		p.Scatter = defaultScatter(p.Metrics)
	}
	for _, m := range p.Scatter {
		p.dirs[m] = directionOf(m, c.Higher)
	}
	if len(c.Tradeoff) > 0 {
		for _, pair := range c.Tradeoff {
			tp, err := cols("tradeoff", pair, true)
			if err != nil {
				return nil, err
			}
			p.Tradeoffs = append(p.Tradeoffs, tp)
		}
		p.Tradeoff = p.Tradeoffs[0]
	} else if len(c.Scatter) == 2 {
		p.Tradeoff = p.Scatter
	} else {
		ms := specMetrics
		if len(ms) == 0 {
			ms = p.Metrics
		}
		var avail []string
		for _, m := range ms {
			if runs.ValueCol(m) >= 0 {
				avail = append(avail, m)
			}
		}
		p.Tradeoff = defaultTradeoff(avail, p.Scatter)
	}
	if p.Tradeoffs == nil && p.Tradeoff != nil {
		p.Tradeoffs = [][]string{p.Tradeoff}
	}
	for _, pair := range p.Tradeoffs {
		for _, m := range pair {
			p.dirs[m] = directionOf(m, c.Higher)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(c.RiskBound)) {
		col := paramName(hdr, m)
		if runs.ValueCol(col) < 0 {
			return nil, fmt.Errorf("analysis: risk_bound: no column %q in runs.csv", m)
		}
		if p.RiskBound == nil {
			p.RiskBound = map[string]float64{}
		}
		p.RiskBound[col] = c.RiskBound[m]
		p.dirs[col] = directionOf(col, c.Higher)
	}
	p.resolveUnits(runs)
	if len(c.Curves) > 0 {
		if p.Curves, err = cols("curves", c.Curves, false); err != nil {
			return nil, err
		}
	} else {
		for _, q := range runs.Params {
			if len(numericLevels(runs, q)) >= 2 {
				p.Curves = append(p.Curves, q)
			}
		}
	}
	return p, nil
}

// metricColumns returns the value columns that are metrics: not seconds and not a component
// <id>_<name> of another column, unless the registry knows the name as a metric.
func metricColumns(values []string) []string {
	var out []string
	for _, v := range values {
		if v == "seconds" {
			continue
		}
		if _, err := metrics.Lookup(v); err == nil {
			out = append(out, v)
			continue
		}
		comp := false
		for _, m := range values {
			if m != v && strings.HasPrefix(v, m+"_") {
				comp = true
			}
		}
		if !comp {
			out = append(out, v)
		}
	}
	return out
}

// directionOf returns the direction of a value column: the registry's for a metric, lower for
// seconds and unknown columns, higher for those listed in higher.
func directionOf(col string, higher []string) direction {
	if slices.Contains(higher, col) {
		return direction{better: metrics.Higher}
	}
	if m, err := metrics.Lookup(col); err == nil {
		info := m.Info()
		if info.Better == metrics.Higher || info.Better == metrics.Target {
			return direction{better: info.Better, target: info.Target}
		}
	}
	return direction{better: metrics.Lower}
}

// utilityWord names the role of a trade-off's first measure: "loss" when lower is better (the
// registry's direction), "utility" when higher is, as kmarginal.
func utilityWord(col string) string {
	if directionOf(col, nil).better == metrics.Higher {
		return "utility"
	}
	return "loss"
}

func defaultScatter(ms []string) []string {
	pick := func(cands ...string) string {
		for _, c := range cands {
			if slices.Contains(ms, c) {
				return c
			}
		}
		return ""
	}
	il := pick("sse_sst", "il1s", "pil", "il3", "il3_code")
	risk := pick("dld", "interval_disclosure", "dbrl", "id_rank", "dr", "sdid")
	if il != "" && risk != "" {
		return []string{il, risk}
	}
	if len(ms) >= 2 {
		return ms[:2]
	}
	return nil
}

func emptyOnSomeRun(runs *Runs, col string) bool {
	j := runs.Col(col)
	for _, r := range runs.Rows {
		if r.OK && r.Cells[j] == "" {
			return true
		}
	}
	return false
}

// numericLevels returns the distinct numeric values of a column over the ok runs, sorted.
func numericLevels(runs *Runs, col string) []float64 {
	j := runs.Col(col)
	var out []float64
	for _, r := range runs.Rows {
		if !r.OK || r.Cells[j] == "" {
			continue
		}
		v, err := parseFloat(r.Cells[j])
		if err != nil {
			return nil
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// key joins the values of cols in run i.
func key(runs *Runs, i int, cols []string) string {
	parts := make([]string, len(cols))
	for k, c := range cols {
		parts[k] = runs.Get(i, c)
	}
	return strings.Join(parts, "\x1f")
}

// label returns the human name of run i's value of cols: the method name, then name=value for
// each non-empty parameter. A run with a parameter label (the command method's free name for a
// program, e.g. "sdcMicro addNoise") is named by it instead of its method and the command's own
// settings (cmd, version, version_cmd, deterministic) when useLabel is set.
func label(runs *Runs, i int, cols []string, useLabel bool) string {
	var parts []string
	named := useLabel && slices.Contains(cols, "param_label") && runs.Get(i, "param_label") != ""
	for _, c := range cols {
		v := runs.Get(i, c)
		switch {
		case v == "":
		case named && (c == "method" || commandSetting[c]):
		case named && c == "param_label":
			parts = append(parts, v)
		case c == "method" || c == "dataset":
			parts = append(parts, v)
		default:
			parts = append(parts, short(c)+"="+v)
		}
	}
	if len(parts) == 0 {
		return "(all)"
	}
	return strings.Join(parts, " ")
}

// commandSetting lists the parameters of the command method that a label replaces in a
// configuration's name.
var commandSetting = map[string]bool{"param_cmd": true, "param_version": true, "param_version_cmd": true, "param_deterministic": true}

// assign gives every ok run its configuration and block. Labels name the method and the
// configuration columns with more than one non-empty value across the ok runs (a parameter every
// run that has it sets alike, such as standardize=zscore, is left out of the labels).
func (p *Plan) assign(runs *Runs) {
	p.config = make([]int, len(runs.Rows))
	p.block = make([]string, len(runs.Rows))
	p.cell = make([]string, len(runs.Rows))
	cellCols := append([]string{"method", "dataset"}, runs.Params...)
	idx := map[string]int{}
	var labelCols []string
	for _, c := range p.ConfigCols {
		j := runs.Col(c)
		first, varies := "", false
		seen := false
		for _, r := range runs.Rows {
			if !r.OK || r.Cells[j] == "" {
				continue
			}
			if !seen {
				first, seen = r.Cells[j], true
			} else if r.Cells[j] != first {
				varies = true
				break
			}
		}
		// The column-selection options of a [[methods]] entry (param_sel_strata, ...) name a
		// variant: labelled whenever set, even when one value occurs.
		if varies || c == "method" || strings.HasPrefix(c, "param_sel_") {
			labelCols = append(labelCols, c)
		}
	}
	p.labelCols = labelCols
	known := map[string]bool{}
	for i, r := range runs.Rows {
		p.config[i] = -1
		if !r.OK {
			continue
		}
		k := key(runs, i, p.ConfigCols)
		c, ok := idx[k]
		if !ok {
			c = len(p.Configs)
			idx[k] = c
			name := label(runs, i, labelCols, true)
			if slices.Contains(p.Configs, name) { // two settings under one label: name them in full
				name = label(runs, i, labelCols, false)
			}
			p.Configs = append(p.Configs, name)
			p.random = append(p.random, false)
		}
		// A method that declares a run deterministic (command's deterministic = true) is not
		// randomized whatever its registry entry says.
		if m := runs.Get(i, "method"); m != "" && randomized(m, known) && runs.Get(i, "param_deterministic") != "true" {
			p.random[c] = true
		}
		p.config[i] = c
		p.block[i] = key(runs, i, p.Blocks)
		p.cell[i] = key(runs, i, cellCols)
	}
}

// distinctBlocks counts the blocks of the ok runs.
func (p *Plan) distinctBlocks() int {
	seen := map[string]bool{}
	for i, c := range p.config {
		if c >= 0 {
			seen[p.block[i]] = true
		}
	}
	return len(seen)
}

// duplicateBlocks describes the first configuration with runs of two different settings
// (dataset and parameters) in one block, or "". Replicates of one setting share a block: they are
// aggregated, not paired.
func (p *Plan) duplicateBlocks(runs *Runs) string {
	seen := map[string]string{}
	for i, c := range p.config {
		if c < 0 {
			continue
		}
		k := fmt.Sprint(c, "\x1e", p.block[i])
		if cell, ok := seen[k]; ok && cell != p.cell[i] {
			return fmt.Sprintf("configuration %q has runs of several settings in block (%s)", p.Configs[c],
				strings.ReplaceAll(p.block[i], "\x1f", ", "))
		}
		seen[k] = p.cell[i]
	}
	return ""
}
