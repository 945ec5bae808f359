package perturb

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func table(names []string, cols ...[]float64) *datasets.Dataset {
	n, p := len(cols[0]), len(cols)
	data := make([]float64, n*p)
	for j, c := range cols {
		for i, v := range c {
			data[i*p+j] = v
		}
	}
	return datasets.New("t", names, n, p, data)
}

// TestRevmapVector is docs/perturbative.md's reverse-mapping example (Morais 2022, Tables 3-4).
func TestRevmapVector(t *testing.T) {
	x := table([]string{"X1", "X2", "X3"},
		[]float64{13, 20, 2, 15, 29}, []float64{135, 52, 123, 165, 160}, []float64{3707, 826, -1317, 2419, -1008})
	y := table([]string{"X1", "X2", "X3"},
		[]float64{8, 20, -1, 18, 29}, []float64{160, 57, 122, 135, 164}, []float64{3248, 822, 248, 597, -1927})
	want := table([]string{"X1", "X2", "X3"},
		[]float64{13, 20, 2, 15, 29}, []float64{160, 52, 123, 135, 165}, []float64{3707, 2419, -1008, 826, -1317})
	z, err := Revmap{}.Apply(x, y, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z.Data, want.Data) {
		t.Errorf("revmap = %v, want %v", z.Data, want.Data)
	}
	if y.Data[0] != 8 || x.Data[0] != 13 {
		t.Error("revmap modified its inputs")
	}
}

func TestRestrictVector(t *testing.T) {
	x := table([]string{"a"}, []float64{0, 5, 0, 10})
	y := table([]string{"a"}, []float64{-3, -2, 4, 12})
	z, err := Restrict{}.Apply(x, y, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 2, 0, 12}; !slices.Equal(z.Data, want) {
		t.Errorf("restrict = %v, want %v", z.Data, want)
	}
}

func TestRestrFactorVector(t *testing.T) {
	for _, tc := range []struct {
		n    int
		w    float64
		want float64
	}{{4, 1.5, 0.346410161514}, {1000, 0.5, 0.816360396025}} {
		if got := RestrFactor(tc.n, tc.w); math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("RestrFactor(%d, %g) = %.12f, want %.12f", tc.n, tc.w, got, tc.want)
		}
	}
}

// TestRankSwapWindow is the window vector: N' = 10, P = 0.3 gives j = 0 the candidates {1, 2},
// j = 7 {8, 9}, j = 8 {9}; P = 0.1 gives no swap at all.
func TestRankSwapWindow(t *testing.T) {
	var w swapWork
	seen0 := map[int]bool{}
	for seed := range uint64(400) {
		v := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		w.swapPositions(v, 0.3, rand.New(rand.NewPCG(seed, 1)))
		for pos, val := range v {
			if d := math.Abs(float64(pos) - val); d > 2 {
				t.Fatalf("seed %d: value %v moved %v ranks, window allows 2: %v", seed, val, d, v)
			}
		}
		seen0[int(v[0])] = true
		sorted := slices.Clone(v)
		slices.Sort(sorted)
		if !slices.Equal(sorted, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Fatalf("not a permutation: %v", v)
		}
	}
	if len(seen0) != 2 || !seen0[1] || !seen0[2] {
		t.Errorf("position 0 received %v, want exactly {1, 2}", seen0)
	}
	v := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	w.swapPositions(v, 0.1, rand.New(rand.NewPCG(1, 1)))
	if !slices.Equal(v, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("p_frac 0.1 on N' = 10 swapped: %v", v)
	}
}

func resolve(t *testing.T, name string, raw map[string]string) (methods.Method, methods.Params) {
	t.Helper()
	m, err := methods.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

// TestBadParams checks that wrong parameters give one line naming the parameter.
func TestBadParams(t *testing.T) {
	d := table([]string{"a", "b"}, []float64{1, 2, 3, 4}, []float64{4, 3, 1, 2})
	for _, tc := range []struct {
		method string
		raw    map[string]string
		want   string
	}{
		{"rankswap", map[string]string{"p_frac": "1.5"}, "p_frac"},
		{"rankswap", map[string]string{"p_frac": "0"}, "p_frac"},
		{"rankswap", map[string]string{"p_frac": "-0.1"}, "p_frac"},
		{"rankswap", map[string]string{"r0": "0.9", "k0": "0.1"}, "at most one"},
		{"rankswap", map[string]string{"top_pct": "60", "bottom_pct": "40"}, "top_pct+bottom_pct"},
		{"noise_additive", map[string]string{"noise_pct": "-5"}, "noise_pct"},
		{"noise_additive0", map[string]string{"noise_pct": "-5"}, "noise_pct"},
		{"noise_correlated", map[string]string{"noise_pct": "-1"}, "noise_pct"},
		{"noise_correlated2", map[string]string{"delta": "0"}, "delta"},
		{"noise_correlated2", map[string]string{"delta": "1.2"}, "delta"},
		{"noise_mult", map[string]string{"var": "-0.5"}, "var"},
		{"noise_mult", map[string]string{"dist": "cauchy"}, "dist"},
		{"shuffle_ds", map[string]string{"preds": "zz"}, `"zz"`},
		{"egadp", map[string]string{"preds": "a", "cat_preds": "b"}, "cat_preds"},
		{"egadp_sdcmicro", map[string]string{"preds": "a,b"}, "nothing to mask"},
	} {
		m, err := methods.Lookup(tc.method)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Info().Resolve(tc.raw)
		if err == nil {
			_, err = m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
		}
		if err == nil {
			t.Errorf("%s %v: no error", tc.method, tc.raw)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, tc.method) {
			t.Errorf("%s %v: error %q, want one line starting with the method and naming %s", tc.method, tc.raw, msg, tc.want)
		}
	}
}

// TestChain checks that "restrict(revmap(m))" applies revmap first, then restrict.
func TestChain(t *testing.T) {
	d := table([]string{"a", "b"}, []float64{0, 5, 0, 10, 3, 7}, []float64{1, 0, 2, 8, 4, 0})
	for _, name := range []string{"restrict(noise_additive)", "revmap(noise_additive)", "restrict(revmap(noise_additive))"} {
		m, p := resolve(t, name, map[string]string{"noise_pct": "80"})
		if m.Info().Name != name || len(m.Info().Params) != 1 {
			t.Errorf("%s: Info %+v", name, m.Info())
		}
		rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		inner, _ := resolve(t, "noise_additive", map[string]string{"noise_pct": "80"})
		raw, _ := inner.Protect(context.Background(), d, p, rand.New(rand.NewPCG(3, 4)))
		want := raw.Masked
		if strings.Contains(name, "revmap") {
			want, _ = Revmap{}.Apply(d, want, []int{0, 1})
		}
		if strings.HasPrefix(name, "restrict") {
			want, _ = Restrict{}.Apply(d, want, []int{0, 1})
		}
		if !slices.Equal(rel.Masked.Data, want.Data) {
			t.Errorf("%s = %v, want %v", name, rel.Masked.Data, want.Data)
		}
	}
	for _, bad := range []string{"restrict(", "nosuch(noise_additive)", "restrict(nosuch)", "revmap()"} {
		if _, err := methods.Lookup(bad); err == nil {
			t.Errorf("Lookup(%q): no error", bad)
		}
	}
}
