package metrics

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// riskyCells of sdcMicro 5.8.1 (docs/metrics.md §4.7).
func init() {
	Register(Func(Info{ID: "risky_cells", Unit: "count", Better: Lower, Components: []string{"d1", "d2", "d3"},
		Description: "unsafe cells (at most threshold records) in the tables of 1..max_dim keys (sdcMicro riskyCells; metrics.md §4.7)"},
		RiskyCells))
}

// RiskyCellsOptions are the parameters of risky_cells, sdcMicro riskyCells's threshold and
// maxDim with useIdentificationLevel = FALSE. sdcMicro has no defaults for them; ours are a
// threshold of 2 (the cells that violate 3-anonymity) and tables of up to 3 keys.
type RiskyCellsOptions struct {
	// Threshold lists the largest unsafe cell size per table dimension (one value: the same for
	// every dimension; nil means {2}). Set with metric option risky_cells_threshold = "20,10,5".
	Threshold []int
	// MaxDim is the largest number of keys tabulated (0 means min(3, number of keys)); it must
	// not exceed the number of keys. Metric option risky_cells_max_dim.
	MaxDim int
}

// setRiskyCellsOption sets the metric options risky_cells_threshold and risky_cells_max_dim;
// ok is false for another key.
func (o *Options) setRiskyCellsOption(key, value string) (ok bool, err error) {
	bad := func(want string) error { return fmt.Errorf("%w %s=%q: want %s", ErrBadOption, key, value, want) }
	switch key {
	case "risky_cells_threshold":
		var th []int
		for _, f := range strings.Split(value, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 1 {
				return true, bad("integers ≥ 1, comma-separated (one, or one per dimension)")
			}
			th = append(th, v)
		}
		o.RiskyCells.Threshold = th
	case "risky_cells_max_dim":
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || v < 1 {
			return true, bad("an integer ≥ 1")
		}
		o.RiskyCells.MaxDim = v
	default:
		return false, nil
	}
	return true, nil
}

// RiskyCells returns risky_cells, sdcMicro riskyCells with useIdentificationLevel = FALSE
// (docs/metrics.md §4.7): for every set of d = 1, …, MaxDim key columns, the frequency table of
// the release's records on those keys is formed (a missing value is a category of its own, as
// data.table groups NA) and its non-empty cells with at most Threshold[d−1] records are
// counted; the value is the count over all the tables, Aux "d1", "d2", … the count per
// dimension. NaN with a note for a bad option or no key column.
//
// The cells are the projections of the release's exact key tuples (keyfreq.Exact) on each set
// of keys (keyProjections), each tuple adding its records: O(n·m + c·Σ_d C(m, d)) for c tuples,
// against a hash-map operation per record and table before (docs/scaling.md, "SUDA over the
// exact key tuples").
func RiskyCells(in *Input) Result {
	t := in.keyTable()
	cols, note := keyColumns(in)
	if note == "" && len(cols) == 0 {
		note = "no key columns"
	}
	if note != "" {
		return nanNote("risky_cells: " + note)
	}
	m := len(cols)
	maxDim := in.Opt.RiskyCells.MaxDim
	if maxDim == 0 {
		maxDim = min(3, m)
	}
	if maxDim > m {
		return nanNote(fmt.Sprintf("risky_cells: max_dim %d exceeds the %d key columns", maxDim, m))
	}
	th := in.Opt.RiskyCells.Threshold
	switch {
	case len(th) == 0:
		th = []int{2}
	case len(th) != 1 && len(th) != maxDim:
		return nanNote(fmt.Sprintf("risky_cells: %d thresholds for %d dimensions (give one, or one per dimension)", len(th), maxDim))
	}
	d, n, p := t.Data, t.N, t.P
	perDim := make([]float64, maxDim)
	if n > 0 {
		ex := keyfreq.Exact(d, n, p, cols, true)
		var cnt []uint32 // records by cell number, all zero between tables
		proj := newKeyProjections(ex, m)
		err := proj.walk(maxDim, func(dim int, _ uint64, keys []uint32, span uint64) error {
			if err := in.Err(); err != nil {
				return err
			}
			limit := uint64(th[0]) // thresholds are ≥ 1 (setRiskyCellsOption) and may exceed 2^32
			if len(th) > 1 {
				limit = uint64(th[dim-1])
			}
			if uint64(len(cnt)) < span {
				cnt = make([]uint32, max(span, min(2*uint64(len(cnt)), proj.limit)))
			}
			for t, k := range keys {
				cnt[k] += uint32(ex.Count[t])
			}
			// Each non-empty cell once: counted, then cleared.
			for _, k := range keys {
				if c := cnt[k]; c != 0 {
					if uint64(c) <= limit {
						perDim[dim-1]++
					}
					cnt[k] = 0
				}
			}
			return nil
		})
		if err != nil {
			return cancelled(err)
		}
	}
	res := Result{Value: sum(perDim), Aux: map[string]float64{}}
	for k, v := range perDim {
		res.Aux["d"+itoa(k+1)] = v
	}
	return res
}
