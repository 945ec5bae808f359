package recordswap

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// checkInvariants checks what every release of d with raw must satisfy, with the pairs that
// the swapping made (re-run with the seed protect used): pairs are mutual and lie in different
// areas of the level at which they were swapped; they match on a similarity profile; every
// member of a household gets its partner's values of the hierarchy and carry_along columns and
// every other cell is unchanged; households with a missing hierarchy, similar or carry_along
// value are not swapped; when every household found a donor, each household that had to be
// swapped across a level was moved across it; Info's counts match the pairs.
func checkInvariants(t *testing.T, d *datasets.Dataset, rel *methods.Release, raw map[string]string, seed uint64) {
	t.Helper()
	p, err := RecordSwap{}.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSetup(d, p)
	if err != nil {
		t.Fatal(err)
	}
	pr := s.problem(d, p.Int("k_anonymity"))
	res, err := pr.swap(t.Context(), p.Float("swaprate"), rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	moved := slices.Concat(s.hier, s.carry)
	perLevel := make([]int, pr.levels)
	swapped := 0
	for a, b := range res.partner {
		if b < 0 {
			for _, i := range s.hh[a] {
				if !sameRow(d.Row(i), rel.Masked.Row(i)) {
					t.Fatalf("household %d (row %d) is not swapped but changed: %v → %v", a, i+1, d.Row(i), rel.Masked.Row(i))
				}
			}
			if pr.must[a] < pr.levels && res.noDonor == 0 && !s.skip[a] {
				t.Errorf("household %d must be swapped across level %d and is not", a, pr.must[a])
			}
			continue
		}
		swapped++
		if a < b {
			perLevel[res.level[a]]++
		}
		h := res.level[a]
		switch {
		case res.partner[b] != a || b == a || res.level[b] != h:
			t.Fatalf("households %d and %d: partners %d, %d, levels %d, %d", a, b, res.partner[b], b, h, res.level[b])
		case s.skip[a] || s.skip[b]:
			t.Fatalf("household %d or %d has a missing value and was swapped", a, b)
		case pr.area[h][a] == pr.area[h][b]:
			t.Errorf("households %d and %d swapped at level %d within area %d", a, b, h, pr.area[h][a])
		case pr.must[a] < h && res.noDonor == 0:
			t.Errorf("household %d had to cross level %d, was swapped at level %d", a, pr.must[a], h)
		}
		if !slices.ContainsFunc(pr.sim, func(sim []int) bool { return sim[a] == sim[b] }) {
			t.Errorf("households %d and %d match on no similarity profile", a, b)
		}
		src := s.hh[b][0]
		for _, i := range s.hh[a] {
			for j := 0; j < d.P; j++ {
				want := d.At(i, j)
				if slices.Contains(moved, j) {
					want = d.At(src, j)
				}
				if got := rel.Masked.At(i, j); got != want && !(got != got && want != want) {
					t.Fatalf("row %d column %s: %v, want %v (household %d swapped with %d)", i+1, d.Names[j], got, want, a, b)
				}
			}
		}
	}
	if !slices.Equal(perLevel, rel.Info["swaps_per_level"].([]int)) || swapped != rel.Info["swapped_households"] || 2*sum(perLevel) != swapped {
		t.Errorf("Info %v, pairs give %v per level and %d swapped households", rel.Info, perLevel, swapped)
	}
}

func sameRow(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || (x != x && y != y) })
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
