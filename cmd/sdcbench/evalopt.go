package main

import (
	"fmt"
	"sort"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// evalOptions applies eval's --metric-opt flags and --control file to in and checks the
// attack metrics' options before anything is computed.
func evalOptions(in *metrics.Input, ids []string, opts map[string]string, control string) error {
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
	if control != "" {
		c, err := datasets.ReadFile(control, datasets.ReadOptions{Columns: in.Orig.Names})
		if err != nil {
			return fmt.Errorf("eval: --control: %w", err)
		}
		in.Control = c
	}
	if err := metrics.CheckAttackOptions(ids, in.Opt, in.Orig.Names); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}
