package dpaudit

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/dp"
)

// broken wraps a synthesizer and spends 10 times the ε it claims: its α is the one for 10ε.
type broken struct{ inner methods.Method }

func (b broken) Info() methods.Info { return b.inner.Info() }

func (b broken) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	raw := map[string]string{}
	for _, name := range p.Names() {
		raw[name] = p.Get(name)
	}
	raw["eps"], _ = methods.FormatValue(10 * p.Float("eps"))
	q, err := b.inner.Info().Resolve(raw)
	if err != nil {
		return nil, err
	}
	return b.inner.Protect(ctx, d, q, rng)
}

func target(t *testing.T, name string, eps float64) (methods.Method, methods.Params) {
	t.Helper()
	m, err := methods.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := methods.FormatValue(eps)
	p, err := m.Info().Resolve(map[string]string{"eps": s})
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

func TestNeighbour(t *testing.T) {
	for _, c := range []struct {
		d    *datasets.Dataset
		want []float64
	}{
		{dp.BinaryDataset("b", 3, 1), []float64{1, 0, 1}},
		{dp.BinaryDataset("b", 2, 2), []float64{1, 0}},
		{dp.CategoricalDataset("c", []string{"a", "b", "c"}, []int{1, 2, 0}), []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
	} {
		got, err := Neighbour(c.d)
		if err != nil || !slices.Equal(got.Data, c.want) {
			t.Errorf("Neighbour(%v) = %v, %v; want %v", c.d.Data, got.Data, err, c.want)
		}
	}
}

// TestPairEps: on the worst-case pairs the synthesizers' likelihood ratio reaches exactly
// 1 + nt/α = e^ε (mv2008 rule), by hand: for n = 1, P(x̃ = 1 | x = 1)/P(x̃ = 1 | x = 0) = (α+1)/α.
func TestPairEps(t *testing.T) {
	for _, base := range []string{"dp_audit_bin_n1", "dp_audit_bin_n10", "dp_audit_cat3_n1", "dp_audit_cat3_n10"} {
		d, _ := datasets.Load(base)
		d1, _ := Neighbour(d)
		x0, _ := cellCounts(d)
		x1, _ := cellCounts(d1)
		for _, eps := range []float64{0.1, 1, 5} {
			_, p := target(t, "bb_synth", eps)
			m, err := claimedModel(p, x0, x1)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.pairEps(); math.Abs(got-eps) > 1e-12 {
				t.Errorf("%s ε=%v: pair ε %.15g, want %v", base, eps, got, eps)
			}
		}
	}
}

// TestAuditSoundAndCatches runs 50 audits of the honest synthesizers (bb_synth and dm_synth,
// ε ∈ {0.5, 1, 2}) and 50 of the broken one (claims ε, spends 10ε): the bound must never
// exceed the honest claim and must exceed the broken claim in at least 40 of 50.
func TestAuditSoundAndCatches(t *testing.T) {
	if testing.Short() {
		t.Skip("audits")
	}
	cfg := Config{Releases: 1000, Level: 0.95}
	sound, caught, maxRatio := 0, 0, 0.0
	for i := range 50 {
		name := []string{"bb_synth", "dm_synth"}[i%2]
		base := map[string]string{"bb_synth": "dp_audit_bin_n1", "dm_synth": "dp_audit_cat3_n1"}[name]
		eps := []float64{0.5, 1, 2}[i%3]
		d, _ := datasets.Load(base)
		m, p := target(t, name, eps)
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		r, err := Run(context.Background(), m, p, d, cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		if r.Bound <= eps {
			sound++
		}
		maxRatio = max(maxRatio, r.Bound/eps)
		rb, err := Run(context.Background(), broken{m}, p, d, cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		if rb.Bound > eps {
			caught++
		}
	}
	t.Logf("honest: sound in %d/50 (max bound/ε %.3f); broken (10ε): caught in %d/50", sound, maxRatio, caught)
	if sound != 50 || caught < 40 {
		t.Errorf("honest sound in %d/50 (want 50), broken caught in %d/50 (want ≥ 40)", sound, caught)
	}
}

func TestAuditBadInput(t *testing.T) {
	d, _ := datasets.Load("dp_audit_bin_n1")
	m, p := target(t, "bb_synth", 1)
	if _, err := Run(context.Background(), m, p, d, Config{Releases: 5, Level: 0.95}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("releases = 5 accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, m, p, d, Config{Releases: 100, Level: 0.95}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("cancelled context: no error")
	}
	cat, _ := datasets.Load("census")
	if err := (method{}).Validate(cat, mustResolve(t, map[string]string{})); err == nil {
		t.Error("census accepted as a binary audit base")
	}
}

func mustResolve(t *testing.T, raw map[string]string) methods.Params {
	p, err := method{}.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
