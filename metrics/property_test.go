package metrics

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
)

// mine lists the metrics of this file family (everything but the lead's core metrics), by ID.
var mine = []string{
	"il1s_sum_sdc", "il1s_rel", "il1rel", "il1rel_sum_sdc", "mse", "mae", "mse_cov", "mae_cov",
	"mse_cor", "mae_cor", "gini_diff", "il3", "il3_code", "eigen", "eigen_sdc", "pil", "sdid",
	"id_rank", "dbrl", "dbrl2", "dbrl_attr", "dbrl_attr2", "prl", "sse_sst_lb", "imp",
	"kanon_viol_2", "kanon_viol_3", "kanon_viol_5", "ind_risk_max", "ind_risk_mean",
	"global_risk_er", "global_risk_pct", "hier_risk_er", "hier_risk_pct", "risky_obs",
	"ldiv_distinct_min", "ldiv_distinct_mean", "ldiv_distinct_median", "ldiv_distinct_max", "dis_suda_mean", "dis_suda_max",
	"fobj1", "fobj2", "fobj3", "fobj4", "fobj4_cal", "fobj5", "il1_dld_mean", "dr", "score",
}

func eval(t *testing.T, id string, in *Input) Result {
	t.Helper()
	m, err := Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Eval(in)
}

// noisy returns the first n rows of a dataset and a release with deterministic noise of 5% of
// each column's SD (PCG(1, 1)), so that no released values tie.
func noisy(t *testing.T, name string, n int) (*datasets.Dataset, *datasets.Dataset) {
	d, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	x := datasets.New(name, d.Names, n, d.P, append([]float64(nil), d.Data[:n*d.P]...))
	s := datasets.ScalingOf(x)
	r := rand.New(rand.NewPCG(1, 1))
	m := x.Clone()
	for i := range m.Data {
		m.Data[i] += 0.05 * s.SD[i%x.P] * r.NormFloat64()
	}
	return x, m
}

func permute(d *datasets.Dataset, perm []int) *datasets.Dataset {
	out := d.Clone()
	for i, j := range perm {
		copy(out.Row(i), d.Row(j))
	}
	return out
}

// TestRowOrder checks that the metrics do not depend on the order of the records when the
// same permutation is applied to X and X' (metrics.md §0.5), on a noise release (no ties)
// and on the 3-row microaggregation of §7.7 (exact ties).
func TestRowOrder(t *testing.T) {
	x, xm := noisy(t, "tarragona", 150)
	perm := rand.New(rand.NewPCG(1, 1)).Perm(x.N)
	ties := mask3(x)
	for _, id := range mine {
		for _, c := range []struct {
			name   string
			m      *datasets.Dataset
			skipID map[string]bool
		}{
			{"noise", xm, nil},
			// id_rank breaks rank ties by record index, so it is order-dependent under ties.
			{"mask3", ties, map[string]bool{"id_rank": true, "dr": true, "score": true}},
		} {
			if c.skipID[id] {
				continue
			}
			o := Options{K: 3}
			a := eval(t, id, &Input{Orig: x, Masked: c.m, Opt: o}).Value
			b := eval(t, id, &Input{Orig: permute(x, perm), Masked: permute(c.m, perm), Opt: o}).Value
			if !near(a, b, 1e-11) {
				t.Errorf("%s (%s): %.15g before, %.15g after permuting rows", id, c.name, a, b)
			}
		}
	}
}

// TestUnchangedRelease checks that X' = X gives zero information loss (metrics.md §0 style:
// "unchanged release ⇒ zero loss") and full linkage.
func TestUnchangedRelease(t *testing.T) {
	x, _ := noisy(t, "census", 120)
	in := func() *Input { return &Input{Orig: x, Masked: x} }
	for _, id := range []string{"il1s_sum_sdc", "il1s_rel", "il1rel", "il1rel_sum_sdc", "mse", "mae",
		"mse_cov", "mae_cov", "mse_cor", "mae_cor", "gini_diff", "il3", "il3_code", "eigen",
		"eigen_sdc", "pil", "fobj4", "fobj5"} {
		if v := eval(t, id, in()).Value; v != 0 {
			t.Errorf("%s of an unchanged release = %v, want 0", id, v)
		}
	}
	for _, id := range []string{"dbrl", "dbrl2", "prl", "sdid", "id_rank"} {
		if v := eval(t, id, in()).Value; v != 100 {
			t.Errorf("%s of an unchanged release = %v, want 100", id, v)
		}
	}
}

// TestWorkers checks that the parallel O(n²) metrics are bit-identical with 1 and 2 workers.
func TestWorkers(t *testing.T) {
	x, xm := noisy(t, "eia", 600)
	ties := mask3(x)
	run := func() []float64 {
		var out []float64
		for _, m := range []*datasets.Dataset{xm, ties} {
			for _, id := range []string{"dbrl", "dbrl2", "prl", "sse_sst_lb"} {
				out = append(out, eval(t, id, &Input{Orig: x, Masked: m, Opt: Options{K: 3}}).Value)
			}
		}
		return out
	}
	old := runtime.GOMAXPROCS(1)
	one := run()
	runtime.GOMAXPROCS(max(2, old))
	two := run()
	runtime.GOMAXPROCS(old)
	for i := range one {
		if math.Float64bits(one[i]) != math.Float64bits(two[i]) {
			t.Errorf("value %d: %v with 1 worker, %v with 2", i, one[i], two[i])
		}
	}
}

// TestDBRLBruteForce compares the one-pass, early-exit DBRL with a direct evaluation of the
// metrics.md §3.5 definition, on releases with and without ties.
func TestDBRLBruteForce(t *testing.T) {
	x, xm := noisy(t, "tarragona", 90)
	for _, m := range []*datasets.Dataset{xm, mask3(x), x} {
		for _, k := range []int{1, 2} {
			for _, first := range []bool{false, true} {
				o := Options{}
				if first {
					o.DBRLTies = "first"
				}
				in := &Input{Orig: x, Masked: m, Opt: o}
				got := dbrlResult(in, k)
				za, zb, q := linkSpace(in, false)
				for _, s := range []int{3, 5, 8} {
					var sum float64
					for a := 0; a < x.N; a++ {
						dist := func(b int) float64 {
							var acc float64
							for l := 0; l < s; l++ {
								d := za[a*q+l] - zb[b*q+l]
								acc += d * d
							}
							return acc
						}
						ds := dist(a)
						L, E, EB := 0, 0, 0
						for b := 0; b < x.N; b++ {
							switch d := dist(b); {
							case d < ds:
								L++
							case d == ds:
								E++
								if b < a {
									EB++
								}
							}
						}
						sum += linkCredit(L, E, EB, k, first)
					}
					want := 100 * sum / float64(x.N)
					if g := got.Aux["s"+itoa(s)]; !near(g, want, 1e-12) {
						t.Errorf("K=%d first=%v s=%d: %v, brute force %v", k, first, s, g, want)
					}
				}
			}
		}
	}
}

// TestPILMomentsPreserved checks the metrics.md §2.9 invariant: a release with the same mean
// vector and covariance matrix (here the point reflection X' = 2x̄ − X) has pil_mean =
// pil_var = pil_cov = pil_cor = 0, so pil = 20·pil_q.
func TestPILMomentsPreserved(t *testing.T) {
	x, _ := noisy(t, "tarragona", 200)
	mean := covariance.Means(x.Data, x.N, x.P)
	m := x.Clone()
	for i := range m.Data {
		m.Data[i] = 2*mean[i%x.P] - x.Data[i]
	}
	r := PIL(&Input{Orig: x, Masked: m})
	for _, c := range []string{"mean", "var", "cov", "cor"} {
		if math.Abs(r.Aux[c]) > 1e-9 {
			t.Errorf("pil_%s = %v, want 0", c, r.Aux[c])
		}
	}
	if !near(r.Value, 20*r.Aux["q"], 1e-9) || r.Aux["q"] == 0 {
		t.Errorf("pil = %v, 20·pil_q = %v", r.Value, 20*r.Aux["q"])
	}
}

// TestEdgeCases checks the documented degenerate values (metrics.md §0.4 and each entry) and
// that no metric panics on them.
func TestEdgeCases(t *testing.T) {
	nan := math.NaN()
	one := table([]string{"a", "b"}, []float64{1, 2})
	cnst := table([]string{"a", "b"}, []float64{3, 5}, []float64{3, 5}, []float64{3, 5}, []float64{3, 5})
	zero := table([]string{"a", "b"}, []float64{0, 1}, []float64{0, 2}, []float64{0, 4}, []float64{0, 3})
	zeroM := table([]string{"a", "b"}, []float64{0, 1}, []float64{1, 2}, []float64{0, 4}, []float64{2, 3})
	base := table([]string{"a", "b"}, []float64{1, 4}, []float64{2, 3}, []float64{3, 2}, []float64{4, 1.5})
	flatM := table([]string{"a", "b"}, []float64{2, 4}, []float64{2, 3}, []float64{2, 2}, []float64{2, 1.5})
	withNaN := base.Clone()
	withNaN.Data[3] = nan
	empty := datasets.New("e", []string{"a"}, 0, 1, nil)
	cases := []struct {
		name   string
		x, xm  *datasets.Dataset
		expect map[string]float64
	}{
		{"n=1", one, one, map[string]float64{"il1s_sum_sdc": nan, "il1s_rel": nan, "mse_cov": nan,
			"mse_cor": nan, "il3": nan, "eigen": nan, "pil": nan, "sdid": nan, "sse_sst_lb": nan, "mse": 0}},
		{"n=0", empty, empty, map[string]float64{"mse": nan, "il3": nan, "dbrl": nan, "prl": nan,
			"id_rank": nan, "gini_diff": nan, "kanon_viol_2": nan, "pil": nan}},
		{"all constant", cnst, cnst, map[string]float64{"il1s_rel": nan, "eigen": nan, "pil": nan,
			"dbrl": nan, "prl": nan, "sse_sst_lb": nan, "il3": nan, "mse": 0, "mse_cor": nan,
			"id_rank": 100, "gini_diff": 0, "il1s_sum_sdc": 0, "kanon_viol_5": 4, "global_risk_er": 1}},
		{"zero column", zero, zeroM, map[string]float64{"il1rel_sum_sdc": 0,
			// cells (0,1), (0,2): |x−x'|/|x'| = 1 each; the other six cells are excluded (x = x' = 0) or 0
			// il3: every term of column a has a zero (or undefined) denominator and is
			// excluded; column b is unchanged, so il3 = 0
			"il1rel": 100 * 2.0 / 6, "il3": 0}},
		{"constant in X' only", base, flatM, map[string]float64{"eigen": nan, "eigen_sdc": nan,
			"pil": nan, "mse_cor": nan, "il3": nan}},
		// A missing cell is skipped (metrics.md §0.4); eigen and eigen_sdc are sdcMicro's
		// 100·dUtility(method = "eigen") on var(scale(X), use = "pairwise.complete.obs"), whose
		// eigenvalues are 2.17108008753824 and −0.171080087538240 here (R 4, sdcMicro 5.8.1):
		// eigen drops the negative one, eigen_sdc keeps it as sdcMicro does.
		// The complete-case measures see rows 1, 3 and 4, identical in both tables.
		{"NaN cell", withNaN, base, map[string]float64{"mse": 0, "il3": 0, "eigen": 8.3507661473016466,
			"eigen_sdc": -97.624057451280947, "pil": 0, "dbrl": 100, "prl": 100, "id_rank": 100,
			"il1rel": 0, "sdid": 100, "gini_diff": 0, "il1s_sum_sdc": 0, "interval_disclosure": 100}},
	}
	for _, c := range cases {
		for _, id := range mine {
			if _, err := Lookup(id); err != nil {
				continue // optional metrics not built
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: %s panics: %v", c.name, id, r)
					}
				}()
				v := eval(t, id, &Input{Orig: c.x, Masked: c.xm, Opt: Options{K: 2}}).Value
				if want, ok := c.expect[id]; ok && !near(v, want, 1e-12) {
					t.Errorf("%s: %s = %v, want %v", c.name, id, v, want)
				}
			}()
		}
	}
}

// TestConcurrentInput evaluates every metric at once on one shared Input (whose caches the
// combined measures share) and compares with a sequential evaluation on a fresh Input.
func TestConcurrentInput(t *testing.T) {
	x, xm := noisy(t, "census", 120)
	shared := &Input{Orig: x, Masked: xm, Opt: Options{K: 3}}
	got := make([]float64, len(mine))
	done := make(chan int)
	for i, id := range mine {
		m, err := Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		go func() { got[i] = m.Eval(shared).Value; done <- i }()
	}
	for range mine {
		<-done
	}
	for i, id := range mine {
		want := eval(t, id, &Input{Orig: x, Masked: xm, Opt: Options{K: 3}}).Value
		if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
			t.Errorf("%s: %v concurrently, %v alone", id, got[i], want)
		}
	}
}
