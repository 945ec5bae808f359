package metrics

import (
	"fmt"
	"math"
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
// dimension. NaN with a note for a bad option or no key column. Cost O(n·Σ_d C(m, d)·d).
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
	// dense codes per key column (NaN one code of its own)
	code := make([][]uint64, m)
	card := make([]uint64, m)
	for c, l := range cols {
		ids := map[uint64]uint64{}
		code[c] = make([]uint64, n)
		for i := 0; i < n; i++ {
			k := keyfreq.Bits(d[i*p+l])
			v, ok := ids[k]
			if !ok {
				v = uint64(len(ids))
				ids[k] = v
			}
			code[c][i] = v
		}
		card[c] = uint64(len(ids))
	}
	perDim := make([]float64, maxDim)
	counts := map[uint64]int{}
	strCounts := map[string]int{}
	buf := make([]byte, 0, 8*maxDim)
	for S := 1; S < 1<<m; S++ {
		dim := popcount(S)
		if dim > maxDim {
			continue
		}
		if err := in.Err(); err != nil {
			return cancelled(err)
		}
		limit := th[0]
		if len(th) > 1 {
			limit = th[dim-1]
		}
		// a mixed-radix key when the table's cells fit in 64 bits, else a byte string
		fits, span := true, uint64(1)
		for c := 0; c < m && fits; c++ {
			if S>>c&1 == 1 {
				fits = span <= math.MaxUint64/card[c]
				span *= card[c]
			}
		}
		clear(counts)
		clear(strCounts)
		for i := 0; i < n; i++ {
			if fits {
				var k uint64
				for c := 0; c < m; c++ {
					if S>>c&1 == 1 {
						k = k*card[c] + code[c][i]
					}
				}
				counts[k]++
				continue
			}
			buf = buf[:0]
			for c := 0; c < m; c++ {
				if S>>c&1 == 1 {
					buf = strconv.AppendUint(buf, code[c][i], 36)
					buf = append(buf, ',')
				}
			}
			strCounts[string(buf)]++
		}
		for _, k := range counts {
			if k <= limit {
				perDim[dim-1]++
			}
		}
		for _, k := range strCounts {
			if k <= limit {
				perDim[dim-1]++
			}
		}
	}
	res := Result{Value: sum(perDim), Aux: map[string]float64{}}
	for k, v := range perDim {
		res.Aux["d"+itoa(k+1)] = v
	}
	return res
}
