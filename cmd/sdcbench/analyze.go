package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/analysis"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/studies"
)

func init() {
	commands["analyze"] = command{
		usage: "analyze [--metrics a,b] [--blocks a,b|none] [--configs a,b] [--test auto|signed-rank|rank-sum] [--alpha A] [--adjust none|holm|BH] [--replicate-agg mean|median] [--tradeoff loss,risk] [--baseline OLD_DIR]... [--no-plots] [--seed FILE] [--out DIR] [more: analyze -h] DIR",
		run:   runAnalyze,
	}
}

// runAnalyze analyses a results folder: tables, plots and REPORT.md (docs/harness.md
// "Analysis"). The spec's [analysis] table (from DIR/manifest.json, or --spec) gives the
// defaults; each flag that is set overrides its field.
func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("analyze", commands["analyze"].usage, stderr)
	list := func(name, help string) *string { return fs.String(name, "", help) }
	metrics := list("metrics", "value columns to analyse, comma-separated (default: the spec's metrics)")
	blocks := list("blocks", "blocking factors for pairing, comma-separated, or `none` (default: dataset, k)")
	repAgg := fs.String("replicate-agg", "", "how a configuration's replicates in a block are reduced: mean or median (default mean)")
	tradeoff := list("tradeoff", "`loss,risk` metrics of the Pareto fronts, several pairs separated by ';' (default: the spec's first loss and first risk metric)")
	var baselines []string
	fs.Func("baseline", "archived results `OLD_DIR` to test DIR's configurations against (repeatable); written to DIR/baseline-NAME/", func(s string) error {
		baselines = append(baselines, s)
		return nil
	})
	reanalysis := fs.Bool("reanalysis", false, "write reanalysis.md: what changed against the tables this analysis replaces")
	trust := fs.Bool("trust-unversioned", false, "with --baseline: accept folders that record no metric versions or dataset hashes")
	configs := list("configs", "columns that define a configuration (default: method and its non-block parameters)")
	test := fs.String("test", "", "pairwise test: auto, signed-rank or rank-sum (default auto)")
	alpha := fs.Float64("alpha", 0, "significance level in (0, 1) (default 0.05)")
	adjust := fs.String("adjust", "", "p-value deciding \"not different from the best\": none, holm or BH (default none)")
	bestBy := list("best-by", "metrics ranked in best.csv (default: all)")
	winsBy := list("wins-by", "grid columns reported separately in wins/gaps, or `none` (default: k when it is a block)")
	instances := list("instances", "columns that make an instance for wins and gaps (default: the other blocks)")
	scatter := list("scatter", "`loss,risk` metrics of the scatter plot")
	curves := list("curves", "parameters of the metric-vs-parameter plots (default: numeric parameters)")
	noPlots := fs.Bool("no-plots", false, "skip the plots")
	noSVG := fs.Bool("no-svg", false, "PNG plots only, no SVG copies")
	noWins := fs.Bool("no-wins", false, "skip wins.csv")
	noGaps := fs.Bool("no-gaps", false, "skip gaps.csv")
	noFriedman := fs.Bool("no-friedman", false, "skip friedman.csv")
	noMeans := fs.Bool("no-means", false, "leave REPORT.md's per-dataset means table out")
	seed := fs.String("seed", "", "CSV of the study's published numbers (default: DIR/seed.csv or the study's NAME.expected.csv)")
	spec := fs.String("spec", "", "read the [analysis] table from this spec `FILE` instead of DIR/manifest.json")
	out := fs.String("out", "", "write the tables, plots and REPORT.md here (default DIR)")
	quiet := fs.Bool("quiet", false, "print nothing on success")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("analyze", "want exactly one results folder DIR, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	alphaSet := false
	fs.Visit(func(f *flag.Flag) { alphaSet = alphaSet || f.Name == "alpha" })
	if (alphaSet || *alpha != 0) && !(*alpha > 0 && *alpha < 1) {
		return usageErr("analyze", "--alpha must be in (0, 1) (got %v)", *alpha)
	}
	if len(baselines) > 0 && *out != "" && !samePath(*out, dir) {
		// RunBaseline writes under DIR/baseline-NAME/ and reads DIR's tables: an --out elsewhere
		// used to drop the baseline silently.
		return usageErr("analyze", "--baseline writes DIR/baseline-NAME/ and cannot be combined with --out %s; "+
			"run the baseline comparison without --out", *out)
	}
	var cfg analysis.Config
	var err error
	if *spec != "" {
		text, rerr := experiments.ReadSpecFile(*spec)
		if rerr != nil {
			return rerr
		}
		var s *experiments.Spec
		if s, err = experiments.Decode(text, *spec); err == nil {
			cfg, err = analysis.SpecConfig(s)
		}
	} else {
		cfg, err = analysis.LoadConfig(dir)
	}
	if err != nil {
		return err
	}
	split := func(s string) []string { // "none" is an explicit empty list
		if s == "none" {
			return []string{}
		}
		return csvList(s)
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "metrics":
			cfg.Metrics = split(*metrics)
		case "blocks":
			cfg.Blocks = split(*blocks)
		case "replicate-agg":
			cfg.ReplicateAgg = *repAgg
		case "tradeoff":
			cfg.Tradeoff = nil
			for _, pair := range strings.Split(*tradeoff, ";") {
				cfg.Tradeoff = append(cfg.Tradeoff, split(pair))
			}
		case "configs":
			cfg.Configs = split(*configs)
		case "test":
			cfg.Test = *test
		case "alpha":
			cfg.Alpha = *alpha
		case "adjust":
			cfg.Adjust = *adjust
		case "best-by":
			cfg.BestBy = split(*bestBy)
		case "wins-by":
			cfg.WinsBy = split(*winsBy)
		case "instances":
			cfg.Instances = split(*instances)
		case "scatter":
			cfg.Scatter = split(*scatter)
		case "curves":
			cfg.Curves = split(*curves)
		case "no-plots":
			cfg.Plots = analysis.Bool(!*noPlots)
		case "no-svg":
			cfg.SVG = analysis.Bool(!*noSVG)
		case "no-wins":
			cfg.Wins = analysis.Bool(!*noWins)
		case "no-gaps":
			cfg.Gaps = analysis.Bool(!*noGaps)
		case "no-friedman":
			cfg.Friedman = analysis.Bool(!*noFriedman)
		case "no-means":
			cfg.Means = analysis.Bool(!*noMeans)
		case "seed":
			cfg.Seed = *seed
		}
	})
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: analyze: %v", errUsage, err)
	}
	cfg.Bundled = studies.Bundled()
	res, err := analysis.Analyze(ctx, dir, cfg)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = dir
	}
	var prev *analysis.Previous
	if *reanalysis {
		if prev, err = analysis.ReadPrevious(*out); err != nil {
			return err
		}
		if prev == nil {
			return fmt.Errorf("analyze: --reanalysis: %s has no previous wilcoxon.csv", *out)
		}
	}
	if err := res.Write(ctx, *out); err != nil {
		return err
	}
	if prev != nil {
		if err := res.WriteReanalysis(*out, prev); err != nil {
			return err
		}
	}
	if !*quiet {
		if err := res.WriteBrief(stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(*out, resultsdir.ReportFile))
	}
	for _, old := range baselines {
		bres, err := analysis.RunBaseline(ctx, old, dir, cfg, analysis.BaselineOptions{TrustUnversioned: *trust})
		if err != nil {
			return err
		}
		if !*quiet {
			fmt.Fprintf(stdout, "baseline %s: %d configurations, report: %s\n", old, len(bres.Plan.Configs), filepath.Join(analysis.BaselineDir(old, dir), resultsdir.ReportFile))
		}
	}
	return nil
}
