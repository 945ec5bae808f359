package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// frequenciesReference is frequencies as it was before it wrote the risks over memory it no
// longer needed: its own copy of the weight column, f and F as keyfreq.Count returns them, and
// a fresh slice of risks.
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
	c := &catRisk{f: f, F: F, r: make([]float64, t.N)}
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
			for name, pair := range map[string][2][]float64{"f": {got.f, want.f}, "F": {got.F, want.F}, "r": {got.r, want.r}} {
				if !slices.Equal(bits(pair[0]), bits(pair[1])) {
					t.Fatalf("trial %d (n=%d, missing %v, weight %q): %s differs from the reference", trial, n, miss, weight, name)
				}
			}
			for _, m := range []func(*Input) Result{IndRiskMean, GlobalRiskER, IndRiskMax, RiskyObs} {
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
}
