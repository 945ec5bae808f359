package metrics

import (
	"context"
	"fmt"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
)

// Evaluate computes the metrics ids on a release of orig with the default options and
// returns their values by column name: the metric's ID and, for its components, <ID>_<name>
// (as runs.csv names them). An unknown ID or a shape mismatch is an error.
func Evaluate(orig, masked *datasets.Dataset, ids ...string) (map[string]float64, error) {
	return (&Input{Orig: orig, Masked: masked}).Evaluate(ids...)
}

// Evaluate computes the metrics ids on in (with its options, labels and control set); see the
// package function Evaluate. Once in.Ctx is done it returns in.Ctx's error (EvaluateContext).
func (in *Input) Evaluate(ids ...string) (map[string]float64, error) {
	if in.Orig == nil || in.Masked == nil {
		return nil, fmt.Errorf("metrics: Evaluate: nil dataset")
	}
	ms := make([]Metric, len(ids))
	for i, id := range ids {
		m, err := Lookup(id)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	if err := CheckAttackOptions(ids, in.Opt, in.Orig.Names); err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(ids))
	for _, m := range ms {
		info := m.Info()
		if err := in.evalErr(info.ID); err != nil {
			return nil, err
		}
		if in.Orig.P != in.Masked.P || (in.Orig.N != in.Masked.N && !isAttack(info.ID)) {
			return nil, fmt.Errorf("metrics: %s: original is %d×%d, release %d×%d", info.ID,
				in.Orig.N, in.Orig.P, in.Masked.N, in.Masked.P)
		}
		r := m.Eval(in)
		if err := in.evalErr(info.ID); err != nil {
			return nil, err
		}
		out[info.ID] = r.Value
		for _, c := range info.Components {
			if v, ok := r.Aux[c]; ok {
				out[info.ID+"_"+c] = v
			}
		}
	}
	return out, nil
}

// isAttack reports whether id is a measure that accepts a release with another number of
// rows than the original (a synthetic sample): the attacks, DiSCO and TCAP, membership.
func isAttack(id string) bool {
	return slices.Contains(AttackMetrics, id) || slices.Contains(DisclosureMetrics, id) || id == "membership"
}

// evalGated evaluates m on the columns of the kind info.Columns declares (docs/metrics.md
// §0.6): a NumericColumns metric on the numeric protected columns only, a CategoricalColumns
// metric on the categorical ones. When every protected column is of the declared kind, m sees
// in itself and its value is what it always was. When none is, m is not evaluated: the result
// is NaN with NotApplicable saying why. Otherwise m sees the part of in of its kind (the
// original, the release and the control set restricted to those columns; keys, labels,
// diagnostics and options unchanged) and a note names the columns left out.
func (in *Input) evalGated(m Metric, info Info) Result {
	k := info.Columns
	if (k != NumericColumns && k != CategoricalColumns) || in.Orig == nil || in.Masked == nil {
		return m.Eval(in)
	}
	var keep, left []string
	for j, name := range in.Orig.Names {
		if in.Orig.IsCategorical(j) == (k == CategoricalColumns) {
			keep = append(keep, name)
		} else {
			left = append(left, name)
		}
	}
	switch {
	case len(left) == 0:
		return m.Eval(in)
	case len(keep) == 0:
		return notApplicable(info, left)
	}
	part, err := in.part(k, keep)
	if err != nil { // a shape mismatch: let the metric report it as it does on any input
		return m.Eval(in)
	}
	r := m.Eval(part)
	r.Notes = append(r.Notes, fmt.Sprintf("%s measures %s columns only: left out %s", info.ID, k, joinNames(left)))
	return r
}

// notApplicable is the result of a metric none of whose column kind is protected.
func notApplicable(info Info, left []string) Result {
	other := "numeric"
	if info.Columns == NumericColumns {
		other = "categorical"
	}
	verb := "is"
	if len(left) > 1 {
		verb = "are"
	}
	return Result{Value: nan().Value, NotApplicable: fmt.Sprintf("%s measures %s columns; %s %s %s",
		info.ID, info.Columns, joinNames(left), verb, other)}
}

// part returns in restricted to the columns keep (of kind k), built once per Input and kind
// and shared by the metrics of that kind.
func (in *Input) part(k ColumnKind, keep []string) (*Input, error) {
	p := &in.kinds
	p.once[k].Do(func() {
		sub := &Input{Labels: in.Labels, Diag: in.Diag, Opt: in.Opt, MaskedAll: in.keyTable()}
		if sh := in.Shadow; sh != nil {
			sub.Shadow = func(ctx context.Context, rows []int, seed uint64) (*datasets.Dataset, error) {
				d, err := sh(ctx, rows, seed)
				if err != nil {
					return nil, err
				}
				return d.Select(keep)
			}
		}
		var err error
		if sub.Orig, err = in.Orig.Select(keep); err == nil {
			sub.Masked, err = in.Masked.Select(keep)
		}
		if err == nil && in.Control != nil {
			sub.Control, err = in.Control.Select(keep)
		}
		p.in[k], p.err[k] = sub, err
	})
	return p.in[k], p.err[k]
}
