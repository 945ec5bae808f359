package metrics

import (
	"math"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
)

// Information loss of categorical protection (metrics.md §2.11; Morais 2022, Eqs. 5.4-5.6).
// They compare the evaluated columns of the original and the release by label, so a
// recoded column whose codes were renumbered is compared correctly.
func init() {
	Register(Func(Info{ID: "ut1", Unit: "%", Better: Lower, Components: []string{"pairs"},
		Description: "UT1: mean relative change of the category frequencies of each categorical column (pairs: of each two-way table), cells with original count 0 skipped, NA not a category"},
		UT1))
	Register(Func(Info{ID: "n_suppressed", Unit: "count", Better: Lower, Components: []string{"pct"},
		Description: "cells present in the original and missing in the release (local suppression's M)"},
		NSuppressed))
	Register(Func(Info{ID: "pram_changed", Unit: "count", Better: Lower, Components: []string{"pct"},
		Description: "records whose category changed in at least one categorical column (PRAM's changes)"},
		PRAMChanged))
	Register(Func(Info{ID: "pram_expected", Unit: "count", Better: None, Diag: true,
		Description: "PRAM diagnostic: expected changes Σ_i n_i·(1 − Rs_ii) given the run's transition matrices"},
		func(in *Input) Result {
			return diagValue(in, "pram_expected_changed", pramValue(func(p *diag.PRAM) float64 { return p.ExpectedChanged }))
		}))
	Register(Func(Info{ID: "pram_invariance_err", Unit: "frac", Better: None, Diag: true,
		Description: "PRAM diagnostic: max |πᵀRs − πᵀ| of the run's invariant matrices (0 up to rounding)"},
		func(in *Input) Result {
			return diagValue(in, "pram_invariance_err", pramValue(func(p *diag.PRAM) float64 { return p.InvarianceErr }))
		}))
}

// pramValue reads a value of the release's Diag.PRAM.
func pramValue(f func(*diag.PRAM) float64) func(diag.Diagnostics) (float64, bool) {
	return func(d diag.Diagnostics) (float64, bool) {
		if d.PRAM == nil {
			return 0, false
		}
		return f(d.PRAM), true
	}
}

// label returns the label of a cell for comparisons: the category of a categorical column,
// the number otherwise; ok is false for a missing value.
func label(d *datasets.Dataset, i, j int) (string, bool) {
	if math.IsNaN(d.Data[i*d.P+j]) {
		return "", false
	}
	return d.Label(i, j), true
}

// NSuppressed returns n_suppressed = #cells non-missing in the original and missing in the
// release over the evaluated columns, with Aux "pct" = 100·count/(n·p).
func NSuppressed(in *Input) Result {
	x, y := in.Orig.Data, in.Masked.Data
	cnt := 0
	for i := range x {
		if !math.IsNaN(x[i]) && math.IsNaN(y[i]) {
			cnt++
		}
	}
	pct := math.NaN()
	if len(x) > 0 {
		pct = 100 * float64(cnt) / float64(len(x))
	}
	return Result{Value: float64(cnt), Aux: map[string]float64{"pct": pct}}
}

// PRAMChanged returns pram_changed = #records whose label differs between original and
// release in at least one categorical column of the release (missing → missing is no
// change), with Aux "pct" = 100·count/n. NaN without categorical columns.
func PRAMChanged(in *Input) Result {
	cols := in.Masked.Categorical()
	if len(cols) == 0 {
		return nanNote("no categorical column")
	}
	cnt := 0
	for i := 0; i < in.Masked.N; i++ {
		for _, j := range cols {
			a, okA := label(in.Orig, i, j)
			b, okB := label(in.Masked, i, j)
			if okA != okB || a != b {
				cnt++
				break
			}
		}
	}
	return Result{Value: float64(cnt), Aux: map[string]float64{"pct": 100 * float64(cnt) / float64(in.Masked.N)}}
}

// UT1 returns ut1 = 100·mean over the cells h with T^X_h > 0 of |T^X_h − T^Y_h|/T^X_h, the
// cells of the one-way frequency tables of every categorical column of the release pooled;
// Aux "pairs" pools the cells of the two-way tables of every pair of categorical columns.
// Records with a missing value are left out of a table (NA is not a category); cells that
// exist only in the release (T^X = 0) are skipped (metrics.md §2.11). NaN without
// categorical columns.
func UT1(in *Input) Result {
	cols := in.Masked.Categorical()
	if len(cols) == 0 {
		return nanNote("no categorical column")
	}
	one := ut1Tables(in, cols, 1)
	res := Result{Value: one, Aux: map[string]float64{"pairs": math.NaN()}}
	if len(cols) > 1 {
		res.Aux["pairs"] = ut1Tables(in, cols, 2)
	}
	return res
}

// ut1Tables pools the cells of the tables of every set of `way` columns (1 or 2).
func ut1Tables(in *Input, cols []int, way int) float64 {
	var sum float64
	var cells int
	table := func(d *datasets.Dataset, a, b int) map[[2]string]float64 {
		t := map[[2]string]float64{}
		for i := 0; i < d.N; i++ {
			la, ok := label(d, i, a)
			if !ok {
				continue
			}
			lb := ""
			if b >= 0 {
				if lb, ok = label(d, i, b); !ok {
					continue
				}
			}
			t[[2]string{la, lb}]++
		}
		return t
	}
	add := func(a, b int) {
		tx, ty := table(in.Orig, a, b), table(in.Masked, a, b)
		keys := make([][2]string, 0, len(tx))
		for k := range tx {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(u, v [2]string) int { // a fixed summation order
			if c := strings.Compare(u[0], v[0]); c != 0 {
				return c
			}
			return strings.Compare(u[1], v[1])
		})
		for _, k := range keys {
			sum += math.Abs(tx[k]-ty[k]) / tx[k]
			cells++
		}
	}
	for u, a := range cols {
		if way == 1 {
			add(a, -1)
			continue
		}
		for _, b := range cols[u+1:] {
			add(a, b)
		}
	}
	if cells == 0 {
		return math.NaN()
	}
	return 100 * sum / float64(cells)
}
