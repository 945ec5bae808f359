package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// riskyCellsReference is RiskyCells as it was before 2026-11-29: every table counted over all
// records in a hash map. The tests compare RiskyCells with it.
func riskyCellsReference(in *Input) Result {
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

// TestRiskyCellsMatchesReference: on random tables (1–8 keys of 1 to 2000 categories, 0–40 %
// missing key cells with several NaN payloads and −0, duplicated records), with tables of up
// to 1–8 keys and one threshold or one per dimension, RiskyCells's count and its count per
// dimension equal those of riskyCellsReference (the former implementation: every table
// counted over all records in a hash map).
func TestRiskyCellsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 31))
	for it := 0; it < 150; it++ {
		ds, m, n, levels, na := randomKeyCase(r, it, 0)
		opt := Options{Keys: ds.Names[:m], Weight: "w"}
		opt.RiskyCells.MaxDim = r.IntN(m + 1)
		dims := opt.RiskyCells.MaxDim
		if dims == 0 {
			dims = min(3, m)
		}
		switch r.IntN(3) {
		case 1:
			opt.RiskyCells.Threshold = []int{1 + r.IntN(10)}
		case 2:
			for range dims {
				opt.RiskyCells.Threshold = append(opt.RiskyCells.Threshold, 1+r.IntN(10))
			}
		}
		got := RiskyCells(&Input{Orig: ds, Masked: ds, Opt: opt})
		want := riskyCellsReference(&Input{Orig: ds, Masked: ds, Opt: opt})
		if got.Value != want.Value || fmt.Sprint(got.Aux) != fmt.Sprint(want.Aux) {
			t.Fatalf("case %d (n %d, levels %v, missing %g, %+v): %v %v, want %v %v",
				it, n, levels, na, opt.RiskyCells, got.Value, got.Aux, want.Value, want.Aux)
		}
	}
}

// TestRiskyCellsManyKeys: with more than 64 key columns (past a subset's 64 bits) and with
// thresholds beyond 2^32, risky_cells counts every table of one and two keys as a plain count
// over the records' cells does.
func TestRiskyCellsManyKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 65))
	cell := func(v float64) uint64 { // keyfreq's equality: every NaN one value, −0 as +0
		switch {
		case math.IsNaN(v):
			return 1<<64 - 1
		case v == 0:
			return 0
		}
		return math.Float64bits(v)
	}
	for _, tc := range []struct {
		m, maxDim int
		th        []int
	}{
		{70, 1, []int{2}},
		{66, 2, []int{3, 1}},
		{65, 2, []int{1 << 32}},
		{8, 2, []int{1<<32 + 1}},
	} {
		levels := make([]int, tc.m)
		for k := range levels {
			levels[k] = []int{2, 3, 20, 300}[r.IntN(4)]
		}
		ds := sudaTable(r, 400, tc.m, levels, 0.05)
		opt := Options{Keys: ds.Names[:tc.m], Weight: "w"}
		opt.RiskyCells.MaxDim, opt.RiskyCells.Threshold = tc.maxDim, tc.th
		want := make([]float64, tc.maxDim)
		limit := func(dim int) int {
			if len(tc.th) == 1 {
				return tc.th[0]
			}
			return tc.th[dim-1]
		}
		count := func(dim int, key func(i int) [2]uint64) {
			cells := map[[2]uint64]int{}
			for i := range ds.N {
				cells[key(i)]++
			}
			for _, c := range cells {
				if c <= limit(dim) {
					want[dim-1]++
				}
			}
		}
		for a := range tc.m {
			count(1, func(i int) [2]uint64 { return [2]uint64{cell(ds.Data[i*ds.P+a])} })
			for b := a + 1; b < tc.m && tc.maxDim > 1; b++ {
				count(2, func(i int) [2]uint64 { return [2]uint64{cell(ds.Data[i*ds.P+a]), cell(ds.Data[i*ds.P+b])} })
			}
		}
		got := RiskyCells(&Input{Masked: ds, Opt: opt})
		if got.Value != sum(want) || got.Aux["d1"] != want[0] || (tc.maxDim > 1 && got.Aux["d2"] != want[1]) {
			t.Errorf("%d keys, max_dim %d, thresholds %v: %v %v, want %v", tc.m, tc.maxDim, tc.th, got.Value, got.Aux, want)
		}
	}
}
