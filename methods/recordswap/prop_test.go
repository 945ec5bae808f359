package recordswap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestInvariantsCreateDat checks checkInvariants on createDat() with every configuration of
// the sdcMicro comparison and a few seeds; with k_anonymity 0 the number of swapped households
// is exactly twice round(n·swaprate/2) (5000 · 0.2 / 2 = 500 swaps).
func TestInvariantsCreateDat(t *testing.T) {
	d := createDat(t)
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, cf := range sdcConfigs {
		raw := with(cf.params, "hid", "hid")
		for _, seed := range seeds {
			rel := protect(t, d, raw, seed)
			checkInvariants(t, d, rel, raw, seed)
			if raw["k_anonymity"] == "0" && (rel.Info["swapped_households"] != 1000 || rel.Info["no_donor"] != 0) {
				t.Errorf("%s seed %d: Info %v, want 1000 swapped households", cf.name, seed, rel.Info)
			}
		}
	}
}

// TestRowOrder checks that the release does not depend on the order of the rows: households
// are taken in hid order and areas in the order of their values, so permuting the rows
// permutes the release alike.
func TestRowOrder(t *testing.T) {
	full := createDat(t)
	d := datasets.New("head", full.Names, 3000, full.P, full.Data[:3000*full.P])
	perm := rand.New(rand.NewPCG(9, 9)).Perm(d.N)
	pd := d.Clone()
	for i, src := range perm {
		copy(pd.Row(i), d.Row(src))
	}
	for _, cf := range sdcConfigs {
		raw := with(cf.params, "hid", "hid")
		a, b := protect(t, d, raw, 7), protect(t, pd, raw, 7)
		for i, src := range perm {
			if !slices.Equal(b.Masked.Row(i), a.Masked.Row(src)) {
				t.Fatalf("%s: permuted row %d (row %d) released as %v, unpermuted %v", cf.name, i, src, b.Masked.Row(i), a.Masked.Row(src))
			}
		}
	}
}

// TestTargets checks the sharing of the swaps over the lowest areas: they add up to
// n·swaprate/2 rounded down or up, each area gets its proportional share rounded down or up,
// and over many draws the rounding is up about half the time.
func TestTargets(t *testing.T) {
	d := createDat(t)
	p, err := RecordSwap{}.Info().Resolve(map[string]string{"hid": "hid", "hierarchy": "nuts1,nuts2,nuts3"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSetup(d, p)
	if err != nil {
		t.Fatal(err)
	}
	pr := s.problem(d, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	const rate, draws = 0.0517, 400
	half := 5000 * rate / 2 // 129.25
	ups := 0
	for range draws {
		tg := pr.targets(rate, rng)
		total := sum(tg)
		switch total {
		case int(math.Ceil(half)):
			ups++
		case int(math.Floor(half)):
		default:
			t.Fatalf("targets add up to %d, want 129 or 130", total)
		}
		for a, m := range pr.members[2] {
			x := float64(len(m)) / 5000 * float64(total)
			if f := math.Floor(x); float64(tg[a]) != f && float64(tg[a]) != f+1 {
				t.Fatalf("area %d (%d households) gets %d of %d swaps, want ⌊%.3f⌋ or one more", a, len(m), tg[a], total, x)
			}
		}
	}
	// Binomial(400, ½): sd 10.
	if ups < 160 || ups > 240 {
		t.Errorf("rounded up %d times of %d, want about half (within 4 sd)", ups, draws)
	}
}

// TestSampleWeights checks the risk-weighted sampling at the lowest level: of two candidates
// with risks 1/4 and 3/4 (counts 4 and 4/3), one draw picks the second with probability 3/4.
func TestSampleWeights(t *testing.T) {
	pr := &problem{n: 3, levels: 1, must: []int{1, 1, 0}, risk: [][]float64{{0.25, 0.75, 1}}}
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 20000
	second := 0
	used := make([]bool, 3)
	for range draws {
		got := pr.sample([]int{2}, []int{0, 1, 2}, 2, used, rng)
		if len(got) != 2 || got[0] != 2 {
			t.Fatalf("sample = %v, want the must-swap household 2 first and one more", got)
		}
		if got[1] == 1 {
			second++
		}
	}
	sd := math.Sqrt(draws * 0.75 * 0.25)
	if math.Abs(float64(second)-0.75*draws) > 4*sd {
		t.Errorf("second candidate drawn %d times of %d, want %.0f ± %.0f", second, draws, 0.75*draws, 4*sd)
	}
	// Nothing more is drawn when the must-swap households fill the area's target.
	if got := pr.sample([]int{2}, []int{0, 1, 2}, 1, used, rng); !slices.Equal(got, []int{2}) {
		t.Errorf("sample with a full target = %v, want [2]", got)
	}
}

// TestNoDonorAnywhere checks the case where no household has a donor: every household's
// similarity class lives in its own region, and every household must cross regions (k larger
// than any count). Each is reported without a donor and nothing changes.
func TestNoDonorAnywhere(t *testing.T) {
	const n = 20000
	data := make([]float64, 0, 3*n)
	for i := range n {
		data = append(data, float64(i), float64(i%2), float64(10*(i%2)+i%3))
	}
	d := datasets.New("apart", []string{"hid", "region", "cls"}, n, 3, data)
	raw := map[string]string{"hid": "hid", "hierarchy": "region", "similar": "cls", "k_anonymity": "20000", "swaprate": "0.5"}
	rel := protect(t, d, raw, 1)
	if rel.Info["no_donor"] != n || rel.Info["swapped_households"] != 0 || rel.Info["must_swap"] != n {
		t.Errorf("Info = %v, want all %d must-swap households without a donor", rel.Info, n)
	}
	if !slices.Equal(rel.Masked.Data, d.Data) {
		t.Error("the release differs from the input")
	}
}
