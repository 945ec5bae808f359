package releasereport

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// changesByColumns is Changes as it was before it counted the numeric columns row after row:
// one pass per column.
func changesByColumns(orig, masked *datasets.Dataset) []Change {
	var out []Change
	for j := 0; j < orig.P; j++ {
		ch := Change{Column: orig.Names[j]}
		cat := orig.IsCategorical(j) || masked.IsCategorical(j)
		for i := 0; i < orig.N; i++ {
			a, b := orig.Data[i*orig.P+j], masked.Data[i*masked.P+j]
			oMiss, mMiss := math.IsNaN(a), math.IsNaN(b)
			if cat {
				la, lb := orig.Label(i, j), masked.Label(i, j)
				oMiss, mMiss = la == "NA", lb == "NA"
				if la != lb {
					ch.Changed++
				}
			} else if a != b && !(oMiss && mMiss) {
				ch.Changed++
			}
			if !oMiss && mMiss {
				ch.Suppressed++
			}
		}
		n := float64(max(orig.N, 1))
		ch.ChangedPct, ch.SuppressedPct = Num(100*float64(ch.Changed)/n), Num(100*float64(ch.Suppressed)/n)
		out = append(out, ch)
	}
	return out
}

// TestChangesMatchesByColumns compares Changes with the column-by-column reference on random
// tables of numeric and categorical columns with missing cells, negative zeros, unchanged
// and suppressed cells, and a release whose column is categorical where the original's is
// numeric.
func TestChangesMatchesByColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	for trial := range 100 {
		n, p := r.IntN(60), r.IntN(6)
		x, y := make([]float64, n*p), make([]float64, n*p)
		lo, lm := make([][]string, p), make([][]string, p)
		anyCat := false
		for j := 0; j < p; j++ {
			switch r.IntN(3) {
			case 0:
				lo[j], lm[j] = []string{"a", "b", "c"}, []string{"a", "b", "c"}
				anyCat = true
			case 1:
				if trial%4 == 0 {
					lm[j] = []string{"1", "2"} // categorical in the release only
					anyCat = true
				}
			}
		}
		for k := range x {
			j := k % max(p, 1)
			v := float64(r.IntN(3))
			if lo[j] == nil && r.IntN(2) == 0 {
				v = r.NormFloat64()
			}
			x[k], y[k] = v, v
			switch u := r.Float64(); {
			case u < 0.1:
				x[k] = math.NaN()
			case u < 0.2:
				y[k] = math.NaN()
			case u < 0.25:
				x[k], y[k] = math.NaN(), math.NaN()
			case u < 0.3 && lo[j] == nil:
				x[k], y[k] = 0, math.Copysign(0, -1)
			case u < 0.5:
				y[k] = float64(r.IntN(3))
			}
		}
		names := make([]string, p)
		for j := range names {
			names[j] = "v" + string(rune('0'+j))
		}
		orig, masked := datasets.New("o", names, n, p, x), datasets.New("m", names, n, p, y)
		if anyCat {
			orig.Levels, masked.Levels = lo, lm
		}
		got, want := Changes(orig, masked), changesByColumns(orig, masked)
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("trial %d (n=%d p=%d): %+v, column by column %+v", trial, n, p, got, want)
		}
	}
}
