package releasereport

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/metrics"
)

// measureInputs are the two evaluations of the risk measures: the original as if it were
// released (before) and the release (after).
type measureInputs struct{ before, after *metrics.Input }

// spec is one measure of a section: its ID and the label the report prints.
type spec struct{ id, label string }

// riskMeasures are the risk measures on the key columns (docs/metrics.md §4), as sdcMicro's
// report prints them: k-anonymity violations, individual and global risk, then SUDA.
var riskMeasures = []spec{
	{"kanon_viol_2", "records violating 2-anonymity (sample uniques)"},
	{"kanon_viol_3", "records violating 3-anonymity"},
	{"kanon_viol_5", "records violating 5-anonymity"},
	{"risky_obs", "records at higher risk than the main part of the data"},
	{"ind_risk_mean", "mean individual re-identification risk"},
	{"ind_risk_max", "largest individual re-identification risk"},
	{"global_risk_er", "expected re-identifications (global risk)"},
	{"global_risk_pct", "global risk in % of the records"},
	{"dis_suda_mean", "mean DIS-SUDA score"},
	{"dis_suda_max", "largest DIS-SUDA score"},
}

// householdMeasures need a household column, sensitiveMeasures a sensitive one.
var (
	householdMeasures = []spec{
		{"hier_risk_er", "expected re-identifications with household risk"},
		{"hier_risk_pct", "household risk in % of the records"},
	}
	sensitiveMeasures = []spec{{"ldiv_distinct_min", "distinct l-diversity of the sensitive column (smallest)"}}
)

// linkageMeasures are record linkage on the numeric protected columns (docs/metrics.md §3).
var linkageMeasures = []spec{
	{"dbrl", "distance-based record linkage: originals linked to their own record"},
	{"dld", "released records whose nearest original is their source"},
	{"interval_disclosure", "records inside an interval of ±5 % of the SD around the released value on every column"},
}

// numericLoss are the losses on the numeric protected columns; categoricalLossMeasures on the
// categorical ones; n_suppressed on all protected columns.
var (
	numericLoss = []spec{
		{"il1s", "IL1s: mean |x − x'| / (√2·SD)"},
		{"il1s_sum_sdc", "IL1s summed over cells (sdcMicro dUtility)"},
		{"sse_sst", "SSE/SST in z-space"},
		{"eigen_sdc", "difference of the correlation eigenvalues (sdcMicro dUtility eigen × 100)"},
		{"mean_dev_max", "largest change of a column mean, in SDs"},
		{"var_ratio_max", "largest ratio of released to original variance"},
	}
	categoricalLossMeasures = []spec{
		{"ut1", "UT1: mean relative change of the category frequencies"},
		{"pram_changed", "records with a changed category"},
	}
)

// eval evaluates one registered measure; a NaN result adds a note saying why.
func eval(s spec, in *metrics.Input, notes *[]string, when string) (Num, metrics.Info, error) {
	m, err := metrics.Lookup(s.id)
	if err != nil {
		return Num(math.NaN()), metrics.Info{}, fmt.Errorf("releasereport: %w", err)
	}
	res := m.Eval(in)
	if err := in.Err(); err != nil {
		return Num(math.NaN()), metrics.Info{}, fmt.Errorf("releasereport: computing %s: %w", s.id, err)
	}
	if math.IsNaN(res.Value) {
		why := res.NotApplicable
		if why == "" && len(res.Notes) > 0 {
			why = strings.Join(res.Notes, "; ")
		}
		if why == "" {
			why = "undefined on this data"
		}
		*notes = append(*notes, fmt.Sprintf("%s %s: NA: %s", s.id, when, why))
	}
	return Num(res.Value), m.Info(), nil
}

// pair evaluates a measure before and after; a nil before leaves Before NaN.
func pair(s spec, before, after *metrics.Input, notes *[]string) (Measure, error) {
	out := Measure{ID: s.id, Label: s.label, Before: Num(math.NaN())}
	var err error
	var info metrics.Info
	if before != nil {
		if out.Before, _, err = eval(s, before, notes, "before"); err != nil {
			return out, err
		}
	}
	if out.After, info, err = eval(s, after, notes, "after"); err != nil {
		return out, err
	}
	out.Unit = info.Unit
	return out, nil
}

// riskSection measures the risk on the key columns and, for the internal report, lists the
// release's highest-risk key combinations.
func riskSection(in *measureInputs, c Config) (*Risk, []string, error) {
	r := &Risk{Keys: c.Opt.Keys, Weight: c.Opt.Weight, Household: c.Opt.Household, Sensitive: c.Opt.Sensitive}
	var notes []string
	list := slices.Clone(riskMeasures)
	if c.Opt.Household != "" {
		list = append(list, householdMeasures...)
	}
	if c.Opt.Sensitive != "" {
		list = append(list, sensitiveMeasures...)
	}
	for _, s := range list {
		m, err := pair(s, in.before, in.after, &notes)
		if err != nil {
			return nil, nil, err
		}
		r.Measures = append(r.Measures, m)
	}
	if c.External {
		return r, notes, nil
	}
	rr, err := metrics.PerRecord(in.after)
	if err != nil {
		if in.after.Err() != nil {
			return nil, nil, fmt.Errorf("releasereport: %w", err)
		}
		notes = append(notes, "highest-risk combinations: "+err.Error())
		return r, notes, nil
	}
	r.Highest = highest(rr, c.Full, 10)
	return r, notes, nil
}

// highest returns the at most k distinct key combinations of the release with the largest
// individual risk (ties: the combination met first in the file), with their frequencies.
func highest(rr *metrics.RecordRisk, full *datasets.Dataset, k int) []Combination {
	cols := make([]int, len(rr.Keys))
	for c, name := range rr.Keys {
		cols[c] = full.ColIndex(name)
	}
	order := make([]int, len(rr.Risk))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rr.Risk[b], rr.Risk[a]) })
	seen := map[string]bool{}
	var out []Combination
	for _, i := range order {
		vals := make([]string, len(cols))
		for c, j := range cols {
			vals[c] = full.Label(i, j)
		}
		id := strings.Join(vals, "\x00")
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Combination{Values: vals, Fk: Num(rr.Fk[i]), FkW: Num(rr.FkW[i]), Risk: Num(rr.Risk[i])})
		if len(out) == k {
			break
		}
	}
	return out
}

// frequencies counts the categories of each key column in the original and in the release:
// the original's categories in its order, then those only the release has, then "NA".
func frequencies(orig, rel *datasets.Dataset, keys []string) ([]Frequency, error) {
	var out []Frequency
	for _, key := range keys {
		jo, jr := orig.ColIndex(key), rel.ColIndex(key)
		if jo < 0 || jr < 0 {
			return nil, fmt.Errorf("releasereport: key %q is not a released column", key)
		}
		var order []string
		if orig.IsCategorical(jo) {
			order = slices.Clone(orig.Levels[jo])
		}
		count := func(d *datasets.Dataset, j int) map[string]int {
			m := map[string]int{}
			for i := 0; i < d.N; i++ {
				l := d.Label(i, j)
				if m[l] == 0 && l != "NA" && !slices.Contains(order, l) {
					order = append(order, l)
				}
				m[l]++
			}
			return m
		}
		before, after := count(orig, jo), count(rel, jr)
		if before["NA"] > 0 || after["NA"] > 0 {
			order = append(order, "NA")
		}
		f := Frequency{Column: key}
		for _, l := range order {
			f.Categories = append(f.Categories, CategoryCount{Category: l, Before: before[l], After: after[l]})
		}
		out = append(out, f)
	}
	return out, nil
}

// measuredColumns returns the original and released protected columns the method changed
// (Release.Columns; all when nil) whose kind in both tables satisfies keep.
func measuredColumns(c Config, keep func(catOrig, catRel bool) bool) (orig, rel *datasets.Dataset, err error) {
	o, m := c.Prepared.Protected, c.Release.Masked
	var names []string
	for j, name := range o.Names {
		if c.Release.Columns != nil && !slices.Contains(c.Release.Columns, j) {
			continue
		}
		if keep(o.IsCategorical(j), m.IsCategorical(j)) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	if orig, err = o.Select(names); err != nil {
		return nil, nil, fmt.Errorf("releasereport: %w", err)
	}
	if rel, err = m.Select(names); err != nil {
		return nil, nil, fmt.Errorf("releasereport: %w", err)
	}
	return orig, rel, nil
}

// numericSections measures linkage (before and after) and loss on the numeric protected
// columns; both are nil without any.
func numericSections(ctx context.Context, c Config) (linkage, loss []Measure, notes []string, err error) {
	o, m, err := measuredColumns(c, func(a, b bool) bool { return !a && !b })
	if err != nil || o == nil {
		return nil, nil, nil, err
	}
	before := &metrics.Input{Orig: o, Masked: o, Opt: c.Opt, Ctx: ctx}
	after := &metrics.Input{Orig: o, Masked: m, Opt: c.Opt, Ctx: ctx}
	for _, s := range linkageMeasures {
		x, err := pair(s, before, after, &notes)
		if err != nil {
			return nil, nil, nil, err
		}
		linkage = append(linkage, x)
	}
	for _, s := range numericLoss {
		x, err := pair(s, nil, after, &notes)
		if err != nil {
			return nil, nil, nil, err
		}
		loss = append(loss, x)
	}
	return linkage, loss, notes, nil
}

// categoricalLoss measures the loss on the categorical protected columns and the suppressed
// cells of all protected columns.
func categoricalLoss(ctx context.Context, c Config) ([]Measure, []string, error) {
	var out []Measure
	var notes []string
	o, m, err := measuredColumns(c, func(a, b bool) bool { return a && b })
	if err != nil {
		return nil, nil, err
	}
	if o != nil {
		after := &metrics.Input{Orig: o, Masked: m, Opt: c.Opt, Ctx: ctx}
		for _, s := range categoricalLossMeasures {
			x, err := pair(s, nil, after, &notes)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, x)
		}
	}
	all := &metrics.Input{Orig: c.Prepared.Protected, Masked: c.Release.Masked, Opt: c.Opt, Ctx: ctx}
	x, err := pair(spec{"n_suppressed", "cells present in the original and missing in the release"}, nil, all, &notes)
	if err != nil {
		return nil, nil, err
	}
	return append(out, x), notes, nil
}

// pramSection copies the PRAM diagnostics.
func pramSection(p *diag.PRAM) *PRAM {
	out := &PRAM{ExpectedChanged: Num(p.ExpectedChanged), InvarianceErr: Num(p.InvarianceErr)}
	for _, m := range p.Matrices {
		mm := Matrix{Column: m.Column, Stratum: m.Stratum, Levels: m.Levels}
		for _, row := range m.P {
			r := make([]Num, len(row))
			for j, v := range row {
				r[j] = Num(v)
			}
			mm.P = append(mm.P, r)
		}
		out.Matrices = append(out.Matrices, mm)
	}
	return out
}
