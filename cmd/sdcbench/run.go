package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/analysis"
	"github.com/sdcbench/sdcbench/studies"
)

func init() {
	commands["run"] = command{usage: "run [--out DIR] [--workers N] [--shard i/n] [--quiet] [--fresh] [--keep-timeouts] [--keep-releases] [--no-analyze] SPEC", run: runRun}
	commands["merge"] = command{usage: "merge [--fresh] --out DIR DIR...", run: runMerge}
	commands["slurm"] = command{usage: "slurm --shards N [--cpus-per-task C] [--time T] [--partition P] [--mem M] [--out DIR] SPEC", run: runSlurm}
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", commands["run"].usage, stderr)
	out := fs.String("out", "", "results folder (default results/<experiment name>)")
	workers := fs.Int("workers", 0, "concurrent runs (default: number of CPUs)")
	shard := fs.String("shard", "", "run only shard `i/n` of the grid (1 ≤ i ≤ n)")
	quiet := fs.Bool("quiet", false, "no progress output")
	fresh := fs.Bool("fresh", false, "discard earlier results in the output folder")
	keepTimeouts := fs.Bool("keep-timeouts", false, "on a resume, keep the runs recorded with status timeout (default: run them again)")
	noAnalyze := fs.Bool("no-analyze", false, "skip the analysis (sdcbench analyze) when the grid is complete")
	keepReleases := fs.Bool("keep-releases", false, "store each ok run's release in DIR/releases, for sdcbench rescore (as keep_releases = true)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("run", "want exactly one SPEC (a file or a bundled spec name), got %d arguments", fs.NArg())
	}
	if *workers < 0 {
		return usageErr("run", "--workers must be ≥ 1 (got %d)", *workers)
	}
	var sh experiments.Shard
	if *shard != "" {
		var err error
		if sh, err = experiments.ParseShard(*shard); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	spec, err := experiments.Load(fs.Arg(0), studies.Bundled())
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join("results", spec.Name)
	}
	opt := experiments.Options{Out: *out, Workers: *workers, Shard: sh, Fresh: *fresh, KeepTimeouts: *keepTimeouts, KeepReleases: *keepReleases}
	if !*quiet {
		opt.Progress = stderr
	}
	sum, err := experiments.Execute(ctx, spec, opt)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d runs recorded in %s (%d of %d done); rerun the same command to resume",
			sum.Done, *out, sum.Done+sum.Skipped, sum.Total)
	}
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "sdcbench: %s: %d runs (%d new, %d resumed), %d failed, %d timed out, %s; results in %s\n",
			spec.Name, sum.Total, sum.Done, sum.Skipped, sum.Failed, sum.Timeouts, sum.Elapsed.Round(1e7), *out)
	}
	if !sum.Complete || sh.N > 1 {
		return nil
	}
	if *noAnalyze {
		return experiments.WriteSummaryReport(*out)
	}
	var brief io.Writer
	if !*quiet {
		brief = stderr
	}
	return finishFolder(ctx, *out, brief)
}

// finishFolder writes the reports of a complete results folder, the same way after `run` and
// after `merge`: the study report that claims the experiment, if any (its verdicts and
// companion reports recorded in the folder), then REPORT.md, once, through resultsdir: the
// analysis's report, or the runner's summary when the study report or the analysis fails.
// brief (nil for none) receives the analysis digest.
func finishFolder(ctx context.Context, dir string, brief io.Writer) error {
	if err := studyReport(dir, brief); err != nil {
		if serr := experiments.WriteSummaryReport(dir); serr != nil {
			return serr
		}
		return fmt.Errorf("the runs are complete in %s, but the study report failed: %w", dir, err)
	}
	if _, err := analysis.Quick(ctx, dir, studies.Bundled(), brief); err != nil {
		if serr := experiments.WriteSummaryReport(dir); serr != nil {
			return serr
		}
		return fmt.Errorf("the runs are complete in %s, but the analysis failed: %w", dir, err)
	}
	return nil
}

func runMerge(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("merge", commands["merge"].usage, stderr)
	out := fs.String("out", "", "merged results folder (required)")
	fresh := fs.Bool("fresh", false, "discard earlier results of another spec in --out")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return usageErr("merge", "need --out DIR and at least one shard folder")
	}
	if err := experiments.Merge(*out, fs.Args(), *fresh); err != nil {
		return err
	}
	// the merged folder gets its study report and its analysis now, as after a local run
	return finishFolder(ctx, *out, stderr)
}

func runSlurm(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("slurm", commands["slurm"].usage, stderr)
	var o experiments.SlurmOptions
	fs.IntVar(&o.Shards, "shards", 0, "number of array tasks (≥ 1)")
	fs.IntVar(&o.CPUs, "cpus-per-task", 8, "CPUs (and workers) of each array task")
	fs.StringVar(&o.Time, "time", "24:00:00", "time limit of each array task (Slurm format)")
	fs.StringVar(&o.Partition, "partition", "", "Slurm partition (default: the cluster's default)")
	fs.StringVar(&o.Mem, "mem", "", "memory of each array task, e.g. 8G (default: the partition's)")
	fs.StringVar(&o.Out, "out", "", "results folder (default results/<experiment name>)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("slurm", "want exactly one SPEC")
	}
	if o.Shards < 1 {
		return usageErr("slurm", "--shards must be ≥ 1 (got %d)", o.Shards)
	}
	// The scripts need the grid only: the datasets are read on the nodes, not here.
	spec, err := experiments.LoadGrid(fs.Arg(0), studies.Bundled())
	if err != nil {
		return err
	}
	return experiments.SlurmScript(stdout, spec, fs.Arg(0), o)
}
