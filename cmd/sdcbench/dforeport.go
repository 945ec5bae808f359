package main

import (
	"context"
	"io"
	"path/filepath"

	"github.com/sdcbench/sdcbench/experiments/dforeport"
)

func init() {
	commands["dfo-report"] = command{usage: "dfo-report [DIR]", run: runDFOReport}
}

// runDFOReport writes DIR/DFO.md (default results/dfo-benchmarks): the seed 001 Tables 1–3
// beside the dfo-benchmarks runs, with a verdict per cell.
func runDFOReport(_ context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("dfo-report", commands["dfo-report"].usage, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dir := filepath.Join("results", "dfo-benchmarks")
	switch fs.NArg() {
	case 0:
	case 1:
		dir = fs.Arg(0)
	default:
		return usageErr("dfo-report", "want at most one results folder, got %d arguments", fs.NArg())
	}
	return dforeport.Write(dir)
}
