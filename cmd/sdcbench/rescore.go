package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/sdcbench/sdcbench/experiments"
)

func init() {
	commands["rescore"] = command{usage: "rescore --metrics a,b [--quiet] [--no-analyze] DIR", run: runRescore}
}

// runRescore adds measures to a finished results folder from its stored releases
// (experiments.Rescore; docs/harness.md "Stored releases and rescore"), then analyses the
// folder again as run does.
func runRescore(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("rescore", commands["rescore"].usage, stderr)
	list := fs.String("metrics", "", "comma-separated metric IDs to add (see: sdcbench list metrics)")
	quiet := fs.Bool("quiet", false, "no summary line")
	noAnalyze := fs.Bool("no-analyze", false, "skip the analysis (sdcbench analyze) afterwards")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("rescore", "want exactly one results folder DIR, got %d arguments", fs.NArg())
	}
	ids := csvList(*list)
	if len(ids) == 0 {
		return usageErr("rescore", "need --metrics a,b,... (the measures to add)")
	}
	dir := fs.Arg(0)
	rec, err := experiments.Rescore(ctx, dir, ids)
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "sdcbench: %s: added %s to runs.csv from the stored releases\n", dir, strings.Join(rec.Metrics, ", "))
	}
	if *noAnalyze {
		return experiments.WriteSummaryReport(dir)
	}
	var brief io.Writer
	if !*quiet {
		brief = stderr
	}
	return finishFolder(ctx, dir, brief)
}
