package recordswap

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/methodtest"
)

// Regions A = 1, B = 2; districts A1 = 11, A2 = 12, B1 = 21, B2 = 22.
var tinyNames = []string{"hid", "region", "district", "street", "size", "age", "income"}

// tiny is a hand-checked file of 7 households (k = 2, risk variable age, similar size):
//
//	counts (age, region):           (9,A) = 1, (1,A) = 4, (1,B) = 7, (8,B) = 2
//	counts (age, region, district): (9,A1) = 1, (1,A1) = 2, (1,A2) = 2, (1,B1) = 5,
//	                                (8,B1) = 1, (1,B2) = 2, (8,B2) = 1
//
// so household 1 must be swapped across regions, households 6 and 7 across districts, the
// others need not be. The only one-person household outside region A is 5; at the district
// level district B1 comes before B2, so 7 takes the only three-person household outside B1,
// 6; with swaprate 0 nothing else is swapped, whatever the seed. The rows are not in hid
// order.
func tiny() *datasets.Dataset {
	rows := [][]float64{
		{2, 1, 11, 102, 2, 1, 20},
		{1, 1, 11, 101, 1, 9, 10},
		{2, 1, 11, 102, 2, 1, 21},
		{3, 1, 12, 103, 2, 1, 30},
		{3, 1, 12, 103, 2, 1, 31},
		{4, 2, 21, 104, 2, 1, 40},
		{4, 2, 21, 104, 2, 1, 41},
		{5, 2, 21, 105, 1, 1, 50},
		{6, 2, 22, 106, 3, 1, 60},
		{6, 2, 22, 106, 3, 1, 61},
		{6, 2, 22, 106, 3, 8, 62},
		{7, 2, 21, 107, 3, 1, 70},
		{7, 2, 21, 107, 3, 8, 71},
		{7, 2, 21, 107, 3, 1, 72},
	}
	return datasets.New("tiny", tinyNames, len(rows), len(tinyNames), slices.Concat(rows...))
}

var tinyParams = map[string]string{"hid": "hid", "hierarchy": "region,district", "similar": "size",
	"risk_variables": "age", "k_anonymity": "2", "swaprate": "0", "carry_along": "street"}

func protect(t *testing.T, d *datasets.Dataset, raw map[string]string, seed uint64) *methods.Release {
	t.Helper()
	p, err := RecordSwap{}.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := RecordSwap{}.Protect(context.Background(), d, p, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

func with(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestTinyExact checks the hand-derived release of tiny: households 1 ↔ 5 (at the region
// level) and 7 ↔ 6 (at the district level) exchange region, district and street, every
// member alike; nothing else changes.
func TestTinyExact(t *testing.T) {
	want := [][]float64{
		{2, 1, 11, 102, 2, 1, 20},
		{1, 2, 21, 105, 1, 9, 10},
		{2, 1, 11, 102, 2, 1, 21},
		{3, 1, 12, 103, 2, 1, 30},
		{3, 1, 12, 103, 2, 1, 31},
		{4, 2, 21, 104, 2, 1, 40},
		{4, 2, 21, 104, 2, 1, 41},
		{5, 1, 11, 101, 1, 1, 50},
		{6, 2, 21, 107, 3, 1, 60},
		{6, 2, 21, 107, 3, 1, 61},
		{6, 2, 21, 107, 3, 8, 62},
		{7, 2, 22, 106, 3, 1, 70},
		{7, 2, 22, 106, 3, 8, 71},
		{7, 2, 22, 106, 3, 1, 72},
	}
	d := tiny()
	for seed := uint64(1); seed <= 20; seed++ {
		rel := protect(t, d, tinyParams, seed)
		if !slices.Equal(rel.Masked.Data, slices.Concat(want...)) {
			for i := range want {
				if got := rel.Masked.Row(i); !slices.Equal(got, want[i]) {
					t.Errorf("seed %d row %d: got %v, want %v", seed, i+1, got, want[i])
				}
			}
			return
		}
		if got := rel.Info["swaps_per_level"].([]int); !slices.Equal(got, []int{1, 1}) {
			t.Errorf("swaps_per_level = %v, want [1 1]", got)
		}
		if rel.Info["swapped_households"] != 4 || rel.Info["must_swap"] != 3 || rel.Info["no_donor"] != 0 || rel.Info["households"] != 7 {
			t.Errorf("Info = %v, want 4 swapped of 7, 3 must, 0 without donor", rel.Info)
		}
		if !slices.Equal(rel.Columns, []int{1, 2, 3}) {
			t.Errorf("Columns = %v, want [1 2 3] (region, district, street)", rel.Columns)
		}
	}
}

// TestTinyVariants checks hand-derived outcomes of parameter changes on tiny.
func TestTinyVariants(t *testing.T) {
	d := tiny()
	cases := []struct {
		name     string
		raw      map[string]string
		perLevel []int
		noDonor  int
		must     int
	}{
		// k = 1: no count is below 1, nobody must be swapped, swaprate 0 swaps nobody.
		{"k1", with(tinyParams, "k_anonymity", "1"), []int{0, 0}, 0, 0},
		// k = 0 disables the rule.
		{"k0", with(tinyParams, "k_anonymity", "0"), []int{0, 0}, 0, 0},
		// Without similarity any household outside the area is a donor: still 1 and 2 swaps
		// (1 must cross regions, 7 takes some donor outside B1, after which 6 is used or
		// takes another).
		{"no similar", with(tinyParams, "similar", ""), []int{1, -1}, 0, -1},
		// similar on street: every household differs, no donor for anyone; 6 is not used as a
		// donor, so it is looked for one too.
		{"no donor", with(tinyParams, "similar", "street"), []int{0, 0}, 3, 3},
		// A second profile is tried when the first has no donor.
		{"fallback", with(tinyParams, "similar", "street;size"), []int{1, 1}, 0, 3},
		// k = 3: (8,B) = 2 is below 3, so 6 and 7 must cross regions with 1, and (1,A1) = 2,
		// (1,A2) = 2 make 2 and 3 cross districts: 5 must; who is used as a donor first is
		// random.
		{"k3", with(tinyParams, "k_anonymity", "3", "similar", ""), []int{-1, -1}, -1, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rel := protect(t, d, c.raw, 3)
			got := rel.Info["swaps_per_level"].([]int)
			for l, w := range c.perLevel {
				if w >= 0 && got[l] != w {
					t.Errorf("swaps_per_level = %v, want %v (−1: any)", got, c.perLevel)
				}
			}
			if c.noDonor >= 0 && rel.Info["no_donor"] != c.noDonor {
				t.Errorf("no_donor = %v, want %d", rel.Info["no_donor"], c.noDonor)
			}
			if c.must >= 0 && rel.Info["must_swap"] != c.must {
				t.Errorf("must_swap = %v, want %d", rel.Info["must_swap"], c.must)
			}
			checkInvariants(t, d, rel, c.raw, 3)
		})
	}
}

// TestValidate checks the refusals, each naming the parameter or column.
func TestValidate(t *testing.T) {
	d := tiny()
	mixed := d.Clone()
	mixed.Data[2*d.P+2] = 12 // hid 2's second member in district A2
	cases := []struct {
		name string
		d    *datasets.Dataset
		raw  map[string]string
		want string
	}{
		{"no hierarchy", d, with(tinyParams, "hierarchy", ""), "hierarchy: name at least one"},
		{"unknown column", d, with(tinyParams, "risk_variables", "age,nope"), `risk_variables: dataset tiny has no column "nope"`},
		{"twice", d, with(tinyParams, "hierarchy", "region,region"), `column "region" named twice`},
		{"unknown hid", d, with(tinyParams, "hid", "hh"), `hid: dataset tiny has no column "hh"`},
		{"hid swapped", d, with(tinyParams, "carry_along", "hid"), "cannot be swapped"},
		{"unknown similar", d, with(tinyParams, "similar", "size;x"), `similar: dataset tiny has no column "x"`},
		{"not household level", mixed, tinyParams, `column "district" is not at household level: household 2 has 11 in row 1 and 12 in row 3`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := RecordSwap{}.Info().Resolve(c.raw)
			if err != nil {
				t.Fatal(err)
			}
			err = RecordSwap{}.Validate(c.d, p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate = %v, want an error containing %q", err, c.want)
			}
			if _, perr := (RecordSwap{}).Protect(context.Background(), c.d, p, rand.New(rand.NewPCG(1, 1))); perr == nil || perr.Error() != err.Error() {
				t.Errorf("Protect = %v, want Validate's error", perr)
			}
			if c.name != "not household level" && !errors.Is(err, methods.ErrBadParam) {
				t.Errorf("%v does not wrap methods.ErrBadParam", err)
			}
		})
	}
	if _, err := (RecordSwap{}).Info().Resolve(with(tinyParams, "swaprate", "1.5")); err == nil {
		t.Error("swaprate 1.5 accepted")
	}
	if _, err := (RecordSwap{}).Info().Resolve(with(tinyParams, "k_anonymity", "-1")); err == nil {
		t.Error("k_anonymity −1 accepted")
	}
}

// TestMissing checks the missing-value rule: a household with a missing hierarchy value is
// left alone and is no donor, so household 1 (must cross regions) finds none when household 5,
// its only one-person donor, has a missing street.
func TestMissing(t *testing.T) {
	d := tiny()
	d.Data[7*d.P+3] = math.NaN() // household 5's street (carry_along)
	rel := protect(t, d, tinyParams, 1)
	if rel.Info["no_donor"] != 1 || !slices.Equal(rel.Info["swaps_per_level"].([]int), []int{0, 1}) {
		t.Errorf("Info = %v, want no donor for household 1 and the district swap only", rel.Info)
	}
	if !slices.Equal(rel.Masked.Row(1), d.Row(1)) || !math.IsNaN(rel.Masked.At(7, 3)) {
		t.Errorf("households 1 and 5 changed: %v, %v", rel.Masked.Row(1), rel.Masked.Row(7))
	}
	checkInvariants(t, d, rel, tinyParams, 1)
}

// TestAllMissing checks that a file whose every hierarchy value is missing is released
// unchanged: no household can be swapped.
func TestAllMissing(t *testing.T) {
	d := tiny()
	for i := 0; i < d.N; i++ {
		d.Data[i*d.P+1] = math.NaN()
	}
	rel := protect(t, d, tinyParams, 1)
	if !sameRows(rel.Masked, d) || rel.Info["swapped_households"] != 0 || rel.Info["must_swap"] != 0 {
		t.Errorf("Info = %v; want nothing swapped and the input released", rel.Info)
	}
}

func sameRows(a, b *datasets.Dataset) bool {
	for i := 0; i < a.N; i++ {
		if !sameRow(a.Row(i), b.Row(i)) {
			return false
		}
	}
	return true
}

// TestConformance runs the method contract checks on tiny and on createDat().
func TestConformance(t *testing.T) {
	methodtest.Check(t, RecordSwap{}, with(tinyParams, "swaprate", "0.5"), tiny())
	methodtest.Check(t, RecordSwap{}, map[string]string{"hid": "hid", "hierarchy": "nuts1,nuts2,nuts3",
		"similar": "hsize", "risk_variables": "ageGroup,gender"}, createDat(t))
}

// TestNoHid checks that without hid every record is a household of its own.
func TestNoHid(t *testing.T) {
	d := tiny()
	raw := with(tinyParams, "hid", "", "carry_along", "", "similar", "", "swaprate", "1")
	rel := protect(t, d, raw, 5)
	if rel.Info["households"] != d.N {
		t.Errorf("households = %v, want %d", rel.Info["households"], d.N)
	}
	// Record 2 (age 9, the only one in region A) must cross regions and any record of region B
	// is a donor: at least that swap.
	if got := rel.Info["swapped_households"].(int); got < 2 {
		t.Errorf("Info = %v, want at least record 2 and its donor swapped", rel.Info)
	}
	checkInvariants(t, d, rel, raw, 5)
}
