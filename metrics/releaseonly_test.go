package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// riskTable returns a random release for the risk measures: three key columns of few codes
// (0 sometimes written −0) with a share miss of missing cells, a positive weight w, a
// household id h and a sensitive column s.
func riskTable(rng *rand.Rand, n int, miss float64) *datasets.Dataset {
	names := []string{"k1", "k2", "k3", "w", "h", "s"}
	p := len(names)
	d := make([]float64, n*p)
	h := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			d[i*p+j] = float64(rng.IntN(2 + 2*j))
			if d[i*p+j] == 0 && rng.IntN(3) == 0 {
				d[i*p+j] = math.Copysign(0, -1)
			}
			if rng.Float64() < miss {
				d[i*p+j] = math.NaN()
			}
		}
		if rng.IntN(3) == 0 {
			h++
		}
		d[i*p+3] = 1 + 99*rng.Float64()
		d[i*p+4] = h
		d[i*p+5] = float64(rng.IntN(4))
		if rng.Float64() < miss {
			d[i*p+5] = math.NaN()
		}
	}
	return datasets.New("rel", names, n, p, d)
}

// recode returns d with the values of the columns cols mapped one to one onto other numbers
// (large, negative, fractional; −0 onto +0's image, missing cells kept), in a random order.
func recode(rng *rand.Rand, d *datasets.Dataset, cols []int) *datasets.Dataset {
	out := d.Clone()
	for _, j := range cols {
		to := map[float64]float64{}
		for i := 0; i < d.N; i++ {
			v := d.Data[i*d.P+j]
			if v != v {
				continue
			}
			w, ok := to[v] // −0 == +0: one entry
			if !ok {
				w = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(12)))
				to[v] = w
			}
			out.Data[i*d.P+j] = w
		}
	}
	return out
}

// TestReleaseOnlyIgnoresOriginal: every measure marked Info.ReleaseOnly is registered and gives
// the same result, bit for bit, with no original (Input.Orig nil, as `sdcbench eval` of the
// release alone evaluates it), with the release as its own original, and with an unrelated
// original of the same shape; and the same again once the key, household and sensitive
// columns are recoded one to one (recode: they are compared only for equality, so whether
// eval reads them as categories does not matter). On random releases with and without missing
// keys and sensitive values, weighted and not, with a household, and with the keys left to the
// default (every column but the roles). A measure that read the original, or the values of
// its keys rather than their equality, would differ or panic.
func TestReleaseOnlyIgnoresOriginal(t *testing.T) {
	var ids []string
	for _, in := range List() {
		if in.ReleaseOnly {
			ids = append(ids, in.ID)
		}
	}
	for id := range releaseOnly() {
		if _, err := Lookup(id); err != nil {
			t.Errorf("releaseOnly lists %s: %v", id, err)
		}
	}
	if len(ids) != len(releaseOnly()) || !slices.Contains(ids, "ldiv_distinct_mean") || slices.Contains(ids, "sse_sst") {
		t.Fatalf("release-only measures %v", ids)
	}
	rng := rand.New(rand.NewPCG(16, 3))
	for it := 0; it < 12; it++ {
		n := 20 + rng.IntN(400)
		miss := []float64{0, 0.05, 0.3}[it%3]
		rel := riskTable(rng, n, miss)
		other := riskTable(rng, n, miss)
		opt := Options{Keys: []string{"k1", "k2", "k3"}, Weight: "w", Household: "h", Sensitive: "s"}
		switch it % 4 {
		case 1:
			opt.Weight = ""
		case 2:
			opt.Keys = nil // every column but w, h and s
		case 3:
			opt.Keys = []string{"k3", "k1"}
		}
		rec := recode(rng, rel, []int{0, 1, 2, 4, 5}) // every column but the weight
		for _, id := range ids {
			m, err := Lookup(id)
			if err != nil {
				t.Fatal(err)
			}
			alone := m.Eval(&Input{Masked: rel, MaskedAll: rel, Opt: opt})
			for _, orig := range []*datasets.Dataset{rel, other} {
				r := m.Eval(&Input{Orig: orig, Masked: rel, MaskedAll: rel, Opt: opt})
				if !sameResult(alone, r) {
					t.Fatalf("it %d %s: alone %v, with an original %v", it, id, alone, r)
				}
			}
			if r := m.Eval(&Input{Masked: rec, MaskedAll: rec, Opt: opt}); !sameResult(alone, r) {
				t.Fatalf("it %d %s: %v, with the keys recoded %v", it, id, alone, r)
			}
			if it == 0 && math.IsNaN(alone.Value) && id != "risky_obs" {
				t.Errorf("%s undefined on a complete release: %v", id, fmt.Sprint(alone.Notes))
			}
		}
	}
}
