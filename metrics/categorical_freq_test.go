package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// frequenciesReference is frequencies as it was before it held the frequencies per distinct
// key tuple (and before it wrote the risks over memory it no longer needed): its own copy of the
// weight column, f and F per record as keyfreq.Count returns them, and a fresh slice of risks
// per record. Its catRisk numbers each record as a tuple of its own.
func frequenciesReference(in *Input) *catRisk {
	t := in.keyTable()
	cols, note := keyColumns(in)
	if note != "" || len(cols) == 0 || t.N == 0 {
		return &catRisk{note: "no key columns"}
	}
	var w []float64
	if in.Opt.Weight != "" {
		w = t.Col(colIndex(t.Names, in.Opt.Weight))
		if hasNaN(w) {
			return &catRisk{note: "missing weights"}
		}
	}
	f, F := keyfreq.Count(t.Data, t.N, t.P, cols, w)
	c := &catRisk{of: make([]int32, t.N), f: f, F: F, r: make([]float64, t.N)}
	for i := range c.of {
		c.of[i] = int32(i)
	}
	for i := range c.r {
		if w == nil {
			c.r[i] = 1 / f[i]
		} else {
			c.r[i] = bfRisk(f[i], F[i])
		}
	}
	return c
}

// randomKeyTable returns n records of three keys with few levels (so many duplicated tuples),
// a fraction miss of the key cells missing, and a weight column w whose values repeat (ties)
// or, with smallW, stay near 1 so that F ≤ f happens and bfRisk takes its 1/f branch.
func randomKeyTable(rng *rand.Rand, n int, miss float64, smallW bool) *datasets.Dataset {
	const p = 4
	data := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for j, levels := range []int{2, 3, 5} {
			data[i*p+j] = float64(rng.IntN(levels))
			if rng.Float64() < miss {
				data[i*p+j] = math.NaN()
			}
		}
		if smallW {
			data[i*p+3] = 0.5 + rng.Float64()
		} else {
			data[i*p+3] = float64(1 + rng.IntN(4)*10)
		}
	}
	return datasets.New("random", []string{"a", "b", "c", "w"}, n, p, data)
}

// TestFrequenciesMatchReference checks that frequencies gives bit for bit the f, F and risks
// of frequenciesReference, and the measures built on them the same values, on random tables
// with and without missing keys, weighted and not.
func TestFrequenciesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 6))
	bits := func(x []float64) []uint64 {
		b := make([]uint64, len(x))
		for i, v := range x {
			b[i] = math.Float64bits(v)
		}
		return b
	}
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(300)
		miss := []float64{0, 0.05, 0.3}[trial%3]
		d := randomKeyTable(rng, n, miss, trial%4 == 3)
		for _, weight := range []string{"", "w"} {
			opt := Options{Keys: []string{"a", "b", "c"}, Weight: weight}
			got := frequencies(&Input{Orig: d, Masked: d, Opt: opt})
			want := frequenciesReference(&Input{Orig: d, Masked: d, Opt: opt})
			if got.note != "" || want.note != "" {
				t.Fatalf("trial %d: notes %q and %q", trial, got.note, want.note)
			}
			for name, pair := range map[string][2][]float64{"f": {got.records(got.f), want.f}, "F": {got.records(got.F), want.F}, "r": {got.records(got.r), want.r}} {
				if !slices.Equal(bits(pair[0]), bits(pair[1])) {
					t.Fatalf("trial %d (n=%d, missing %v, weight %q): %s differs from the reference", trial, n, miss, weight, name)
				}
			}
			kanon3 := func(in *Input) Result { return KAnonViolations(in, 3) }
			for _, m := range []func(*Input) Result{IndRiskMean, GlobalRiskER, GlobalRiskPct, IndRiskMax, RiskyObs, kanon3} {
				a := m(&Input{Orig: d, Masked: d, Opt: opt}).Value
				in := &Input{Orig: d, Masked: d, Opt: opt}
				cached(in, "cat:risk", frequenciesReference)
				b := m(in).Value
				if math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("trial %d (weight %q): measure %v, reference %v", trial, weight, a, b)
				}
			}
		}
	}
	// A missing weight still makes every risk undefined.
	d := randomKeyTable(rng, 20, 0, false)
	d.Data[7*4+3] = math.NaN()
	if c := frequencies(&Input{Orig: d, Masked: d, Opt: Options{Keys: []string{"a", "b", "c"}, Weight: "w"}}); c.note != "missing weights" {
		t.Errorf("a missing weight: note %q, want \"missing weights\"", c.note)
	}
	// Weights +Inf and −Inf in one key tuple make its F NaN without a missing weight: the risks
	// are still computed (NaN for that tuple), as the reference computes them.
	d = randomKeyTable(rng, 20, 0, false)
	for _, i := range []int{3, 4} {
		copy(d.Data[i*4:i*4+3], []float64{1, 2, 3})
	}
	d.Data[3*4+3], d.Data[4*4+3] = math.Inf(1), math.Inf(-1)
	in := &Input{Orig: d, Masked: d, Opt: Options{Keys: []string{"a", "b", "c"}, Weight: "w"}}
	got, want := frequencies(in), frequenciesReference(in)
	if got.note != "" || !slices.Equal(bits(got.records(got.r)), bits(want.r)) || !math.IsNaN(want.r[3]) {
		t.Errorf("weights ±Inf in one tuple: note %q, risks %v, want %v", got.note, got.records(got.r), want.r)
	}
}
