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
// with a share miss of missing cells, a positive weight w, a household id h and a sensitive
// column s.
func riskTable(rng *rand.Rand, n int, miss float64) *datasets.Dataset {
	names := []string{"k1", "k2", "k3", "w", "h", "s"}
	p := len(names)
	d := make([]float64, n*p)
	h := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			d[i*p+j] = float64(rng.IntN(2 + 2*j))
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

// TestReleaseOnlyIgnoresOriginal: every measure marked Info.ReleaseOnly is registered and gives
// the same result, bit for bit, with no original (Input.Orig nil, as `sdcbench eval` of the
// release alone evaluates it), with the release as its own original, and with an unrelated
// original of the same shape; on random releases with and without missing keys and sensitive
// values, weighted and not, with a household, and with the keys left to the default (every
// column but the roles). A measure that read the original would differ or panic.
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
			if it == 0 && math.IsNaN(alone.Value) && id != "risky_obs" {
				t.Errorf("%s undefined on a complete release: %v", id, fmt.Sprint(alone.Notes))
			}
		}
	}
}
