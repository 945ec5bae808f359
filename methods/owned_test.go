package methods_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// ownedCSV returns a random table as a CSV file of n rows: numbers x and y (normal, some
// missing, some 0 and −0), codes k (0 to 4, some missing), a text key t (some missing) and a
// stratum s of three values.
func ownedCSV(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("x,k,y,t,s\n")
	num := func() string {
		switch rng.IntN(12) {
		case 0:
			return "NA"
		case 1:
			return "0"
		case 2:
			return "-0"
		}
		return strconv.FormatFloat(rng.NormFloat64()*2, 'g', -1, 64)
	}
	for range n {
		k := strconv.Itoa(rng.IntN(5))
		if rng.IntN(10) == 0 {
			k = "NA"
		}
		t := []string{"a", "b", "c d", "NA"}[rng.IntN(4)]
		b.WriteString(strings.Join([]string{num(), k, num(), t, strconv.Itoa(rng.IntN(3))}, ",") + "\n")
	}
	return b.String()
}

// sameBits reports whether a and b hold the same names, shape, values bit for bit and
// levels, and describes the first difference otherwise.
func sameBits(a, b *datasets.Dataset) (bool, string) {
	switch {
	case a.Name != b.Name || !slices.Equal(a.Names, b.Names):
		return false, "names " + a.Name + strings.Join(a.Names, ",") + " / " + b.Name + strings.Join(b.Names, ",")
	case a.N != b.N || a.P != b.P || len(a.Data) != len(b.Data):
		return false, "shape"
	}
	for i, v := range a.Data {
		if math.Float64bits(v) != math.Float64bits(b.Data[i]) {
			return false, "value " + strconv.Itoa(i)
		}
	}
	for j := range a.P {
		if a.IsCategorical(j) != b.IsCategorical(j) || a.IsCategorical(j) && !slices.Equal(a.Levels[j], b.Levels[j]) {
			return false, "levels of column " + a.Names[j]
		}
	}
	return true, ""
}

// releasedByName is the released table by its definition: full's columns, each replaced by
// masked's column of the same name (values and levels) where masked has one.
func releasedByName(full, masked *datasets.Dataset) *datasets.Dataset {
	out := datasets.New(full.Name, slices.Clone(full.Names), full.N, full.P, make([]float64, full.N*full.P))
	out.Levels = make([][]string, full.P)
	for j, name := range full.Names {
		src, c := full, j
		if k := masked.ColIndex(name); k >= 0 {
			src, c = masked, k
		}
		for i := range full.N {
			out.Data[i*full.P+j] = src.Data[i*src.P+c]
		}
		if src.IsCategorical(c) {
			out.Levels[j] = slices.Clone(src.Levels[c])
		}
	}
	return out
}

// TestPrepareOwnedMatchesPrepare checks PrepareOwned against Prepare on random tables with
// missing values, −0, codes and text: for methods protecting some columns (topbot_code,
// global_recode, pram, mdav, noise_additive) or all, with kept and dropped columns, keys
// made categorical, strata, and a categorical column given to a numeric method, the same
// error, or the same Full and Protected tables, the same release and the same released
// table bit for bit from a generator in the same state (and the one by definition:
// releasedByName), with Protected left as it was (the
// checks compare it with the release), the released table written over the table given when
// only some columns are protected, and nothing copied to categorize it.
func TestPrepareOwnedMatchesPrepare(t *testing.T) {
	cases := []struct {
		method string
		params map[string]string
		sel    methods.Selection
		over   bool // the release is written over the table given
	}{
		{"topbot_code", map[string]string{"value": "1"}, methods.Selection{Columns: []string{"x"}, Keep: []string{"k", "y", "t", "s"}}, true},
		{"topbot_code", map[string]string{"value": "1"}, methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"t"}, Keys: []string{"t"}}, false},
		{"global_recode", map[string]string{"breaks": "-10,-1,0,1,10"}, methods.Selection{Columns: []string{"y"}, Keep: []string{"x", "k", "t", "s"}, Keys: []string{"k"}}, true},
		{"global_recode", map[string]string{"breaks": "-3,0,3"}, methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"k", "t", "s"}, Strata: "s"}, true},
		{"pram", nil, methods.Selection{Columns: []string{"k", "t"}, Keep: []string{"x", "y", "s"}, Keys: []string{"k", "t"}}, true},
		{"pram", nil, methods.Selection{Columns: []string{"k", "t"}, Keep: []string{"x", "y"}, Strata: "s"}, true},
		{"pram", nil, methods.Selection{Keep: []string{"x", "y"}}, true},
		{"mdav", map[string]string{"k": "3"}, methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"k", "t", "s"}, Keys: []string{"k"}}, true},
		{"noise_additive", map[string]string{"noise_pct": "10"}, methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"k", "t", "s"}, Keys: []string{"k", "t"}}, true},
		{"noise_additive", map[string]string{"noise_pct": "10"}, methods.Selection{Columns: []string{"x", "k"}, Keep: []string{"t"}, Keys: []string{"k"}}, false}, // k categorical: an error
		{"topbot_code", map[string]string{"value": "1"}, methods.Selection{Categorical: []string{"k"}}, false},
	}
	rng := rand.New(rand.NewPCG(16, 2))
	for trial := range 120 {
		c := cases[trial%len(cases)]
		src := ownedCSV(rng, 3+rng.IntN(60))
		read := func() *datasets.Dataset {
			d, err := datasets.ReadCSV(strings.NewReader(src), "t.csv", datasets.ReadOptions{Mixed: true})
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		m, err := methods.Lookup(c.method)
		if err != nil {
			t.Fatal(err)
		}
		info := m.Info()
		p, err := info.Resolve(c.params)
		if err != nil {
			t.Fatal(err)
		}
		what := c.method + " " + strconv.Itoa(trial)
		d, own := read(), read()
		want, werr := methods.Prepare(d, c.sel, info)
		got, gerr := methods.PrepareOwned(own, c.sel, info)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s: PrepareOwned's error %v, Prepare's %v", what, gerr, werr)
		}
		if werr != nil {
			continue
		}
		for _, pair := range [][2]*datasets.Dataset{{got.Full, want.Full}, {got.Protected, want.Protected}} {
			if ok, diff := sameBits(pair[0], pair[1]); !ok {
				t.Fatalf("%s: prepared tables differ: %s", what, diff)
			}
		}
		if got.Full.P == own.P && &got.Full.Data[0] != &own.Data[0] {
			t.Fatalf("%s: PrepareOwned copied the table to categorize it", what)
		}
		protBefore := got.Protected.Clone()
		seed := uint64(trial)
		wrel, wfull, werr := want.Protect(context.Background(), m, p, rand.New(rand.NewPCG(seed, 1)))
		grel, gfull, gerr := got.Protect(context.Background(), m, p, rand.New(rand.NewPCG(seed, 1)))
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s: Protect's error %v, the usual %v", what, gerr, werr)
		}
		if werr != nil {
			continue
		}
		def := releasedByName(want.Full, wrel.Masked)
		for _, pair := range [][2]*datasets.Dataset{{grel.Masked, wrel.Masked}, {gfull, def}, {wfull, def}, {got.Protected, protBefore}} {
			if ok, diff := sameBits(pair[0], pair[1]); !ok {
				t.Fatalf("%s: releases or Protected differ: %s", what, diff)
			}
		}
		if !slices.Equal(grel.Labels, wrel.Labels) {
			t.Fatalf("%s: labels differ", what)
		}
		if over := &gfull.Data[0] == &own.Data[0]; over != c.over {
			t.Fatalf("%s: released table written over the table given: %v, want %v", what, over, c.over)
		}
		if ok, diff := sameBits(d, read()); !ok {
			t.Fatalf("%s: Prepare and Protect changed the table given: %s", what, diff)
		}
		if again := got.Released(grel.Masked); again != gfull {
			if ok, diff := sameBits(again, wfull); !ok {
				t.Fatalf("%s: Released differs: %s", what, diff)
			}
		}
	}
}
