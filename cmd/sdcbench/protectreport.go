package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/releasereport"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// reportFlags are protect's --report and --report-external (docs/release-report.md).
type reportFlags struct {
	paths    []string
	external *bool
}

// reportList collects repeated --report FILE flags.
type reportList struct{ paths *[]string }

func (r reportList) String() string {
	if r.paths == nil {
		return ""
	}
	return strings.Join(*r.paths, ",")
}

func (r reportList) Set(s string) error {
	if reportFormat(s) == "" {
		return fmt.Errorf("%q: the report's extension picks its format: .html (or .htm) or .json", s)
	}
	*r.paths = append(*r.paths, s)
	return nil
}

func addReportFlags(fs *flag.FlagSet) *reportFlags {
	rf := &reportFlags{}
	fs.Var(reportList{&rf.paths}, "report", "also write the release report to `FILE.html` or FILE.json (repeatable: both hold the same numbers)")
	rf.external = fs.Bool("report-external", false, "write the external report: without the per-combination counts (highest-risk key combinations, key frequencies)")
	return rf
}

// reportFormat returns "html" or "json" by the path's extension, "" for another.
func reportFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		return "html"
	case ".json":
		return "json"
	}
	return ""
}

// check refuses a report path that is the input, the release, the group list or another
// report, and --report-external without --report.
func (rf *reportFlags) check(in, out, groups string) error {
	if *rf.external && len(rf.paths) == 0 {
		return usageErr("protect", "--report-external needs --report FILE.html or FILE.json")
	}
	for i, p := range rf.paths {
		for _, o := range []struct{ flag, path string }{{"in", in}, {"out", out}, {"groups", groups}} {
			if o.path != "" && samePath(p, o.path) {
				return usageErr("protect", "--report %s is also --%s: choose another file for the report", p, o.flag)
			}
		}
		for _, q := range rf.paths[:i] {
			if samePath(p, q) {
				return usageErr("protect", "--report %s is given twice", p)
			}
		}
	}
	return nil
}

// reportRun is what protect did, as the report needs it.
type reportRun struct {
	args        []string
	dataset, in string
	input       *inputFile
	out         string
	read        *datasets.Dataset // the input as read, before --drop
	drop        []string
	strata      string
	info        methods.Info
	params      methods.Params
	seed        uint64
	pr          *methods.Prepared
	rel         *methods.Release
	full        *datasets.Dataset
	opt         metrics.Options
}

// write builds the report once and writes it to every --report file, atomically.
func (rf *reportFlags) write(ctx context.Context, r reportRun) error {
	cfg := releasereport.Config{
		Command: commandLine(append([]string{"sdcbench", "protect"}, r.args...)),
		Data:    r.read, Dropped: r.drop, Strata: r.strata,
		Info: r.info, Params: r.params, Seed: r.seed,
		Prepared: r.pr, Release: r.rel, Full: r.full, Opt: r.opt, External: *rf.external,
	}
	if r.dataset != "" {
		cfg.Input = releasereport.File{Dataset: r.dataset, SHA256: experiments.DatasetHash(r.read),
			HashOf: "the content hash of the embedded dataset (SHA-256 over its column names, values and category labels)"}
	} else {
		cfg.Input = releasereport.File{Path: r.in}
		cfg.Input.SHA256, cfg.Input.HashOf = inputHash(r.in, r.input)
	}
	cfg.Output = releasereport.File{Path: r.out}
	cfg.Output.SHA256, cfg.Output.HashOf = fileHash(r.out)
	rep, err := releasereport.Build(ctx, cfg)
	if err != nil {
		return fmt.Errorf("protect: --report: %w", err)
	}
	for _, p := range rf.paths {
		write := rep.WriteJSON
		if reportFormat(p) == "html" {
			write = rep.WriteHTML
		}
		if _, err := writeOutput(p, write); err != nil {
			return fmt.Errorf("protect: --report: %w", err)
		}
	}
	return nil
}

// inputHash returns the SHA-256 of the input's bytes: those kept from a pipe, else the file's.
func inputHash(path string, in *inputFile) (sum, of string) {
	if in != nil && in.kept != nil {
		h := sha256.Sum256(in.kept.Bytes())
		return hex.EncodeToString(h[:]), "SHA-256 of the bytes read (a pipe or device)"
	}
	return fileHash(path)
}

// fileHash returns the SHA-256 of a regular file's bytes, or "" and why not.
func fileHash(path string) (sum, of string) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", "not computed: not a regular file"
	}
	f, err := os.Open(path)
	if err != nil {
		return "", "not computed: " + err.Error()
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", "not computed: " + err.Error()
	}
	return hex.EncodeToString(h.Sum(nil)), "SHA-256 of the file's bytes"
}

// commandLine quotes the arguments a shell would split or expand.
func commandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
