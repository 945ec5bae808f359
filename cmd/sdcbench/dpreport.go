package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/dpreport"
)

func init() {
	commands["dp-report"] = command{usage: "dp-report [--name dp-eN] DIR...", run: runDPReport}
}

// runDPReport writes the seed 002 reproduction report (DP.md and plots) of each results
// folder; the experiment is the folder's base name unless --name says otherwise.
func runDPReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("dp-report", commands["dp-report"].usage, stderr)
	name := fs.String("name", "", "experiment (`dp-e1` … dp-e10); default: the folder's base name")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("dp-report", "want at least one results folder")
	}
	if *name != "" && fs.NArg() > 1 {
		return usageErr("dp-report", "--name needs exactly one folder (got %d)", fs.NArg())
	}
	for _, dir := range fs.Args() {
		n := *name
		if n == "" {
			n = filepath.Base(filepath.Clean(dir))
		}
		if !strings.HasPrefix(n, "dp-e") {
			return usageErr("dp-report", "cannot tell the experiment of %s: name it with --name dp-eN", dir)
		}
		if err := dpreport.Write(dir, n); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, "DP.md"))
	}
	return nil
}
