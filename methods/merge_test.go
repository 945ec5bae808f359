package methods

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// mergeByCopy is merge as it was before it shared the release's values: Full cloned, the
// protected columns copied in. The reference of TestMergeMatchesCopy.
func mergeByCopy(pr *Prepared, masked *datasets.Dataset) *datasets.Dataset {
	full := pr.Full.Clone()
	for c, j := range pr.prot {
		for i := 0; i < full.N; i++ {
			full.Data[i*full.P+j] = masked.Data[i*masked.P+c]
		}
		if masked.IsCategorical(c) {
			if full.Levels == nil {
				full.Levels = make([][]string, full.P)
			}
			full.Levels[j] = slices.Clone(masked.Levels[c])
		} else if full.Levels != nil {
			full.Levels[j] = nil
		}
	}
	return full
}

// sameTable reports whether a and b hold the same names, shape, values (bit for bit; any NaN
// equals any NaN) and levels (nil and empty apart).
func sameTable(a, b *datasets.Dataset) bool {
	if a.Name != b.Name || !slices.Equal(a.Names, b.Names) || a.N != b.N || a.P != b.P ||
		len(a.Data) != len(b.Data) || (a.Levels == nil) != (b.Levels == nil) {
		return false
	}
	for i, v := range a.Data {
		if w := b.Data[i]; math.Float64bits(v) != math.Float64bits(w) && !(v != v && w != w) {
			return false
		}
	}
	for j := range a.Levels {
		if (a.Levels[j] == nil) != (b.Levels[j] == nil) || !slices.Equal(a.Levels[j], b.Levels[j]) {
			return false
		}
	}
	return true
}

// TestMergeMatchesCopy checks the whole released table Protect returns (merge) against the
// copying merge on random tables, with and without missing values: every column protected
// (merge then shares the release's values), some kept, keys categorical, releases with
// numeric and categorical columns. It also checks that the shared table's levels are its own.
func TestMergeMatchesCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 50))
	sels := []Selection{
		{},
		{Keys: []string{"k"}},
		{Keep: []string{"k"}},
		{Columns: []string{"x", "y"}, Keep: []string{"k"}, Keys: []string{"k"}},
		{Categorical: []string{"y"}},
	}
	for trial := range 200 {
		n := 1 + rng.IntN(40)
		data := make([]float64, 3*n)
		for i := range data {
			data[i] = math.Round(rng.NormFloat64() * 3)
			if trial%2 == 1 && rng.IntN(6) == 0 {
				data[i] = math.NaN()
			}
		}
		d := datasets.New("t", []string{"x", "k", "y"}, n, 3, data)
		sel := sels[trial%len(sels)]
		pr, err := Prepare(d, sel, Info{Name: "m", Columns: AnyColumns})
		if err != nil {
			t.Fatal(err)
		}
		masked := pr.Protected.Clone()
		for i := range masked.Data {
			if rng.IntN(3) == 0 {
				masked.Data[i] += 1
			}
		}
		if trial%3 == 0 { // a release with categories of its own
			if masked, err = masked.Categorize(masked.Names[:1]); err != nil {
				t.Fatal(err)
			}
		}
		want := mergeByCopy(pr, masked)
		got := pr.merge(masked)
		if !sameTable(got, want) {
			t.Fatalf("trial %d, selection %+v: merge differs from the copying merge:\n%+v\n%+v", trial, sel, got, want)
		}
		for j := range got.Levels {
			if len(got.Levels[j]) > 0 && masked.IsCategorical(j) && &got.Levels[j][0] == &masked.Levels[j][0] {
				t.Fatalf("trial %d: column %d's levels are shared with the release", trial, j)
			}
		}
	}
}

// TestPrepareCategorizedInPlace checks that Prepare on a table whose keys the caller has
// categorized in place (as eval does) gives the tables Prepare gives on the table as read.
func TestPrepareCategorizedInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 51))
	for trial := range 100 {
		n := 1 + rng.IntN(40)
		data := make([]float64, 3*n)
		for i := range data {
			data[i] = float64(rng.IntN(5))
			if trial%2 == 1 && rng.IntN(6) == 0 {
				data[i] = math.NaN()
			}
		}
		d := datasets.New("t", []string{"x", "k", "y"}, n, 3, data)
		sel := Selection{Keys: []string{"k", "y"}}
		want, err := Prepare(d, sel, Info{Name: "eval", Columns: AnyColumns})
		if err != nil {
			t.Fatal(err)
		}
		own := d.Clone()
		if err := own.CategorizeInPlace(sel.Keys); err != nil {
			t.Fatal(err)
		}
		got, err := Prepare(own, sel, Info{Name: "eval", Columns: AnyColumns})
		if err != nil {
			t.Fatal(err)
		}
		if !sameTable(got.Full, want.Full) || !sameTable(got.Protected, want.Protected) {
			t.Fatalf("trial %d: Prepare on the table categorized in place differs", trial)
		}
		if &got.Full.Data[0] != &own.Data[0] {
			t.Fatalf("trial %d: Prepare copied a table whose keys were already categorical", trial)
		}
	}
}
