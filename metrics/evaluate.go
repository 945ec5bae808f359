package metrics

import "fmt"

import "github.com/sdcbench/sdcbench/datasets"

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

func isAttack(id string) bool {
	for _, a := range AttackMetrics {
		if a == id {
			return true
		}
	}
	return false
}
