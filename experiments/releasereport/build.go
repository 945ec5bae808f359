package releasereport

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// Config is what Build needs of a protect run.
type Config struct {
	// Input and Output describe the files (Records and Columns are filled in by Build).
	Input, Output File
	// Command is the command line, for the reader to repeat the run.
	Command string
	// Data is the input table as read, before any column was dropped.
	Data *datasets.Dataset
	// Dropped are the columns left out of the release; Strata the strata column ("" none).
	Dropped []string
	Strata  string
	// Info and Params are the method and its resolved parameters; Seed the run's seed.
	Info   methods.Info
	Params methods.Params
	Seed   uint64
	// Prepared, Release and Full are the run: the prepared input, the method's release and
	// the whole released table (protected and passed-through columns, file order).
	Prepared *methods.Prepared
	Release  *methods.Release
	Full     *datasets.Dataset
	// Opt names the key, weight, household and sensitive columns of the risk measures.
	Opt metrics.Options
	// External leaves out the per-combination counts.
	External bool
	// Now is the report's time stamp (the zero time: time.Now).
	Now time.Time
}

// Build computes the report of a protect run. ctx cancels the measures (SUDA, linkage) that
// take long on large inputs; its error is returned.
func Build(ctx context.Context, c Config) (*Report, error) {
	if c.Data == nil || c.Prepared == nil || c.Release == nil || c.Full == nil {
		return nil, fmt.Errorf("releasereport: incomplete configuration: the input, the prepared run and the release are needed")
	}
	pr := c.Prepared
	now := c.Now
	if now.IsZero() {
		now = time.Now()
	}
	r := &Report{
		Variant: "internal",
		Created: now.UTC().Format(time.RFC3339),
		Tool:    toolInfo(),
		Command: c.Command,
		Input:   c.Input,
		Output:  c.Output,
		Seed:    c.Seed,
		Method:  Method{Name: c.Info.Name, Description: c.Info.Description},
	}
	if c.External {
		r.Variant = "external"
	}
	name := c.Input.Path
	if name == "" {
		name = c.Input.Dataset
	}
	r.Title = fmt.Sprintf("Release report: %s on %s", c.Info.Name, name)
	r.Input.Records, r.Input.Columns = c.Data.N, c.Data.P
	r.Output.Records, r.Output.Columns = c.Full.N, c.Full.P
	for _, n := range c.Params.Names() {
		def := ""
		if k := slices.IndexFunc(c.Info.Params, func(ps methods.ParamSpec) bool { return ps.Name == n }); k >= 0 {
			def = c.Info.Params[k].Default
		}
		r.Method.Params = append(r.Method.Params, Param{Name: n, Value: c.Params.Get(n), Default: def})
	}
	r.Columns = columns(c)

	in := &measureInputs{
		before: &metrics.Input{Orig: pr.Protected, Masked: pr.Protected, MaskedAll: pr.Full, Opt: c.Opt, Ctx: ctx},
		after: &metrics.Input{Orig: pr.Protected, Masked: c.Release.Masked, MaskedAll: c.Full, Opt: c.Opt,
			Labels: c.Release.Labels, Diag: c.Release.Diag, Ctx: ctx},
	}
	if len(c.Opt.Keys) > 0 {
		risk, notes, err := riskSection(in, c)
		if err != nil {
			return nil, err
		}
		r.Risk, r.Notes = risk, append(r.Notes, notes...)
		if !c.External {
			if r.Frequencies, err = frequencies(pr.Full, c.Full, c.Opt.Keys); err != nil {
				return nil, err
			}
		}
	}
	var err error
	var notes []string
	r.Linkage, r.Loss, notes, err = numericSections(ctx, c)
	if err != nil {
		return nil, err
	}
	r.Notes = append(r.Notes, notes...)
	cat, notes, err := categoricalLoss(ctx, c)
	if err != nil {
		return nil, err
	}
	r.Loss, r.Notes = append(r.Loss, cat...), append(r.Notes, notes...)
	r.Changes = Changes(pr.Protected, c.Release.Masked)
	if p := c.Release.Diag.PRAM; p != nil {
		r.PRAM = pramSection(p)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("releasereport: %w", err)
	}
	return r, nil
}

// toolInfo returns sdcbench's version and the VCS revision the binary was built from.
func toolInfo() Tool {
	t := Tool{Name: "sdcbench", Version: experiments.Version, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				t.Commit = s.Value
			case "vcs.modified":
				t.Modified = s.Value == "true"
			}
		}
	}
	return t
}

// columns lists the input's columns with their kinds, roles and missing cells.
func columns(c Config) []Column {
	d, pr := c.Data, c.Prepared
	var out []Column
	for j, name := range d.Names {
		col := Column{Name: name, Kind: "numeric"}
		src := d
		if k := pr.Full.ColIndex(name); k >= 0 {
			src = pr.Full // as protect read it for the method (keys become categorical)
		}
		k := src.ColIndex(name)
		if src.IsCategorical(k) {
			col.Kind, col.Categories = "categorical", len(src.Levels[k])
		}
		col.MissingBefore = missing(d, j)
		switch {
		case slices.Contains(c.Dropped, name):
			col.Roles = append(col.Roles, "dropped")
		case pr.Protected.ColIndex(name) >= 0:
			col.Roles = append(col.Roles, "protected")
		case name == c.Strata:
			col.Roles = append(col.Roles, "strata")
		default:
			col.Roles = append(col.Roles, "passed through")
		}
		if slices.Contains(c.Opt.Keys, name) {
			col.Roles = append(col.Roles, "key")
		}
		for _, r := range []struct{ role, col string }{{"weight", c.Opt.Weight}, {"household", c.Opt.Household}, {"sensitive", c.Opt.Sensitive}} {
			if r.col == name {
				col.Roles = append(col.Roles, r.role)
			}
		}
		if k := c.Full.ColIndex(name); k >= 0 {
			col.MissingAfter = missing(c.Full, k)
		}
		out = append(out, col)
	}
	return out
}

// missing counts the missing cells of column j.
func missing(d *datasets.Dataset, j int) int {
	n := 0
	for i := 0; i < d.N; i++ {
		if math.IsNaN(d.Data[i*d.P+j]) {
			n++
		}
	}
	return n
}

// Changes counts, per protected column (orig and masked have the same columns), the cells whose
// value (a category's label) differs between orig and masked, and the suppressed ones: present
// in orig, missing in masked. protect's summary sums them. The numeric columns are counted
// together, row after row (one pass over the tables rather than one per column).
func Changes(orig, masked *datasets.Dataset) []Change {
	if orig.P == 0 {
		return nil
	}
	out := make([]Change, orig.P)
	var num []int
	for j := range out {
		ch := &out[j]
		ch.Column = orig.Names[j]
		if !orig.IsCategorical(j) && !masked.IsCategorical(j) {
			num = append(num, j)
			continue
		}
		for i := 0; i < orig.N; i++ {
			la, lb := orig.Label(i, j), masked.Label(i, j)
			if la != lb {
				ch.Changed++
			}
			if la != "NA" && lb == "NA" {
				ch.Suppressed++
			}
		}
	}
	if len(num) > 0 {
		changed, suppressed := make([]int, orig.P), make([]int, orig.P)
		for i := 0; i < orig.N; i++ {
			row, mrow := orig.Data[i*orig.P:(i+1)*orig.P], masked.Data[i*masked.P:(i+1)*masked.P]
			for _, j := range num {
				a, b := row[j], mrow[j]
				oMiss, mMiss := math.IsNaN(a), math.IsNaN(b)
				if a != b && !(oMiss && mMiss) {
					changed[j]++
				}
				if !oMiss && mMiss {
					suppressed[j]++
				}
			}
		}
		for _, j := range num {
			out[j].Changed, out[j].Suppressed = changed[j], suppressed[j]
		}
	}
	n := float64(max(orig.N, 1))
	for j := range out {
		ch := &out[j]
		ch.ChangedPct, ch.SuppressedPct = Num(100*float64(ch.Changed)/n), Num(100*float64(ch.Suppressed)/n)
	}
	return out
}
