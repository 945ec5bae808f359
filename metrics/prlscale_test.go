package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// prlData draws an n×s original table and a release in the agreement space of prl.
type prlData func(r *rand.Rand, n, s int) (ra, rb []float64)

// prlNoisy: N(0, 1) originals released with N(0, sd²) noise.
func prlNoisy(sd float64) prlData {
	return func(r *rand.Rand, n, s int) ([]float64, []float64) {
		ra, rb := make([]float64, n*s), make([]float64, n*s)
		for i := range ra {
			ra[i] = r.NormFloat64()
			rb[i] = ra[i] + sd*r.NormFloat64()
		}
		return ra, rb
	}
}

// prlClustered: five tight clusters, so that most pairs in a cluster agree on many attributes.
func prlClustered(r *rand.Rand, n, s int) ([]float64, []float64) {
	cent := make([]float64, 5*s)
	for i := range cent {
		cent[i] = 3 * r.NormFloat64()
	}
	ra, rb := make([]float64, n*s), make([]float64, n*s)
	for a := range n {
		c := r.IntN(5)
		for l := range s {
			ra[a*s+l] = cent[c*s+l] + 0.08*r.NormFloat64()
			rb[a*s+l] = ra[a*s+l] + 0.03*r.NormFloat64()
		}
	}
	return ra, rb
}

// prlLevels: values k·step for small integers k, released as k, k ± 1 or k ± 2: with τ = step many
// differences are exactly τ, or τ up to the rounding of k·step (0.3 − 0.2 < 0.1 < 0.8 − 0.7).
func prlLevels(step float64, levels int) prlData {
	return func(r *rand.Rand, n, s int) ([]float64, []float64) {
		ra, rb := make([]float64, n*s), make([]float64, n*s)
		for i := range ra {
			k := r.IntN(levels)
			ra[i] = float64(k) * step
			rb[i] = float64(k+r.IntN(5)-2) * step
		}
		return ra, rb
	}
}

// sameFit reports whether two fits are identical to the bit.
func sameFit(x, y prlFit) bool {
	eq := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	return eq([]float64{x.pi, x.tMu, x.tLambda}, []float64{y.pi, y.tMu, y.tLambda}) &&
		eq(x.m, y.m) && eq(x.u, y.u) && eq(x.w, y.w) && x.iter == y.iter && x.possible == y.possible
}

// checkScaled compares the scale path with the all-pairs path on one table: every fit, every
// credit and the whole Result, bit for bit.
func checkScaled(t *testing.T, name string, ra, rb []float64, n, s int, tau float64, sizes []int, o Options) {
	t.Helper()
	fp, cp := prlPairs(context.Background(), ra, rb, n, s, tau, sizes, o)
	fs, cs, why := prlScaled(context.Background(), ra, rb, n, s, tau, sizes, o, math.MaxInt64)
	if fs == nil && why == prlNaNWeights && slices.ContainsFunc(fp[0].w, math.IsNaN) {
		return
	}
	if fs == nil {
		t.Fatalf("%s: scale path refused: %s", name, why)
	}
	for k := range fp {
		if !sameFit(fp[k], fs[k]) {
			t.Fatalf("%s: subset %d: fit %+v, want %+v", name, sizes[k], fs[k], fp[k])
		}
	}
	for k := range cp {
		if math.Float64bits(cp[k]) != math.Float64bits(cs[k]) {
			t.Fatalf("%s: credit[%d] = %v, want %v", name, k, cs[k], cp[k])
		}
	}
	rp, rs := prlResult(sizes, fp, cp, n), prlResult(sizes, fs, cs, n)
	if os.Getenv("PRL_DEBUG") != "" {
		t.Logf("%s: prl %.4f, T_mu %v, possible %d", name, rp.Value, fp[len(fp)-1].tMu, fp[len(fp)-1].possible)
	}
	if math.Float64bits(rp.Value) != math.Float64bits(rs.Value) || len(rp.Aux) != len(rs.Aux) {
		t.Fatalf("%s: value %v, want %v", name, rs.Value, rp.Value)
	}
	for k, v := range rp.Aux {
		if math.Float64bits(v) != math.Float64bits(rs.Aux[k]) {
			t.Fatalf("%s: Aux[%s] = %v, want %v", name, k, rs.Aux[k], v)
		}
	}
}

// The scale path of prl gives the all-pairs results bit for bit.
func TestPRLScaleMatchesPairs(t *testing.T) {
	sizesOf := func(s int, list ...int) []int { return subsets(list, nil, s) }
	cases := []struct {
		name  string
		data  prlData
		n, s  int
		tau   float64
		sizes []int // nil: all s
		opt   Options
	}{
		{"n=1", prlNoisy(0.1), 1, 4, 0.1, nil, Options{}},
		{"n=2", prlNoisy(0.1), 2, 3, 0.1, nil, Options{}},
		{"n=7 s=2", prlNoisy(0.1), 7, 2, 0.3, nil, Options{}},
		{"normal 10%", prlNoisy(0.1), 1500, 10, 0.1, nil, Options{}},
		{"normal 10% mu=1", prlNoisy(0.1), 800, 6, 0.1, nil, Options{PRLMu: 1}},
		{"normal 50% wide tau", prlNoisy(0.5), 700, 7, 0.6, nil, Options{}},
		{"normal subsets 3,5,8", prlNoisy(0.1), 1200, 8, 0.1, []int{3, 5, 8}, Options{}},
		{"normal subsets 1,2,4", prlNoisy(0.2), 900, 4, 0.2, []int{1, 2, 4}, Options{PRLMu: 0.2, PRLLambda: 0.2}},
		{"prlClustered", prlClustered, 1000, 6, 0.1, nil, Options{}},
		{"prlClustered subsets", prlClustered, 600, 8, 0.1, []int{2, 3, 8}, Options{PRLMu: 0.5}},
		{"integers tau=1", prlLevels(1, 6), 800, 5, 1, nil, Options{}},
		{"integers subsets", prlLevels(1, 4), 500, 6, 1, []int{1, 3, 6}, Options{PRLMu: 1}},
		{"tenths tau=0.1", prlLevels(0.1, 8), 800, 6, 0.1, nil, Options{}},
		{"tenths tau=0.2", prlLevels(0.1, 30), 700, 5, 0.2, []int{2, 5}, Options{}},
	}
	if os.Getenv("SDCBENCH_LONG") == "1" {
		cases = append(cases, struct {
			name  string
			data  prlData
			n, s  int
			tau   float64
			sizes []int
			opt   Options
		}{"normal long", prlNoisy(0.1), 6000, 10, 0.1, []int{3, 10}, Options{}})
	}
	for ci, c := range cases {
		r := rand.New(rand.NewPCG(uint64(ci), 77))
		ra, rb := c.data(r, c.n, c.s)
		checkScaled(t, c.name, ra, rb, c.n, c.s, c.tau, sizesOf(c.s, c.sizes...), c.opt)
	}
}

// Random sizes, tolerances, data kinds and options.
func TestPRLScaleRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	kinds := []prlData{prlNoisy(0.05), prlNoisy(0.3), prlClustered, prlLevels(1, 3), prlLevels(0.1, 12), prlLevels(0.25, 9)}
	for trial := range 40 {
		n, s := 1+r.IntN(400), 2+r.IntN(7)
		tau := []float64{0.1, 0.25, 1, 0.05 + r.Float64()}[r.IntN(4)]
		var sizes []int
		for range r.IntN(3) {
			sizes = append(sizes, 1+r.IntN(s))
		}
		o := Options{PRLMu: []float64{0, 0.01, 0.3, 1}[r.IntN(4)], PRLLambda: []float64{0, 0.2}[r.IntN(2)]}
		ra, rb := kinds[trial%len(kinds)](r, n, s)
		checkScaled(t, "random "+itoa(trial), ra, rb, n, s, tau, subsets(sizes, nil, s), o)
	}
}

// The scale path declines what it cannot do exactly, and prlCore then compares all pairs.
func TestPRLScaleFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	n, s := prlScaleMinRows, 4
	ra, rb := prlNoisy(0.1)(r, n, s)
	sizes := []int{s}
	for _, c := range []struct {
		name   string
		tau    float64
		budget int64
		big    bool
	}{
		{"exact agreement", 0, math.MaxInt64, false},
		{"over budget", 0.1, 0, false},
		{"huge values", 0.1, math.MaxInt64, true},
	} {
		xa := slices.Clone(ra)
		if c.big {
			xa[3] = 1e12
		}
		fp, cp := prlPairs(context.Background(), xa, rb, n, s, c.tau, sizes, Options{})
		fc, cc, note := prlCore(context.Background(), xa, rb, n, s, c.tau, sizes, Options{}, c.budget)
		if note == "" {
			t.Errorf("%s: no fallback note", c.name)
		}
		if !sameFit(fp[0], fc[0]) || !slices.Equal(cp, cc) {
			t.Errorf("%s: fallback differs from the all-pairs path", c.name)
		}
	}
	if _, _, note := prlCore(context.Background(), ra, rb, n, s, 0.1, sizes, Options{}, prlBudget(n)); note != "" {
		t.Errorf("normal data fell back: %s", note)
	}
}

func TestLowest3(t *testing.T) {
	for _, c := range [][2]int{{0b111, 0b111}, {0b10110101, 0b10101}, {0b1111000, 0b111000}} {
		if got := lowest3(c[0]); got != c[1] {
			t.Errorf("lowest3(%b) = %b, want %b", c[0], got, c[1])
		}
	}
}

// On public data with a microaggregated release (EIA, 4,092 × 11, three-row means: exact ties
// within each group), the scale path gives the all-pairs results on 3 and 5 attributes. On all
// 11, a third of the pairs agree on three or more attributes (the columns are skewed), and
// prlCore falls back to all pairs within its budget.
func TestPRLScaleEIA(t *testing.T) {
	if testing.Short() {
		t.Skip("all pairs of EIA")
	}
	d, err := datasets.Load("eia")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{PRLSubsets: []int{3, 5}}, {}} {
		in := &Input{Orig: d, Masked: mask3(d), Opt: o}
		za, zb, q := linkSpace(in, false)
		sizes := subsets(o.PRLSubsets, nil, q)
		s := sizes[len(sizes)-1]
		ra, rb, tau := agreementSpace(o, za, zb, d.N, q, s)
		if s < q {
			checkScaled(t, "eia", ra, rb, d.N, s, tau, sizes, o)
			continue
		}
		fp, cp := prlPairs(context.Background(), ra, rb, d.N, s, tau, sizes, o)
		fc, cc, note := prlCore(context.Background(), ra, rb, d.N, s, tau, sizes, o, prlBudget(d.N))
		if note == "" || !sameFit(fp[0], fc[0]) || !slices.Equal(cp, cc) {
			t.Errorf("eia, 11 attributes: note %q, or results differ from all pairs", note)
		}
	}
}
