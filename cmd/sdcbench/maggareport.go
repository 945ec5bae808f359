package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/maggareport"
)

func init() {
	commands["magga-report"] = command{usage: "magga-report [--out FILE] calibration|final|fig51 DIR", run: runMaggaReport}
}

// runMaggaReport writes the seed-000 MAGGA report of a results folder to DIR/MAGGA.md (or --out).
func runMaggaReport(_ context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("magga-report", commands["magga-report"].usage, stderr)
	out := fs.String("out", "", "output `file` (default DIR/MAGGA.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 || !slices.Contains(maggareport.Kinds, fs.Arg(0)) {
		return usageErr("magga-report", "want a report kind (calibration, final or fig51) and a results folder")
	}
	if *out == "" {
		*out = filepath.Join(fs.Arg(1), "MAGGA.md")
	}
	var buf bytes.Buffer
	if err := maggareport.Write(&buf, fs.Arg(0), fs.Arg(1)); err != nil {
		return err
	}
	return datasets.AtomicWrite(*out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
}
