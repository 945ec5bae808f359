package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

func init() {
	commands["protect"] = command{
		usage: "protect --method NAME [--param name=value]... (--dataset NAME | --in FILE) --out FILE [--columns a,b] [--keep c,d] [--drop e,f] [--strata COL] [--keys k1,k2] [--seed S] [--groups FILE] [--quiet] [--report FILE.html|FILE.json]... [--report-external]",
		run:   runProtect,
	}
}

// paramFlag collects repeated --param name=value flags.
type paramFlag map[string]string

func (p paramFlag) String() string { return fmt.Sprint(map[string]string(p)) }

func (p paramFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	name = strings.TrimSpace(name)
	if _, dup := p[name]; dup {
		return fmt.Errorf("parameter %q given twice", name)
	}
	p[name] = strings.TrimSpace(val)
	return nil
}

// selectionFlags are the column flags protect and eval share (docs/own-data.md).
type selectionFlags struct {
	columns, keep, strata, keys, categorical *string
	weight, household, sensitive             *string
	na                                       *naFlag
}

func addSelectionFlags(fs *flag.FlagSet) selectionFlags {
	return selectionFlags{
		columns:     fs.String("columns", "", "comma-separated columns the method protects (default: all not kept)"),
		keep:        fs.String("keep", "", "comma-separated columns passed through unchanged, in their original position"),
		strata:      fs.String("strata", "", "`column` whose values split the records; the method runs within each stratum"),
		keys:        fs.String("keys", "", "comma-separated key variables of the categorical risk measures (read as categories)"),
		categorical: fs.String("categorical", "", "comma-separated further columns read as categories even if numeric"),
		weight:      fs.String("weight", "", "sampling-weight `column` of the risk measures (must be kept)"),
		household:   fs.String("household", "", "household-ID `column` of hier_risk_* (must be kept)"),
		sensitive:   fs.String("sensitive", "", "sensitive `column` of ldiv_distinct_* (must be kept)"),
		na:          addNAFlag(fs),
	}
}

func (f selectionFlags) selection() methods.Selection {
	return methods.Selection{Columns: csvList(*f.columns), Keep: csvList(*f.keep), Strata: *f.strata,
		Keys: csvList(*f.keys), Categorical: csvList(*f.categorical)}
}

func (f selectionFlags) options() metrics.Options {
	return metrics.Options{Keys: csvList(*f.keys), Weight: *f.weight, Household: *f.household, Sensitive: *f.sensitive}
}

// loadInput returns the registered dataset or the CSV file (exactly one must be given); a
// file is read as a mixed-type table (text columns become categorical). The file is opened
// once: a pipe or a FIFO (--in /dev/stdin, <(...)) has no second reading, so the bytes of one
// that is not a regular file are kept in in, for prepare's second, strict parse.
//
// A read blocked on a pipe stops once ctx is done (stopReadOnCancel).
func loadInput(ctx context.Context, cmd, dataset, file, fileFlag string, na datasets.NA) (*datasets.Dataset, *inputFile, error) {
	switch {
	case dataset != "" && file != "":
		return nil, nil, usageErr(cmd, "give --dataset or --%s, not both", fileFlag)
	case dataset != "":
		d, err := datasets.Load(dataset)
		return d, nil, err
	case file != "":
		in := &inputFile{path: file, na: na}
		f, err := os.Open(file)
		if err != nil {
			return nil, nil, fmt.Errorf("datasets: %w", err)
		}
		defer f.Close()
		defer stopReadOnCancel(ctx, f)()
		var r io.Reader = f
		if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
			in.kept = &bytes.Buffer{}
			r = io.TeeReader(f, in.kept)
		}
		d, err := datasets.ReadCSV(r, file, datasets.ReadOptions{Mixed: true, NA: na})
		return d, in, readInterrupted(ctx, file, err)
	}
	return nil, nil, usageErr(cmd, "need --dataset NAME or --%s FILE", fileFlag)
}

// inputFile is a CSV file named on the command line; kept holds its bytes when it is not a
// regular file (and so cannot be read twice).
type inputFile struct {
	path string
	kept *bytes.Buffer
	na   datasets.NA
}

// read parses the input again with opt (and the input's NA tokens).
func (in *inputFile) read(opt datasets.ReadOptions) (*datasets.Dataset, error) {
	opt.NA = in.na
	if in.kept != nil {
		return datasets.ReadCSV(bytes.NewReader(in.kept.Bytes()), in.path, opt)
	}
	return datasets.ReadFile(in.path, opt)
}

// prepare resolves the column flags on d (with owned, by methods.PrepareOwned: d is the
// caller's to categorize and to release over). A text column given to a numeric method is
// reported as the strict reader would: file, row, column and the first text value. A missing
// number is the method's to accept or refuse (Info.Missing, docs/own-data.md).
func prepare(d *datasets.Dataset, in *inputFile, sel methods.Selection, info methods.Info, owned bool) (*methods.Prepared, error) {
	prep := methods.Prepare
	if owned {
		prep = methods.PrepareOwned
	}
	pr, err := prep(d, sel, info)
	var ce *methods.ColumnKindError
	if errors.As(err, &ce) && in != nil {
		if _, rerr := in.read(datasets.ReadOptions{Columns: []string{ce.Column}}); rerr != nil {
			return nil, fmt.Errorf("%s: %w (a numeric method needs numbers; pass the column through with --keep, or if the value marks a missing one, list it in --na)", info.Name, rerr)
		}
	}
	return pr, err
}

func runProtect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("protect", commands["protect"].usage, stderr)
	method := fs.String("method", "", "method name (see: sdcbench list methods)")
	params := paramFlag{}
	fs.Var(params, "param", "method parameter `name=value` (repeatable)")
	dataset := fs.String("dataset", "", "embedded dataset name (see: sdcbench list datasets)")
	in := fs.String("in", "", "input CSV `file` with a header row (text columns are categorical)")
	sf := addSelectionFlags(fs)
	out := fs.String("out", "", "masked CSV `file` to write")
	seed := fs.Uint64("seed", 1, "random seed for randomized methods")
	groups := fs.String("groups", "", "also write one group id per record to `file` (partitioning methods)")
	drop := fs.String("drop", "", "comma-separated columns left out of the release (default: every input column is released)")
	quiet := fs.Bool("quiet", false, "do not print the summary of risk, loss and changed cells to stderr")
	rf := addReportFlags(fs) // protectreport.go
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("protect", "unexpected argument %q (flags only)", fs.Arg(0))
	}
	if *method == "" || *out == "" {
		return usageErr("protect", "need --method and --out")
	}
	m, err := methods.Lookup(*method)
	if err != nil {
		return err
	}
	reserveHeap(*in) // hugepages.go
	info := m.Info()
	p, err := info.Resolve(params)
	if err != nil {
		return err
	}
	if *groups != "" && !info.Partitions {
		return usageErr("protect", "--groups: method %s does not partition the records", info.Name)
	}
	if *groups != "" && samePath(*groups, *out) {
		return usageErr("protect", "--groups and --out name the same file %q: the group list would replace the masked data", *out)
	}
	for _, o := range []struct{ flag, path string }{{"out", *out}, {"groups", *groups}} {
		if *in != "" && o.path != "" && overwritesInput(*in, o.path) {
			return usageErr("protect", "--%s %s is the input file --in %s (the same file, or a link to it): writing it would destroy the original data; choose another --%s", o.flag, o.path, *in, o.flag)
		}
	}
	if err := rf.check(*in, *out, *groups); err != nil {
		return err
	}
	// Nothing reads the input after the protection unless a summary, a report or a group list
	// is asked for: then a method that can writes its release over the table read.
	inPlace := *quiet && len(rf.paths) == 0 && *groups == "" && *dataset == ""
	load := func() (*datasets.Dataset, *inputFile, error) {
		return loadInput(ctx, "protect", *dataset, *in, "in", sf.na.na)
	}
	run, err := protectInput(ctx, load, m, info, p, sf, csvList(*drop), *seed, inPlace)
	if err != nil {
		return err
	}
	read, input, sel, pr, rel, full := run.read, run.input, run.sel, run.pr, run.rel, run.full
	if err := methods.CheckPartition(info, p, rel.Masked.N, rel.Labels); err != nil {
		return err
	}
	replaced, err := writeOutput(*out, func(w io.Writer) error { return datasets.WriteCSVNA(w, full, sf.na.na) })
	if err != nil {
		return err
	}
	if *groups != "" {
		_, err := writeOutput(*groups, func(w io.Writer) error {
			b := []byte("group\n")
			for _, l := range rel.Labels {
				b = strconv.AppendInt(b, int64(l), 10)
				b = append(b, '\n')
			}
			_, err := w.Write(b)
			return err
		})
		if err != nil {
			if replaced {
				os.Remove(*out) // leave no half-finished output behind
			}
			return err
		}
	}
	if len(rf.paths) > 0 {
		run := reportRun{args: args, dataset: *dataset, in: *in, input: input, out: *out, read: read, drop: csvList(*drop),
			strata: sel.Strata, info: info, params: p, seed: *seed, pr: pr, rel: rel, full: full, opt: sf.options()}
		if err := rf.write(ctx, run); err != nil {
			return err
		}
	}
	if !*quiet {
		return writeProtectSummary(stderr, info, p, pr, rel, full, sf.options(), csvList(*drop))
	}
	return nil
}

// protection is what protectInput read and released.
type protection struct {
	read  *datasets.Dataset // the table read (holding the release when it was written in place)
	input *inputFile
	sel   methods.Selection
	pr    *methods.Prepared
	rel   *methods.Release
	full  *datasets.Dataset // the whole released table
}

// inPlaceProtector is a method that can write its release over its input table: the release
// and errors of Protect, and clean reports that methods.CheckOverflow and methods.CheckHoles
// would pass it (perturb.Additive.ProtectInPlace has the contract).
type inPlaceProtector interface {
	ProtectInPlace(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (rel *methods.Release, clean bool, err error)
}

// protectInput reads the input (load), selects its columns and protects them with m from the
// generator of seed, checking the release (methods.CheckOverflow, methods.CheckHoles). With
// inPlace, when the caller needs no value of the input afterwards, the table read becomes the
// release: its columns are selected by methods.PrepareOwned, so that the keys and a
// categorical method's columns are categorized in it and the protected columns of the
// release are written over it, where a copy of the whole table took each of the two (80 MB of
// fresh memory at 10^6 × 10); and a method without strata that can (inPlaceProtector) writes
// its release over the table read: the fresh memory of a second table cost about a seventh of
// a noise release's process at 10^6 × 10 (docs/datapath.md, "Copies of the table"). The
// table is protect's own (read from a file; a registered dataset is not written in place),
// so sharing it with the Prepared tables, which are read-only to everyone else, is safe.
// When the method reports the release unclean (an infinite value, or a missing one the input
// did not have) the checks need the original: the input is then read and protected again the
// usual way, with a generator in the same state, so the release and every error are exactly
// those of the usual way.
func protectInput(ctx context.Context, load func() (*datasets.Dataset, *inputFile, error), m methods.Method, info methods.Info, p methods.Params,
	sf selectionFlags, drop []string, seed uint64, inPlace bool) (*protection, error) {
	d, input, err := load()
	if err != nil {
		return nil, err
	}
	read := d
	d, sel, err := releaseAll(d, sf, drop)
	if err != nil {
		return nil, err
	}
	pr, err := prepare(d, input, sel, info, inPlace)
	if err != nil {
		return nil, err
	}
	if err := pr.Validate(m, p); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	run := &protection{read: read, input: input, sel: sel, pr: pr}
	if ip, ok := m.(inPlaceProtector); ok && inPlace && pr.Strata() == nil {
		rel, clean, err := ip.ProtectInPlace(ctx, pr.Protected, p, rng)
		if err != nil {
			return nil, err
		}
		if !clean { // the original is gone: the usual way, from the input again
			reload := load
			if input != nil && input.kept != nil { // a pipe: its bytes were kept
				reload = func() (*datasets.Dataset, *inputFile, error) {
					d, err := input.read(datasets.ReadOptions{Mixed: true})
					return d, input, err
				}
			}
			return protectInput(ctx, reload, m, info, p, sf, drop, seed, false)
		}
		run.rel, run.full = rel, pr.Released(rel.Masked)
		return run, nil
	}
	if run.rel, run.full, err = pr.Protect(ctx, m, p, rng); err != nil {
		return nil, err
	}
	if err := methods.CheckOverflow(info.Name, pr.Protected, run.rel.Masked); err != nil {
		return nil, err
	}
	if err := methods.CheckHoles(info.Name, pr.Protected, run.rel); err != nil {
		return nil, err
	}
	return run, nil
}

// categorizeOwn makes the keys and the categorical columns of sel categorical in d itself, a
// table eval has just read and shares with no one, so that methods.Prepare need not copy it to
// categorize them (at 10^6 records a copy of fresh memory costs more than the categorizing;
// docs/datapath.md). Names d does not have are left to Prepare to report.
func categorizeOwn(d *datasets.Dataset, sel methods.Selection) {
	var cols []string
	for _, c := range append(slices.Clone(sel.Keys), sel.Categorical...) {
		if d.ColIndex(c) >= 0 {
			cols = append(cols, c)
		}
	}
	_ = d.CategorizeInPlace(cols) // cannot fail: every name is a column of d
}

// samePath reports whether a and b name the same file: the same cleaned absolute path, or,
// when both exist, the same file (hard or symbolic links).
func samePath(a, b string) bool {
	if fa, err1 := os.Stat(a); err1 == nil {
		if fb, err2 := os.Stat(b); err2 == nil {
			return os.SameFile(fa, fb)
		}
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// overwritesInput reports whether writing out would replace the regular file in: the same path,
// or the same file through a symbolic or hard link (os.SameFile). A device or pipe given as
// both (a terminal as /dev/stdin and /dev/stdout) is no data to lose.
func overwritesInput(in, out string) bool {
	fi, err := os.Stat(in)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return samePath(in, out)
}

// writeOutput writes a file protect produces (the masked data, the group list). A new or
// existing regular file is written atomically (datasets.AtomicWrite: a temporary file beside
// it, renamed; a symbolic link there is replaced). An existing device, named pipe or socket
// (/dev/null, a FIFO, /dev/stdout onto a pipe) and a descriptor alias (/dev/stdout, /dev/fd/N,
// /proc/…) are written through, appending, never replaced by a regular file; replaced
// reports whether the atomic route was taken (the file is then protect's own to remove).
func writeOutput(path string, write func(io.Writer) error) (replaced bool, err error) {
	fi, statErr := os.Stat(path)
	switch {
	case statErr == nil && fi.IsDir():
		return false, fmt.Errorf("protect: %s is a folder, not a file to write", path)
	case statErr == nil && (!fi.Mode().IsRegular() || datasets.DescriptorAlias(path)):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return false, fmt.Errorf("protect: %w", err)
		}
		bw := bufio.NewWriterSize(f, 1<<16)
		if err := write(bw); err != nil {
			f.Close()
			return false, fmt.Errorf("protect: writing %s: %w", path, err)
		}
		if err := bw.Flush(); err != nil {
			f.Close()
			return false, fmt.Errorf("protect: writing %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return false, fmt.Errorf("protect: writing %s: %w", path, err)
		}
		return false, nil
	}
	return true, datasets.AtomicWrite(path, write)
}
