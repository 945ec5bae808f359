package datasets

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomCodes returns an n×3 table: column a numbers from a small pool (with NaN and −0),
// b category codes of levels x, y, z (NaN missing), c numbers; missing cells only when na.
func randomCodes(rng *rand.Rand, n int, na bool) *Dataset {
	pool := []float64{0, math.Copysign(0, -1), 1, 2, 7, 1024, -3, 0.5, 2.25, 1e300}
	data := make([]float64, 3*n)
	for i := range n {
		data[3*i] = pool[rng.IntN(len(pool))]
		data[3*i+1] = float64(rng.IntN(3))
		data[3*i+2] = rng.NormFloat64()
		for j := range 3 {
			if na && rng.IntN(5) == 0 {
				data[3*i+j] = math.NaN()
			}
		}
	}
	d := New("t", []string{"a", "b", "c"}, n, 3, data)
	d.Levels = [][]string{nil, {"x", "y", "z"}, nil}
	return d
}

// TestCategorizeInPlaceMatchesCopy checks that CategorizeInPlace leaves a table exactly as
// Categorize's copy (values bit for bit, levels), on random tables with and without missing
// values, and reports an unknown column with Categorize's error.
func TestCategorizeInPlaceMatchesCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 40))
	for trial := range 300 {
		d := randomCodes(rng, 1+rng.IntN(50), trial%2 == 1)
		cols := [][]string{{"a"}, {"b"}, {"a", "b"}, {"c", "a"}, {}}[trial%5]
		want, err := d.Categorize(cols)
		if err != nil {
			t.Fatal(err)
		}
		got := d.Clone()
		if err := got.CategorizeInPlace(cols); err != nil {
			t.Fatal(err)
		}
		if msg := diffDatasets(got, want); msg != "" {
			t.Fatalf("trial %d, columns %v: %s", trial, cols, msg)
		}
	}
	d := randomCodes(rng, 5, false)
	_, err1 := d.Categorize([]string{"a", "zz"})
	err2 := d.Clone().CategorizeInPlace([]string{"a", "zz"})
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("unknown column: Categorize %v, CategorizeInPlace %v", err1, err2)
	}
}

// TestAlignLevelsInPlaceMatchesCopy checks that AlignLevelsInPlace leaves a table exactly as
// AlignLevels' copy, with a reference whose levels are in another order, lack some labels
// and make a numeric column categorical, with and without missing values.
func TestAlignLevelsInPlaceMatchesCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 41))
	refs := []*Dataset{
		{Name: "r", Names: []string{"b", "a"}, N: 0, P: 2, Levels: [][]string{{"z", "x"}, {"1", "2", "-0"}}},
		{Name: "r", Names: []string{"c", "b"}, N: 0, P: 2, Levels: [][]string{nil, {"y", "x", "z", "w"}}},
		{Name: "r", Names: []string{"a"}, N: 0, P: 1},
	}
	for trial := range 300 {
		d := randomCodes(rng, 1+rng.IntN(50), trial%2 == 1)
		ref := refs[trial%len(refs)]
		want, err := d.AlignLevels(ref)
		if err != nil {
			t.Fatal(err)
		}
		got := d.Clone()
		if err := got.AlignLevelsInPlace(ref); err != nil {
			t.Fatal(err)
		}
		if msg := diffDatasets(got, want); msg != "" {
			t.Fatalf("trial %d, reference %v: %s", trial, ref.Names, msg)
		}
	}
}

// alignLevelsRef is AlignLevelsInPlace as defined column by column: a column categorical in
// ref and numeric in d is categorized from its cells' shortest formatting (setCategorical),
// then its codes are mapped to ref's codes of the same label, labels unknown to ref appended
// in d's order.
func alignLevelsRef(d, ref *Dataset) {
	for j, name := range d.Names {
		r := ref.ColIndex(name)
		if r < 0 || !ref.IsCategorical(r) {
			continue
		}
		if !d.IsCategorical(j) {
			cells := make([]string, d.N)
			for i := range cells {
				if v := d.Data[i*d.P+j]; v == v {
					cells[i] = formatFloat(v)
				}
			}
			setCategorical(d, j, cells, func(s string) bool { return s == "" })
		}
		levels := append([]string{}, ref.Levels[r]...)
		for _, l := range d.Levels[j] { // labels unknown to ref appended in d's order
			if !slices.Contains(levels, l) {
				levels = append(levels, l)
			}
		}
		for i := 0; i < d.N; i++ {
			if v := d.Data[i*d.P+j]; v == v {
				d.Data[i*d.P+j] = float64(slices.Index(levels, d.Levels[j][int(v)]))
			}
		}
		d.Levels[j] = levels
	}
}

// TestAlignLevelsMatchesColumnwise compares AlignLevelsInPlace (all columns in one pass over
// the rows) with alignLevelsRef on random tables with and without missing values, with
// references that make one or two columns categorical and reorder or lack labels, and checks
// that CategorizeInPlace categorizes the columns named before an unknown one.
func TestAlignLevelsMatchesColumnwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 42))
	refs := []*Dataset{
		{Name: "r", Names: []string{"b", "a"}, N: 0, P: 2, Levels: [][]string{{"z", "x"}, {"1", "2", "-0"}}},
		{Name: "r", Names: []string{"c", "b", "a"}, N: 0, P: 3, Levels: [][]string{{"0.5"}, {"y", "x", "z", "w"}, {}}},
		{Name: "r", Names: []string{"c", "b"}, N: 0, P: 2, Levels: [][]string{nil, {"y", "x", "z", "w"}}},
		{Name: "r", Names: []string{"a"}, N: 0, P: 1},
	}
	for trial := range 400 {
		d := randomCodes(rng, 1+rng.IntN(50), trial%2 == 1)
		ref := refs[trial%len(refs)]
		got, want := d.Clone(), d.Clone()
		if err := got.AlignLevelsInPlace(ref); err != nil {
			t.Fatal(err)
		}
		alignLevelsRef(want, ref)
		if msg := diffDatasets(got, want); msg != "" {
			t.Fatalf("trial %d, reference %v: %s", trial, ref.Names, msg)
		}
	}
	d := randomCodes(rng, 20, true)
	if err := d.CategorizeInPlace([]string{"c", "a", "zz", "b"}); err == nil || !d.IsCategorical(0) || !d.IsCategorical(2) {
		t.Fatalf("CategorizeInPlace with an unknown column: error %v, a categorical %v, c %v", err, d.IsCategorical(0), d.IsCategorical(2))
	}
}
