package experiments

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxRuns is the largest grid a spec may expand to. The grid is counted before it is
// expanded (the runs, their IDs and parameter sets are held in memory: about 1 KB a run), so
// a spec above the limit is refused at once with a message instead of exhausting memory.
// Split a larger study into several specs. docs/harness.md ("Limits") explains the choice.
const MaxRuns = 500_000

// SeedValue is the master seed of a spec: an unsigned 64-bit integer. TOML integers are
// signed 64-bit, so seeds from 2^63 to 2^64−1 are written as a decimal string
// (seed = "18446744073709551615"); a negative seed is an error, not a wrapped value.
type SeedValue uint64

// UnmarshalTOML accepts a non-negative TOML integer or a string holding a decimal uint64.
func (s *SeedValue) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return fmt.Errorf("seed: must be ≥ 0 (got %d); seeds are unsigned 64-bit integers", x)
		}
		*s = SeedValue(x)
		return nil
	case string:
		u, err := strconv.ParseUint(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return fmt.Errorf("seed: %q is not an integer in [0, 2^64−1]", clipEcho(x))
		}
		*s = SeedValue(u)
		return nil
	}
	return fmt.Errorf("seed: want an integer in [0, 2^64−1] (a string above 2^63−1), got %v", v)
}

// clipEcho cuts s to 64 bytes for an error message.
func clipEcho(s string) string {
	if len(s) <= 64 {
		return s
	}
	return s[:64] + "…"
}

// countRuns returns the number of runs the spec's grid expands to, without expanding it,
// or MaxRuns+1 as soon as the count exceeds MaxRuns. It is called after the datasets and
// the per-method replicate counts are checked.
func (s *Spec) countRuns() int {
	total := 0
	for i := range s.Methods {
		ms := &s.Methods[i]
		sets := 0.0
		if len(ms.Grid) > 0 || len(ms.Sets) == 0 {
			sets = 1
			for _, v := range ms.Grid {
				if list, ok := v.([]any); ok {
					sets *= float64(len(list))
				}
			}
		}
		sets += float64(len(ms.Sets))
		reps := s.Replicates
		if ms.Replicates > 0 {
			reps = ms.Replicates
		}
		n := sets * float64(reps) * float64(len(s.methodDatasets(i)))
		if n > MaxRuns || float64(total)+n > MaxRuns || math.IsInf(n, 0) {
			return MaxRuns + 1
		}
		total += int(n)
	}
	return total
}

// gridTooLarge is the error for a grid above MaxRuns.
func (s *Spec) gridTooLarge() error {
	var parts []string
	for i := range s.Methods {
		ms := &s.Methods[i]
		var dims []string
		for name, v := range ms.Grid {
			if list, ok := v.([]any); ok && len(list) > 1 {
				dims = append(dims, fmt.Sprintf("%s×%d", name, len(list)))
			}
		}
		parts = append(parts, fmt.Sprintf("%s(%s)", ms.Name, strings.Join(dims, ",")))
	}
	return &SpecError{Key: "methods", Err: fmt.Errorf("the grid has more than %d runs (the limit; "+
		"methods %s × %d datasets × replicates): split the study into several specs",
		MaxRuns, strings.Join(parts, " + "), len(s.labels))}
}

// checkDuplicateRuns refuses a grid in which two [[methods]] entries produce the same run
// (same dataset, method, parameters and replicate): runs.csv would hold its ID twice.
func checkDuplicateRuns(runs []Run, entry []int) error {
	first := make(map[string]int, len(runs))
	for k, r := range runs {
		if j, dup := first[r.ID]; dup {
			return &SpecError{Key: fmt.Sprintf("methods[%d]", entry[k]), Err: fmt.Errorf(
				"repeats a run of methods[%d] (%s on %s, %s, replicate %d): remove the duplicate entry or give it other parameters",
				entry[j], r.Method, r.Dataset, paramKey(r.Params), r.Replicate)}
		}
		first[r.ID] = k
	}
	return nil
}
