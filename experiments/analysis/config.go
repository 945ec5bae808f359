package analysis

import (
	"fmt"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// Config is the [analysis] table of an experiment spec (docs/harness.md "Experiment
// specs"). The zero value means the defaults documented on each field; command-line flags
// override it field by field. Column names are runs.csv names; a parameter may be written with
// or without its "param_" prefix ("k" or "param_k").
type Config struct {
	// Metrics are the value columns to analyse. Empty means the spec's metrics list, or else
	// every metric column of runs.csv (components <id>_<name> excluded). "seconds" may be named.
	Metrics []string `toml:"metrics"`
	// Blocks are the blocking factors that pair runs across configurations. Absent (nil) means
	// dataset and param_k, each when present; an empty list means no blocking (pooled, unpaired
	// samples, as MAGGA study §5.2). A parameter block that is empty on some ok rows (a method
	// without that parameter) is dropped from the blocks and joins the configuration, with a
	// warning. The replicate index is never a block (it pairs nothing real): it is dropped from
	// the list with a warning, and a configuration's replicates in a block are aggregated by
	// ReplicateAgg (docs/analysis.md "Replicates").
	Blocks []string `toml:"blocks"`
	// ReplicateAgg reduces a configuration's replicates in one block to the value the paired
	// tests, wins, gaps and the Friedman test use: "mean" (the default, "") or "median".
	ReplicateAgg string `toml:"replicate_agg"`
	// Tradeoff are the (information loss, disclosure risk) pairs of the Pareto fronts, each
	// written ["il1s", "dld"]; a spec may give one pair, tradeoff = ["il1s", "dld"], or several,
	// tradeoff = [["il1s", "dld"], ["il1s", "interval_disclosure"]]. The first pair is the one
	// the R-U maps draw. Empty means Scatter when set, else the spec's first loss metric and
	// first risk metric (IsRisk tells them apart).
	Tradeoff Pairs `toml:"tradeoff"`
	// RiskBound bounds disclosure risk for the recommendation of REPORT.md (docs/analysis.md
	// "The answer first"): risk_bound = {dld = 10} recommends, per instance, the lowest-loss
	// configuration whose median dld is at most 10 (at least 10 for a measure that is better
	// when higher). Several measures may be bounded at once. Absent means no recommendation.
	RiskBound map[string]float64 `toml:"risk_bound"`
	// Configs are the columns that define a configuration. Empty means method plus every parameter
	// that is not a block. MAGGA study Table 5.5 uses ["pe", "pm", "rho_e"] with blocks = [].
	Configs []string `toml:"configs"`
	// Test is "signed-rank" (paired by Blocks), "rank-sum" (unpaired) or "auto" (the default, ""):
	// signed-rank when there are blocks and each configuration has at most one run per block.
	Test string `toml:"test"`
	// Alpha is the significance level; 0 means stats.DefaultThresholds.Alpha (0.05).
	Alpha float64 `toml:"alpha"`
	// Adjust is the p-value that decides "not significantly different from the best" in
	// best.csv: "none" (the default, "", as MAGGA study L2347-2351), "holm" or "BH".
	Adjust string `toml:"adjust"`
	// BestBy are the metrics ranked in best.csv. Empty means every analysed metric.
	BestBy []string `toml:"best_by"`
	// WinsBy are the grid columns reported separately in wins.csv and gaps.csv (metrics.md §6.1:
	// "per (measure, k, method)"). Absent means param_k when it is a block; [] means none.
	WinsBy []string `toml:"wins_by"`
	// Instances are the columns whose values make an instance for wins and gaps. Empty means the
	// blocks other than WinsBy, or dataset when that leaves none. Several runs of one
	// configuration on one instance are reduced to their median.
	Instances []string `toml:"instances"`
	// Higher lists value columns that are better when higher and are not registered metrics
	// (registered metrics take their direction from the metrics registry; others are lower-better).
	Higher []string `toml:"higher"`
	// Scatter is the older name of Tradeoff, used when Tradeoff is not set. Empty means
	// the first of sse_sst, il1s, pil, il3 and the first of dld, interval_disclosure, dbrl, id_rank, dr
	// among the metrics, else the first two metrics.
	Scatter []string `toml:"scatter"`
	// Curves are the parameters of the metric-vs-parameter plots. Empty means every numeric
	// parameter with at least two values (ε for DP, c for FCRM, noise level for perturbation, k).
	Curves []string `toml:"curves"`
	// Wins, Gaps, Friedman and Plots turn those parts off when false; absent means on.
	Wins     *bool `toml:"wins"`
	Gaps     *bool `toml:"gaps"`
	Friedman *bool `toml:"friedman"`
	Plots    *bool `toml:"plots"`
	// SVG turns off the SVG copies of the plots when false (PNG only); absent means on.
	SVG *bool `toml:"svg"`
	// Means turns off REPORT.md's per-dataset means table (one row per method and parameter
	// setting) when false, for grids whose settings run into the thousands; absent means on.
	// summary.csv has the same numbers per configuration either way.
	Means *bool `toml:"means"`
	// Seed is a CSV of a seed's published numbers to put beside ours (see CompareSeed). A
	// relative path is looked up in the results folder, then the working directory, then
	// Bundled. Empty means <results>/seed.csv, else studies/*/<name>.expected.csv (from the
	// repository's root), else the bundled <name>.expected.csv, if one exists.
	Seed string `toml:"seed"`
	// Table asks for literature-style tables (rows = methods, columns = dataset × k); see
	// TableConfig. Absent means none.
	Table TableConfig `toml:"table"`

	// Bundled holds the files bundled with the experiments, flat: <name>.expected.csv (the
	// published numbers) and <name>.notes.md (REPORT.md's notes). The caller sets it (the CLI
	// passes the studies' files); nil means none. It is not part of the [analysis] table.
	Bundled fs.FS `toml:"-"`
}

// Pairs are (loss, risk) metric pairs. In a spec they are written as one pair
// (["il1s", "dld"]) or a list of pairs ([["il1s", "dld"], ["il1s", "id_rank"]]).
type Pairs [][]string

// UnmarshalTOML decodes either form of Pairs; anything else is an error naming the key.
func (ps *Pairs) UnmarshalTOML(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("analysis: tradeoff must be a pair [\"loss\", \"risk\"] or a list of pairs, have %v", v)
	}
	var one []string
	var many [][]string
	for _, e := range list {
		switch e := e.(type) {
		case string:
			one = append(one, e)
		case []any:
			var pair []string
			for _, m := range e {
				s, ok := m.(string)
				if !ok {
					return fmt.Errorf("analysis: tradeoff: %v is not a metric name", m)
				}
				pair = append(pair, s)
			}
			many = append(many, pair)
		default:
			return fmt.Errorf("analysis: tradeoff: %v is neither a metric name nor a pair", e)
		}
	}
	switch {
	case one != nil && many != nil:
		return fmt.Errorf("analysis: tradeoff mixes metric names and pairs")
	case one != nil:
		*ps = Pairs{one}
	default:
		*ps = many
	}
	return nil
}

// Replicate aggregates.
const (
	AggMean   = "mean"
	AggMedian = "median"
)

// Test names.
const (
	TestAuto       = "auto"
	TestSignedRank = "signed-rank"
	TestRankSum    = "rank-sum"
)

func on(b *bool) bool { return b == nil || *b }

// Bool returns a pointer to b, for the on/off fields of Config.
func Bool(b bool) *bool { return &b }

// alpha returns the resolved significance level.
func (c *Config) alpha() float64 {
	if c.Alpha == 0 {
		return stats.DefaultThresholds.Alpha
	}
	return c.Alpha
}

// Validate checks the values that do not depend on the data, naming the offending key.
func (c *Config) Validate() error {
	if c.Alpha != 0 && !(c.Alpha > 0 && c.Alpha < 1) {
		return fmt.Errorf("analysis: alpha must be in (0, 1), have %v", c.Alpha)
	}
	switch c.Test {
	case "", TestAuto, TestSignedRank, TestRankSum:
	default:
		return fmt.Errorf("analysis: test must be auto, signed-rank or rank-sum, have %q", c.Test)
	}
	switch stats.Adjustment(c.Adjust) {
	case "", stats.NoAdjust, stats.Holm, stats.BH:
	default:
		return fmt.Errorf("analysis: adjust must be none, holm or BH, have %q", c.Adjust)
	}
	switch c.ReplicateAgg {
	case "", AggMean, AggMedian:
	default:
		return fmt.Errorf("analysis: replicate_agg must be mean or median, have %q", c.ReplicateAgg)
	}
	for i, pair := range c.Tradeoff {
		if len(pair) != 2 {
			return fmt.Errorf("analysis: tradeoff: pair %d needs two metrics (loss, risk), have %d", i+1, len(pair))
		}
	}
	for _, m := range slices.Sorted(maps.Keys(c.RiskBound)) {
		v := c.RiskBound[m]
		if m == "" || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("analysis: risk_bound: %q = %v: need a metric name and a finite bound", m, v)
		}
	}
	if len(c.Scatter) != 0 && len(c.Scatter) != 2 {
		return fmt.Errorf("analysis: scatter needs two metrics (loss, risk), have %d", len(c.Scatter))
	}
	return nil
}

// SpecConfig returns the [analysis] table of a spec, read by the one spec reader
// (experiments.Decode) and validated. Unknown keys inside [analysis] are an error naming the
// key; the rest of the spec is the runner's business and is not checked here.
func SpecConfig(s *experiments.Spec) (Config, error) {
	var cfg Config
	if err := s.AnalysisTable(&cfg); err != nil {
		return Config{}, fmt.Errorf("analysis: spec: %w", err)
	}
	if s.AnalysisKeyDefined("alpha") && !(cfg.Alpha > 0 && cfg.Alpha < 1) {
		// 0 in the zero Config means the default; written in the spec it is a mistake.
		return Config{}, fmt.Errorf("analysis: alpha must be in (0, 1), have %v", cfg.Alpha)
	}
	if s.AnalysisKeyDefined("risk_bound") && cfg.RiskBound == nil {
		return Config{}, fmt.Errorf("analysis: risk_bound must be a table of bounds such as {dld = 10}")
	}
	return cfg, cfg.Validate()
}

func init() {
	experiments.SetAnalysisCheck(func(s *experiments.Spec) error {
		_, err := SpecConfig(s)
		return err
	})
}

// paramName returns the runs.csv name of a column written by a user: "k" becomes "param_k"
// when runs.csv has that column and no plain "k".
func paramName(header []string, name string) string {
	if slices.Contains(header, name) {
		return name
	}
	if p := "param_" + name; slices.Contains(header, p) {
		return p
	}
	return name
}

// short returns a column name without its "param_" prefix, for labels.
func short(col string) string { return strings.TrimPrefix(col, "param_") }
