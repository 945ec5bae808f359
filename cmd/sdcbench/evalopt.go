package main

import (
	"fmt"
	"sort"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// evalOptions applies eval's --metric-opt flags and --control file to in and checks the
// attack metrics' options before anything is computed. Without an original (in.Orig nil, the
// release alone) there is no control set and no attack measure: runEval refused both.
func evalOptions(in *metrics.Input, ids []string, opts map[string]string, control string, na datasets.NA) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := in.Opt.SetOption(k, opts[k]); err != nil {
			return fmt.Errorf("eval: --metric-opt: %w", err)
		}
	}
	if in.Orig == nil {
		return nil
	}
	if control != "" {
		// Read like the original: the same NA tokens, categorical columns coded with the
		// original's categories.
		var cat []string
		for _, j := range in.Orig.Categorical() {
			cat = append(cat, in.Orig.Names[j])
		}
		c, err := datasets.ReadFile(control, datasets.ReadOptions{Columns: in.Orig.Names, Mixed: true, NA: na, Categorical: cat})
		if err != nil {
			return fmt.Errorf("eval: --control: %w", err)
		}
		for j := range c.Names {
			if c.IsCategorical(j) && !in.Orig.IsCategorical(j) {
				return fmt.Errorf("eval: --control: %s: column %q holds text where the original has numbers", control, c.Names[j])
			}
		}
		if c, err = c.AlignLevels(in.Orig); err != nil {
			return fmt.Errorf("eval: --control: %w", err)
		}
		in.Control = c
	}
	if err := metrics.CheckAttackOptions(ids, in.Opt, in.Orig.Names); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}
