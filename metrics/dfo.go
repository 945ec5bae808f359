package metrics

// The diagnostics of the dfo method (docs/dfo.md), read from the release's Info.
func init() {
	for _, m := range []struct{ id, key, unit, desc string }{
		{"il_start", "il_start", "%", "sse_sst of the search's unrefined start partition (DFO paper IL of MDAV/GSMS; dfo.md §10)"},
		{"dfo_g0", "g0", "count", "number of groups of the DFO start partition (G0)"},
		{"dfo_g", "g_best", "count", "number of groups G* where the DFO pattern search stopped"},
		{"dfo_groups", "groups", "count", "number of groups of the released DFO partition (≥ G* if groups of 2k or more were split)"},
		{"dfo_evals", "n_evals", "count", "distinct surrogate evaluations F′(G) of the DFO search"},
		{"dfo_cpu", "cpu_s", "s", "CPU seconds of the DFO run's thread (Linux; unaffected by other jobs on the machine)"},
	} {
		Register(Func(Info{ID: m.id, Unit: m.unit, Better: None, Description: m.desc},
			func(in *Input) Result { return infoValue(in, m.key) }))
	}
}

// infoValue returns the release's Info[key] as a metric value, NaN with a note if absent.
func infoValue(in *Input, key string) Result {
	v, ok := infoFloat(in.Info, key)
	if !ok {
		return nanNote(key + ": not in the release's Info (not a dfo run?)")
	}
	return Result{Value: v}
}
