package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// catTen is the 10-record input of metrics.md §7.3: keys sex, age, reg, weight w and
// sensitive dis. With missing, age of record 3 and reg of record 9 are NA.
func catTen(missing bool) *datasets.Dataset {
	d := table([]string{"sex", "age", "reg", "w", "dis"},
		[]float64{1, 1, 1, 10, 1}, []float64{1, 1, 1, 20, 2}, []float64{1, 2, 1, 5, 1},
		[]float64{2, 1, 2, 8, 1}, []float64{2, 1, 2, 8, 1}, []float64{2, 2, 1, 30, 3},
		[]float64{2, 2, 1, 10, 3}, []float64{1, 1, 1, 15, 1}, []float64{2, 3, 2, 50, 2},
		[]float64{1, 2, 1, 5, 2})
	if missing {
		d.Data[2*5+1] = math.NaN()
		d.Data[8*5+2] = math.NaN()
	}
	return d
}

func catInput(d *datasets.Dataset, weighted bool) *Input {
	o := Options{Keys: []string{"sex", "age", "reg"}, Sensitive: "dis"}
	if weighted {
		o.Weight = "w"
	}
	return &Input{Orig: d, Masked: d, Opt: o}
}

// TestCategoricalTen checks metrics.md §7.3 (hand-computed, sdcMicro freqCalc semantics).
func TestCategoricalTen(t *testing.T) {
	for _, c := range []struct {
		missing, weighted bool
		f, F              []float64
		r                 []float64
	}{
		{f: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2}, F: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2},
			r: []float64{1. / 3, 1. / 3, .5, .5, .5, .5, .5, 1. / 3, 1, .5}},
		{weighted: true, f: []float64{3, 3, 2, 2, 2, 2, 2, 3, 1, 2},
			F: []float64{45, 45, 10, 16, 16, 40, 40, 45, 50, 10},
			r: []float64{0.0322580645161, 0.0322580645161, 0.1494101304729, 0.1004195603739,
				0.1004195603739, 0.0443331515968, 0.0443331515968, 0.0322580645161,
				0.0798372041924, 0.1494101304729}},
		{missing: true, f: []float64{4, 4, 5, 2, 2, 2, 2, 4, 1, 2}},
	} {
		in := catInput(catTen(c.missing), c.weighted)
		cr := frequencies(in)
		f, F, r := cr.records(cr.f), cr.records(cr.F), cr.records(cr.r)
		for j := range c.f {
			if f[j] != c.f[j] {
				t.Errorf("missing=%v: f(%d) = %v, want %v", c.missing, j+1, f[j], c.f[j])
			}
			if c.F != nil && F[j] != c.F[j] {
				t.Errorf("weighted=%v: F(%d) = %v, want %v", c.weighted, j+1, F[j], c.F[j])
			}
			if c.r != nil && !near(r[j], c.r[j], 1e-11) {
				t.Errorf("weighted=%v: r(%d) = %.13g, want %.13g", c.weighted, j+1, r[j], c.r[j])
			}
		}
	}
	un := func() *Input { return catInput(catTen(false), false) }
	w := func() *Input { return catInput(catTen(false), true) }
	kv := func(k int) func(*Input) Result { return func(in *Input) Result { return KAnonViolations(in, k) } }
	checkVectors(t, un, []vec{
		{name: "kanon_viol_2", f: kv(2), want: 1},
		{name: "kanon_viol_3", f: kv(3), want: 7},
		{name: "kanon_viol_5", f: kv(5), want: 10},
		{name: "kanon_viol_3", f: kv(3), aux: "pct", want: 70},
		{name: "global_risk_er", f: GlobalRiskER, want: 5},
		{name: "global_risk_pct", f: GlobalRiskPct, want: 50},
		{name: "ldiv_distinct_min", f: LDivMin, want: 1},
		{name: "ldiv_distinct_mean", f: LDivMean, want: 1.5},
	})
	checkVectors(t, w, []vec{
		{name: "weighted global_risk_er", f: GlobalRiskER, want: 0.764937082628, tol: 1e-11},
		{name: "weighted global_risk_pct", f: GlobalRiskPct, want: 7.64937082628, tol: 1e-11},
	})
}

// TestCategoricalTestdata checks metrics.md §7.8 (sdcMicro 5.8.1 on testdata).
func TestCategoricalTestdata(t *testing.T) {
	d, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}
	mk := func(weight string) func() *Input {
		return func() *Input {
			return &Input{Orig: d, Masked: d, Opt: Options{Keys: keys, Weight: weight,
				Household: "ori_hid", Sensitive: "hhcivil"}}
		}
	}
	kv := func(k int) func(*Input) Result { return func(in *Input) Result { return KAnonViolations(in, k) } }
	checkVectors(t, mk("sampling_weight"), []vec{
		{name: "kanon_viol_2", f: kv(2), want: 157},
		{name: "kanon_viol_3", f: kv(3), want: 281},
		{name: "kanon_viol_5", f: kv(5), want: 458},
		{name: "kanon_viol_2", f: kv(2), aux: "pct", want: 3.4279, tol: 5e-5 / 3.4279},
		{name: "kanon_viol_3", f: kv(3), aux: "pct", want: 6.1354, tol: 5e-5 / 6.1354},
		{name: "kanon_viol_5", f: kv(5), aux: "pct", want: 10},
		// printed to 10 significant digits
		{name: "global_risk_er", f: GlobalRiskER, want: 10.77829892, tol: 5e-9 / 10.77829892},
		{name: "global_risk_pct", f: GlobalRiskPct, want: 0.23533404, tol: 5e-9 / 0.23533404},
		{name: "hier_risk_er", f: HierRiskER, want: 51.81292744, tol: 5e-9 / 51.81292744},
		{name: "hier_risk_pct", f: HierRiskPct, want: 1.13128663, tol: 5e-9 / 1.13128663},
		{name: "risky_obs", f: RiskyObs, want: 0},
		{name: "ind_risk_max", f: IndRiskMax, want: 0.04651687, tol: 5e-9 / 0.04651687},
		{name: "ldiv_distinct_min", f: LDivMin, want: 1},
		{name: "ldiv_distinct_mean", f: LDivMean, want: 1.69476, tol: 5e-6 / 1.69476},
	})
	checkVectors(t, mk(""), []vec{
		{name: "unweighted global_risk_er", f: GlobalRiskER, want: 412},
		{name: "unweighted global_risk_pct", f: GlobalRiskPct, want: 8.99563319, tol: 5e-9 / 8.99563319},
	})
}

// TestSUDATestdata checks the SUDA2 / DIS-SUDA vectors of metrics.md §7.8 (sdcMicro 5.8.1
// suda2 on testdata, 7 keys).
func TestSUDATestdata(t *testing.T) {
	d, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}
	mk := func(scores string) func() *Input {
		return func() *Input {
			return &Input{Orig: d, Masked: d, Opt: Options{Keys: keys, SUDAScores: scores}}
		}
	}
	mean := func(in *Input) Result { return disSUDA(in, false) }
	maxi := func(in *Input) Result { return disSUDA(in, true) }
	cases := []vec{
		{name: "n_score", f: mean, aux: "n_score", want: 157},
		{name: "score_sum", f: mean, aux: "score_sum", want: 4890},
		{name: "score_max", f: mean, aux: "score_max", want: 720},
		{name: "dis_suda_mean", f: mean, want: 0.00214652640203, tol: 1e-11},
		{name: "dis_suda_max", f: maxi, want: 0.678142553743, tol: 1e-11},
	}
	for b, want := range []float64{4423, 122, 22, 12, 0, 0, 0, 1} {
		key := "bin_0"
		if b > 0 {
			key = "bin_" + formatEdge(float64(b)/10)
		}
		cases = append(cases, vec{name: "bins", f: mean, aux: key, want: want})
	}
	cases = append(cases, vec{name: "bins", f: mean, aux: "bin_gt0.7", want: 0})
	checkVectors(t, mk(""), cases)
	checkVectors(t, mk("normalized"), []vec{
		{name: "score_sum normalized", f: mean, aux: "score_sum", want: 88.7238095238, tol: 1e-11},
		{name: "dis_sum normalized", f: mean, aux: "dis_sum", want: 3.70586068773, tol: 1e-11},
	})
}

// TestCategoricalEusilcs pins the risk of simPop's eusilcS (weight rb050, households db030) for
// the keys of the perturbative study's EusilcS walkthrough, pl030, pb220a, hsize, age: sdcMicro
// 5.8.1's values (studies/perturbative/eusilcs.reference.csv), which are also the study's printed
// numbers; the l-diversity values are ours (metrics.md §4.5), rb090's equal sdcMicro's. With the
// printed keys (db040 for pl030) the 2-anonymity count is sdcMicro's 1254.
func TestCategoricalEusilcs(t *testing.T) {
	d, err := datasets.Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	mk := func(first, sens string) func() *Input {
		return func() *Input {
			return &Input{Orig: d, Masked: d, Opt: Options{Keys: []string{first, "pb220a", "hsize", "age"},
				Weight: "rb050", Household: "db030", Sensitive: sens}}
		}
	}
	kv := func(k int) func(*Input) Result { return func(in *Input) Result { return KAnonViolations(in, k) } }
	checkVectors(t, mk("pl030", "netIncome"), []vec{
		{name: "kanon_viol_2", f: kv(2), want: 939},
		{name: "kanon_viol_3", f: kv(3), want: 1605},
		{name: "kanon_viol_5", f: kv(5), want: 2531},
		{name: "risky_obs", f: RiskyObs, want: 1476},
		{name: "global_risk_er", f: GlobalRiskER, want: 544.283699484731},
		{name: "global_risk_pct", f: GlobalRiskPct, want: 4.64207846042414},
		{name: "hier_risk_er", f: HierRiskER, want: 1773.51754515884},
		{name: "hier_risk_pct", f: HierRiskPct, want: 15.1259492124421},
		{name: "ind_risk_max", f: IndRiskMax, want: 0.494779008993473},
		{name: "ldiv_distinct_min", f: LDivMin, want: 1},
		{name: "ldiv_distinct_median", f: LDivMedian, want: 7},
		{name: "ldiv_distinct_median", f: LDivMedian, aux: "q1", want: 1},
		{name: "ldiv_distinct_median", f: LDivMedian, aux: "q3", want: 21},
		{name: "ldiv_distinct_mean", f: LDivMean, want: 151925.0 / 11725},
		{name: "ldiv_distinct_max", f: LDivMax, want: 70},
	})
	checkVectors(t, mk("pl030", "rb090"), []vec{
		{name: "ldiv_distinct_mean rb090", f: LDivMean, want: 1.77381663113006},
		{name: "ldiv_distinct_median rb090", f: LDivMedian, aux: "q1", want: 2},
	})
	checkVectors(t, mk("db040", "netIncome"), []vec{
		{name: "kanon_viol_2 printed keys", f: kv(2), want: 1254},
		{name: "global_risk_er printed keys", f: GlobalRiskER, want: 888.222321850967},
	})
	// DIS-SUDA: sdcMicro 5.8.1 gives 0.00129695988379837 (pl030 keys) and, with the db040
	// keys, 0.00110467032973242 and max 0.067781404995634, which the default SUDAMissing
	// ("" = "ignore") gives to 1.2e-7 (its single-precision U/Dis − U, metrics.md §4.6).
	dis := func(first, missing string, max bool) float64 {
		in := &Input{Orig: d, Masked: d, Opt: Options{Keys: []string{first, "pb220a", "hsize", "age"}, SUDAMissing: missing}}
		return disSUDA(in, max).Value
	}
	for _, c := range []struct {
		first, missing string
		max            bool
		want           float64
	}{
		{"pl030", "", false, 0.00129695988379837},
		{"pl030", "ignore", false, 0.00129695988379837},
		{"pl030", "category", false, 0.00129695988379837},
		{"db040", "category", false, 0.001105498459616591},
		{"db040", "category", true, 0.06777210542062799},
		{"db040", "", false, 0.00110467045648533},
		{"db040", "", true, 0.0677814123393079},
		{"db040", "ignore", false, 0.00110467045648533},
		{"db040", "ignore", true, 0.0677814123393079},
	} {
		if got := dis(c.first, c.missing, c.max); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("dis_suda keys %s, SUDAMissing %q, max %v: %.15g, want %.15g", c.first, c.missing, c.max, got, c.want)
		}
	}
}

// TestQuantile7 checks R's quantile type 7: quantile(c(1, 2, 4, 8), c(0, .25, .5, .75, 1)) is
// 1, 1.75, 3, 5, 8.
func TestQuantile7(t *testing.T) {
	s := []float64{1, 2, 4, 8}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 3}, {0.75, 5}, {1, 8}} {
		if got := Quantile7(s, c.p); got != c.want {
			t.Errorf("Quantile7(%v) = %v, want %v", c.p, got, c.want)
		}
	}
}
