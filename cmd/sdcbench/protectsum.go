package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/releasereport"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// releaseAll returns the table without the dropped columns and the selection protect runs:
// the flags' selection with every column that is neither protected nor the strata column
// passed through in place, as sdcMicro's extractManipData returns every column of the input
// (docs/own-data.md §2). A dropped column that another flag names is an error naming both.
func releaseAll(d *datasets.Dataset, sf selectionFlags, drop []string) (*datasets.Dataset, methods.Selection, error) {
	sel := sf.selection()
	named := []struct {
		flag string
		cols []string
	}{{"columns", sel.Columns}, {"keep", sel.Keep}, {"strata", []string{sel.Strata}}, {"keys", sel.Keys},
		{"categorical", sel.Categorical}, {"weight", []string{*sf.weight}}, {"household", []string{*sf.household}},
		{"sensitive", []string{*sf.sensitive}}}
	for _, c := range drop {
		if d.ColIndex(c) < 0 {
			return nil, sel, fmt.Errorf("%s: drop: no column %q (have %s)", d.Name, c, strings.Join(d.Names, ", "))
		}
		for _, f := range named {
			if slices.Contains(f.cols, c) {
				return nil, sel, usageErr("protect", "--drop %s: the column is also in --%s (a dropped column is not in the release)", c, f.flag)
			}
		}
	}
	if len(drop) > 0 {
		name := d.Name
		var err error
		if d, err = d.Select(slices.DeleteFunc(slices.Clone(d.Names), func(c string) bool { return slices.Contains(drop, c) })); err != nil {
			return nil, sel, err
		}
		d.Name = name
	}
	if sel.Columns != nil {
		for _, c := range d.Names {
			if c != sel.Strata && !slices.Contains(sel.Columns, c) && !slices.Contains(sel.Keep, c) {
				sel.Keep = append(sel.Keep, c)
			}
		}
	}
	return d, sel, nil
}

// evalSelection returns eval's selection: the flags', and with --columns, every other column
// of the original that the masked file (a regular file) also has passed through, as protect
// releases it. A masked file without them (written with --keep) reads as before; a pipe is
// not read ahead, so its selection is the flags' alone.
func evalSelection(sf selectionFlags, d *datasets.Dataset, masked string) methods.Selection {
	sel := sf.selection()
	if sel.Columns == nil {
		return sel
	}
	header, ok := csvHeader(masked)
	if !ok {
		return sel // ReadFile reports it
	}
	for _, c := range d.Names {
		if c != sel.Strata && !slices.Contains(sel.Columns, c) && !slices.Contains(sel.Keep, c) && slices.Contains(header, c) {
			sel.Keep = append(sel.Keep, c)
		}
	}
	return sel
}

// csvHeader returns the column names of the CSV file path as the reader trims them (white
// space and a byte-order mark), and whether it could read them: a regular file only, as a pipe
// is not read ahead.
func csvHeader(path string) ([]string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	header, err := csv.NewReader(bufio.NewReader(f)).Read()
	if err != nil {
		return nil, false
	}
	for i := range header {
		header[i] = strings.TrimFunc(header[i], func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
	}
	return header, true
}

// writeProtectSummary prints what protect did, as sdcMicro prints an sdcMicroObj: the columns
// protected, passed through and dropped; with keys, the risk of the original and of the release
// (records violating 2- and 3-anonymity, records at higher risk than the main part of the data
// and the expected re-identifications: metrics kanon_viol_2, kanon_viol_3, risky_obs,
// global_risk_er and global_risk_pct); the loss on the numeric protected columns (il1s,
// sse_sst); and the protected cells changed and suppressed (docs/own-data.md §2).
func writeProtectSummary(w io.Writer, info methods.Info, p methods.Params, pr *methods.Prepared, rel *methods.Release,
	full *datasets.Dataset, opt metrics.Options, dropped []string) error {
	var b strings.Builder
	var params []string
	for _, n := range p.Names() {
		if v := p.Get(n); v != "" {
			params = append(params, n+"="+v)
		}
	}
	list := func(cols []string) string {
		if len(cols) == 0 {
			return "none"
		}
		return strings.Join(cols, ", ")
	}
	var passed []string
	for _, c := range pr.Full.Names {
		if !slices.Contains(pr.Protected.Names, c) {
			passed = append(passed, c)
		}
	}
	fmt.Fprintf(&b, "protect: %s %s on %s, %d records\n", info.Name, strings.Join(params, " "), pr.Full.Name, pr.Full.N)
	fmt.Fprintf(&b, "  protected:      %s\n  passed through: %s\n", list(pr.Protected.Names), list(passed))
	if len(dropped) > 0 {
		fmt.Fprintf(&b, "  dropped:        %s\n", list(dropped))
	}
	if len(opt.Keys) > 0 {
		before := &metrics.Input{Orig: pr.Protected, Masked: pr.Protected, MaskedAll: pr.Full, Opt: opt}
		after := &metrics.Input{Orig: pr.Protected, Masked: rel.Masked, MaskedAll: full, Opt: opt, Labels: rel.Labels, Diag: rel.Diag}
		n := float64(pr.Full.N)
		count := func(id string, in *metrics.Input) string {
			v := metricValue(id, in)
			return fmt.Sprintf("%s (%.3f %%)", fmtNum(v), 100*v/n)
		}
		fmt.Fprintf(&b, "  risk on the keys %s:\n", list(opt.Keys))
		rows := [][3]string{{"", "original", "release"}}
		for _, k := range []struct{ label, id string }{
			{"records violating 2-anonymity", "kanon_viol_2"},
			{"records violating 3-anonymity", "kanon_viol_3"},
			{"records at higher risk than the main part", "risky_obs"},
		} {
			rows = append(rows, [3]string{k.label, count(k.id, before), count(k.id, after)})
		}
		er := func(in *metrics.Input) string {
			return fmt.Sprintf("%s (%s %%)", fmtNum(metricValue("global_risk_er", in)), fmtNum(metricValue("global_risk_pct", in)))
		}
		rows = append(rows, [3]string{"expected re-identifications (global risk)", er(before), er(after)})
		for _, r := range rows {
			fmt.Fprintf(&b, "    %-43s %-20s %s\n", r[0], r[1], r[2])
		}
	}
	orig, masked := pr.Protected, rel.Masked
	if rel.Columns != nil { // the method passed some of its columns through: measure the others
		names := make([]string, 0, len(rel.Columns))
		for _, j := range rel.Columns {
			if j >= 0 && j < orig.P {
				names = append(names, orig.Names[j])
			}
		}
		var err1, err2 error
		orig, err1 = orig.Select(names)
		masked, err2 = masked.Select(names)
		if err1 != nil || err2 != nil {
			orig, masked = pr.Protected, rel.Masked
		}
	}
	var num []string
	for j, c := range orig.Names {
		if !orig.IsCategorical(j) && !masked.IsCategorical(j) {
			num = append(num, c)
		}
	}
	if len(num) > 0 {
		o, m := orig, masked // every column numeric: no copies (metrics never modify their input)
		var err1, err2 error
		if len(num) != orig.P {
			o, err1 = orig.Select(num)
			m, err2 = masked.Select(num)
		}
		if err1 == nil && err2 == nil {
			// il1s and sse_sst from one pass (every column numeric: the registry's
			// metrics would evaluate them on in as it is)
			il1s, sseSST := metrics.Loss(&metrics.Input{Orig: o, Masked: m, Opt: opt})
			fmt.Fprintf(&b, "  loss on the numeric protected columns: il1s %s, SSE/SST %s %%\n",
				fmtNum(il1s.Value), fmtNum(sseSST.Value))
		}
	}
	changed, suppressed, cells := changedCells(pr.Protected, rel.Masked)
	fmt.Fprintf(&b, "  protected cells: %d of %d changed (%.3f %%), %d suppressed (missing in the release only)\n",
		changed, cells, 100*float64(changed)/float64(max(cells, 1)), suppressed)
	_, err := io.WriteString(w, b.String())
	return err
}

// metricValue evaluates a registered measure; NaN when it is unknown or undefined.
func metricValue(id string, in *metrics.Input) float64 {
	m, err := metrics.Lookup(id)
	if err != nil {
		return math.NaN()
	}
	return m.Eval(in).Value
}

// fmtNum prints a measure with four significant digits ("NA" when undefined).
func fmtNum(v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	return fmt.Sprintf("%.4g", v)
}

// changedCells counts the cells of the protected columns whose value (a category's label for a
// categorical column) differs between orig and masked, and among them the suppressed ones:
// present in orig, missing in masked — the release report's per-column counts
// (releasereport.Changes) summed.
func changedCells(orig, masked *datasets.Dataset) (changed, suppressed, cells int) {
	for _, ch := range releasereport.Changes(orig, masked) {
		changed += ch.Changed
		suppressed += ch.Suppressed
	}
	return changed, suppressed, orig.N * orig.P
}
