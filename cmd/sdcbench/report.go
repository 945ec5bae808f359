package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/analysis"
	"github.com/sdcbench/sdcbench/studies"
)

func init() {
	commands["report"] = command{usage: "report DIR...", run: runReport}
	commands["status"] = command{usage: "status [--results DIR] [--out FILE]", run: runStatus}
}

// runReport writes the study report of each results folder: the report of the study that owns
// the experiment named in DIR/manifest.json puts the publication's tables beside the runs and
// records its verdicts in DIR/verdicts.csv. An analysed folder's report.html, which includes
// the companion reports, is written again (analysis.RefreshHTML); for an analysed folder whose
// experiment has no study report that is all report does.
func runReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", commands["report"].usage, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("report", "want at least one results folder")
	}
	for _, dir := range fs.Args() {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("report: %s is not a results folder (%v)", dir, cmp.Or(err, errors.New("not a directory")))
		}
		name, err := studies.Write(dir)
		noStudy := errors.Is(err, studies.ErrNoReporter)
		if err != nil && !noStudy {
			return err
		}
		if !noStudy {
			fmt.Fprintf(stdout, "%s: %s report written\n", dir, name)
		}
		ok, herr := analysis.RefreshHTML(dir)
		switch {
		case herr != nil:
			return herr
		case ok && noStudy:
			fmt.Fprintf(stdout, "%s: no study report for this experiment; %s rewritten\n", dir, analysis.HTMLFile)
		case ok:
			fmt.Fprintf(stdout, "%s: %s rewritten with the report\n", dir, analysis.HTMLFile)
		case noStudy:
			// Neither a study report nor an analysed folder: nothing to write.
			return err
		}
	}
	return nil
}

// studyReport runs the study report of a finished results folder, if its study has one; run calls it
// before the analysis so that REPORT.md links the companion report.
func studyReport(dir string, brief io.Writer) error {
	name, err := studies.Write(dir)
	if errors.Is(err, studies.ErrNoReporter) {
		return nil
	}
	if err != nil {
		return err
	}
	if brief != nil {
		fmt.Fprintf(brief, "sdcbench: %s study report written in %s\n", name, dir)
	}
	return nil
}

// runStatus writes the reproduction status page: per study and table, the verdict counts of
// every results folder.
func runStatus(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", commands["status"].usage, stderr)
	root := fs.String("results", "results", "the results `folder` to read")
	// The default is standard output: a status run in any folder used to write (and create)
	// ./docs/reproductions.md there. make reproduce passes --out docs/reproductions.md.
	out := fs.String("out", "-", "the page to write (default -: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("status", "takes no arguments, got %d", fs.NArg())
	}
	if fi, err := os.Stat(*root); err != nil || !fi.IsDir() {
		return fmt.Errorf("status: %s is not a results folder", *root)
	}
	rows, err := studies.Status(*root)
	if err != nil {
		return err
	}
	if *out == "-" {
		return studies.WriteStatus(stdout, rows, *root)
	}
	link, err := filepath.Rel(filepath.Dir(*out), *root)
	if err != nil {
		link = *root
	}
	var buf bytes.Buffer
	if err := studies.WriteStatus(&buf, rows, filepath.ToSlash(link)); err != nil {
		return err
	}
	if err := datasets.AtomicWrite(*out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d rows)\n", *out, len(rows))
	return nil
}
