package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

func init() {
	commands["eval"] = command{
		usage: "eval [--dataset NAME | --orig FILE] --masked FILE --metrics a,b,... [--columns a,b] [--keep c,d] [--keys k1,k2] [--weight W] [--household H] [--sensitive S] [--categorical c,d] [--control FILE] [--metric-opt key=value]... [--per-record FILE]",
		run:   runEval,
	}
}

// runEval is `sdcbench eval`: it measures a release (--masked) against its original (--orig
// or --dataset), or, when every measure asked for reads the release alone (the categorical
// risk measures, metrics.Info.ReleaseOnly), without one (docs/own-data.md §2).
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", commands["eval"].usage, stderr)
	dataset := fs.String("dataset", "", "embedded original dataset name")
	orig := fs.String("orig", "", "original CSV `file` (not needed when every measure reads the release alone)")
	sf := addSelectionFlags(fs)
	masked := fs.String("masked", "", "masked CSV `file` (the original's released columns; extra columns ignored)")
	list := fs.String("metrics", "", "comma-separated metric IDs (see: sdcbench list metrics)")
	control := fs.String("control", "", "original records held out of the protection, the attack metrics' control set (CSV `file`)")
	mopts := paramFlag{}
	fs.Var(mopts, "metric-opt", "metric option `key=value`, e.g. aux=a,b (repeatable; see docs/attacks.md)")
	perRecord := fs.String("per-record", "", "also write each record's fk, Fk, risk, household risk, SUDA and DIS scores to this CSV `file` (docs/metrics.md §4.8)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("eval", "unexpected argument %q (flags only)", fs.Arg(0))
	}
	ids := csvList(*list)
	if *masked == "" || (len(ids) == 0 && *perRecord == "") {
		return usageErr("eval", "need --masked FILE and --metrics a,b,... (or --per-record FILE)")
	}
	ms := make([]metrics.Metric, len(ids))
	for i, id := range ids {
		m, err := metrics.Lookup(id)
		if err != nil {
			return err
		}
		ms[i] = m
	}
	var input *metrics.Input
	var err error
	if *dataset == "" && *orig == "" {
		input, err = releaseInput(ctx, sf, ms, *masked, *control, mopts, stderr)
	} else {
		input, err = pairInput(ctx, sf, *dataset, *orig, *masked, *control, stderr)
	}
	if err != nil {
		return err
	}
	if err := evalOptions(input, ids, mopts, *control, sf.na.na); err != nil {
		return err
	}
	var notes missingNotes
	defer notes.write(stderr)
	var b strings.Builder
	for _, m := range ms {
		res := m.Eval(input)
		notes.add(m.Info().ID, res)
		if err := input.Err(); err != nil { // interrupted (SIGINT, SIGTERM)
			return fmt.Errorf("eval: interrupted while computing %s: %w", m.Info().ID, err)
		}
		fmt.Fprintf(&b, "%s,%s\n", m.Info().ID, strconv.FormatFloat(res.Value, 'g', -1, 64))
		for _, c := range m.Info().Components {
			if v, ok := res.Aux[c]; ok {
				fmt.Fprintf(&b, "%s_%s,%s\n", m.Info().ID, c, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
	}
	if *perRecord != "" {
		if err := writePerRecord(*perRecord, input, []string{*orig, *masked, *control}, stderr); err != nil {
			return err
		}
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// pairInput reads the original (the registered dataset or the file orig) and the release
// masked, selects the columns of the flags in both, matches the release's category labels
// to the original's and reports the release's missing cells to stderr.
//
// When orig and masked name the same file (samePath), it is read once: the release is then
// the original's table itself, exactly what a second reading would give (the same cells, the
// labels aligned to themselves), without its parsing and its fresh memory, which were the
// largest part of such an eval (docs/datapath.md "eval of a release alone, and one file read once"). Measures
// never modify their input, so the original and the release may share the values.
func pairInput(ctx context.Context, sf selectionFlags, dataset, orig, masked, control string, stderr io.Writer) (*metrics.Input, error) {
	same := orig != "" && samePath(orig, masked)
	if same {
		reserveHeap(orig, control) // hugepages.go
	} else {
		reserveHeap(orig, masked, control)
	}
	d, in, err := loadInput(ctx, "eval", dataset, orig, "orig", sf.na.na)
	if err != nil {
		return nil, err
	}
	sel := evalSelection(sf, d, masked)
	if in != nil {
		categorizeOwn(d, sel)
	}
	// The protected columns are compared whatever their kind.
	pr, err := methods.Prepare(d, sel, methods.Info{Name: "eval", Columns: methods.AnyColumns})
	if err != nil {
		return nil, err
	}
	for _, c := range []struct{ flag, col string }{{"weight", *sf.weight}, {"household", *sf.household}, {"sensitive", *sf.sensitive}} {
		if c.col != "" && pr.Full.ColIndex(c.col) < 0 {
			return nil, usageErr("eval", "--%s %s: not a released column (add it to --keep; released: %s)", c.flag, c.col, strings.Join(pr.Full.Names, ", "))
		}
	}
	if same {
		input := &metrics.Input{Orig: pr.Protected, Masked: pr.Protected.View(), MaskedAll: pr.Full.View(), Opt: sf.options(), Ctx: ctx}
		reportMissing(stderr, masked, pr.Protected, input.Masked) // evalmissing.go
		return input, nil
	}
	rel, err := datasets.ReadFile(masked, datasets.ReadOptions{Columns: pr.Full.Names, Mixed: true, NA: sf.na.na})
	if err != nil {
		return nil, err
	}
	if rel.N != d.N {
		return nil, fmt.Errorf("eval: %s has %d rows, the original %s has %d", masked, rel.N, d.Name, d.N)
	}
	if pr.Full.Levels != nil { // without categories there is nothing to align
		if err := rel.AlignLevelsInPlace(pr.Full); err != nil { // rel is eval's own: no copy
			return nil, err
		}
	}
	relProt := rel // every released column protected: no copy (metrics never modify their input)
	if !slices.Equal(rel.Names, pr.Protected.Names) {
		if relProt, err = rel.Select(pr.Protected.Names); err != nil {
			return nil, err
		}
	}
	for j := 0; j < relProt.P; j++ {
		if relProt.IsCategorical(j) != pr.Protected.IsCategorical(j) {
			return nil, fmt.Errorf("eval: %s: column %q is categorical in one file and numeric in the other", masked, relProt.Names[j])
		}
	}
	reportMissing(stderr, masked, pr.Protected, relProt) // evalmissing.go
	return &metrics.Input{Orig: pr.Protected, Masked: relProt, MaskedAll: rel, Opt: sf.options(), Ctx: ctx}, nil
}

// releaseInput reads the release masked alone, for measures that need no original
// (metrics.Info.ReleaseOnly; a usage error names those that do). With --keys only the key,
// --categorical, weight, household and sensitive columns are read, in file order, when the
// masked file is a regular file and no modrisk_formula (which may name any column) is given;
// otherwise every column (the keys are then every column but the weight, household and
// sensitive ones, as with an original). The keys and --categorical columns are read as
// categories, as eval reads them with an original, so every measure's value is the one
// `eval --orig FILE --masked FILE` gives (TestEvalReleaseAloneMatchesPair). --columns,
// --keep, --strata and --control name parts of an original and are refused.
func releaseInput(ctx context.Context, sf selectionFlags, ms []metrics.Metric, masked, control string, mopts paramFlag, stderr io.Writer) (*metrics.Input, error) {
	var need []string
	for _, m := range ms {
		if !m.Info().ReleaseOnly {
			need = append(need, m.Info().ID)
		}
	}
	if len(need) > 0 {
		verb := "compare"
		if len(need) == 1 {
			verb = "compares"
		}
		return nil, usageErr("eval", "%s %s the release with its original: give --orig FILE or --dataset NAME (without them, only the measures of the release alone: %s)",
			strings.Join(need, ", "), verb, releaseOnlyList())
	}
	for _, f := range []struct{ flag, val string }{{"columns", *sf.columns}, {"keep", *sf.keep}, {"strata", *sf.strata}, {"control", control}} {
		if f.val != "" {
			return nil, usageErr("eval", "--%s chooses columns or records of an original: give --orig FILE or --dataset NAME, or leave it out (the release alone is read with --keys, --weight, --household, --sensitive)", f.flag)
		}
	}
	keys, cat := csvList(*sf.keys), csvList(*sf.categorical)
	roles := []string{*sf.weight, *sf.household, *sf.sensitive}
	var cols []string
	if _, formula := mopts["modrisk_formula"]; len(keys) > 0 && !formula {
		if header, ok := csvHeader(masked); ok {
			want := slices.DeleteFunc(slices.Concat(keys, cat, roles), func(c string) bool { return c == "" })
			for _, c := range header {
				if slices.Contains(want, c) && !slices.Contains(cols, c) {
					cols = append(cols, c)
				}
			}
			for _, c := range want { // not in the file: the reader names it
				if !slices.Contains(cols, c) {
					cols = append(cols, c)
				}
			}
		}
	}
	reserveHeap(masked) // hugepages.go
	rel, err := datasets.ReadFile(masked, datasets.ReadOptions{Columns: cols, Mixed: true, NA: sf.na.na})
	if err != nil {
		return nil, readInterrupted(ctx, masked, err)
	}
	for _, c := range []struct{ flag, col string }{{"weight", *sf.weight}, {"household", *sf.household}, {"sensitive", *sf.sensitive}} {
		if c.col != "" && rel.ColIndex(c.col) < 0 {
			return nil, usageErr("eval", "--%s %s: %s has no such column (it has %s)", c.flag, c.col, masked, strings.Join(rel.Names, ", "))
		}
	}
	// Read as categories as with an original. The measures compare these cells only for
	// equality (metrics.Info.ReleaseOnly), which categories change in one case alone: −0 and
	// +0 are one value to them but two labels. So only a numeric column holding a −0 is
	// categorized; the others would come out the same at a tenth of a million-record eval's
	// CPU (docs/datapath.md "eval of a release alone, and one file read once").
	var recode []string
	neg := negZeroColumns(rel)
	for _, c := range slices.Concat(keys, cat) {
		j := rel.ColIndex(c)
		if j < 0 {
			return nil, usageErr("eval", "--keys, --categorical: %s has no column %q (it has %s)", masked, c, strings.Join(rel.Names, ", "))
		}
		if !rel.IsCategorical(j) && neg != nil && neg[j] {
			recode = append(recode, c)
		}
	}
	if err := rel.CategorizeInPlace(recode); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	reportMissingRelease(stderr, masked, rel) // evalmissing.go
	return &metrics.Input{Masked: rel, MaskedAll: rel, Opt: sf.options(), Ctx: ctx}, nil
}

// releaseOnlyList names the measures of the release alone for an error message, a family
// of variants as one (ind_risk_max and ind_risk_mean as ind_risk_*): IDs that differ only
// after their last underscore, with another underscore before it (so risky_obs and
// risky_cells, two measures, stay apart).
func releaseOnlyList() string {
	var ids []string
	for _, in := range metrics.List() {
		if in.ReleaseOnly {
			ids = append(ids, in.ID)
		}
	}
	prefix := func(id string) string {
		if i := strings.LastIndexByte(id, '_'); i > 0 && strings.Contains(id[:i], "_") {
			return id[:i]
		}
		return id
	}
	var out []string
	for _, id := range ids {
		p, n := prefix(id), 0
		for _, o := range ids {
			if prefix(o) == p {
				n++
			}
		}
		name := id
		if n > 1 {
			name = p + "_*"
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// negZeroColumns reports which columns of d hold a −0 (nil when none does), in one pass over
// the table.
func negZeroColumns(d *datasets.Dataset) []bool {
	var neg []bool
	for i, v := range d.Data[:d.N*d.P] {
		if v == 0 && math.Signbit(v) {
			if neg == nil {
				neg = make([]bool, d.P)
			}
			neg[i%d.P] = true
		}
	}
	return neg
}
