package metrics

import "github.com/sdcbench/sdcbench/diag"

// The diagnostics of the dfo method (docs/dfo.md), read from the release's Diag.
func init() {
	for _, m := range []struct {
		id, key, unit, desc string
		get                 func(d diag.Diagnostics) (float64, bool)
	}{
		{"il_start", "il_start", "%", "sse_sst of the search's unrefined start partition (DFO paper IL of MDAV/GSMS; dfo.md §10)",
			searchValue(func(s *diag.Search) float64 { return s.ILStart })},
		{"dfo_g0", "g0", "count", "number of groups of the DFO start partition (G0)",
			patternValue(func(s *diag.Search) float64 { return float64(s.G0) })},
		{"dfo_g", "g_best", "count", "number of groups G* where the DFO pattern search stopped",
			searchValue(func(s *diag.Search) float64 { return float64(s.GBest) })},
		{"dfo_groups", "groups", "count", "number of groups of the released DFO partition (≥ G* if groups of 2k or more were split)",
			func(d diag.Diagnostics) (float64, bool) {
				if d.Partition == nil {
					return 0, false
				}
				return float64(d.Partition.Groups), true
			}},
		{"dfo_evals", "n_evals", "count", "distinct surrogate evaluations F′(G) of the DFO search",
			patternValue(func(s *diag.Search) float64 { return float64(s.Evals) })},
		{"dfo_cpu", "cpu_s", "s", "CPU seconds of the DFO run's thread (Linux; unaffected by other jobs on the machine)",
			searchValue(func(s *diag.Search) float64 { return s.CPU })},
	} {
		Register(Func(Info{ID: m.id, Unit: m.unit, Better: None, Description: m.desc, Diag: true},
			func(in *Input) Result { return diagValue(in, m.key, m.get) }))
	}
}

// searchValue reads a value of the release's Diag.Search.
func searchValue(f func(*diag.Search) float64) func(diag.Diagnostics) (float64, bool) {
	return func(d diag.Diagnostics) (float64, bool) {
		if d.Search == nil {
			return 0, false
		}
		return f(d.Search), true
	}
}

// patternValue reads a value that only DFO's pattern search reports (Search.Pattern).
func patternValue(f func(*diag.Search) float64) func(diag.Diagnostics) (float64, bool) {
	return func(d diag.Diagnostics) (float64, bool) {
		if d.Search == nil || !d.Search.Pattern {
			return 0, false
		}
		return f(d.Search), true
	}
}

// diagValue returns get(in.Diag) as a metric value, NaN with a note naming the diagnostic
// key if the release does not report it.
func diagValue(in *Input, key string, get func(diag.Diagnostics) (float64, bool)) Result {
	v, ok := get(in.Diag)
	if !ok {
		return nanNote(key + ": not in the release's diagnostics (not a dfo run?)")
	}
	return Result{Value: v}
}
