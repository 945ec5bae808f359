package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// table builds a Dataset from rows.
func table(names []string, rows ...[]float64) *datasets.Dataset {
	p := len(names)
	data := make([]float64, 0, len(rows)*p)
	for _, r := range rows {
		if len(r) != p {
			panic("table: ragged row")
		}
		data = append(data, r...)
	}
	return datasets.New("t", names, len(rows), p, data)
}

// near reports whether got equals want within relative tol (absolute 1e-12 near 0), or both
// are NaN (metrics.md §0.5).
func near(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if got == want {
		return true
	}
	d := math.Abs(got - want)
	return d <= 1e-12 || d <= tol*math.Abs(want)
}

// MAGGA study Table 2.1 (000_cffa7d374931379d.txt L835-857; metrics.md §7.1): 9 records, the
// partition {1,2,8}, {3,6,7}, {4,5,9} and T' = the exact group means, computed once per
// group and copied.
func table21() *Input {
	names := []string{"age", "income"}
	x := table(names,
		[]float64{24, 21000}, []float64{31, 19500}, []float64{32, 22000}, []float64{57, 43480},
		[]float64{49, 39220}, []float64{43, 32285}, []float64{39, 40500}, []float64{20, 20000},
		[]float64{51, 43050})
	return &Input{Orig: x, Masked: groupMeans(x, [][]int{{0, 1, 7}, {2, 5, 6}, {3, 4, 8}})}
}

// groupMeans returns x with each group's rows replaced by the group's column means (computed
// once, in member order, and copied).
func groupMeans(x *datasets.Dataset, groups [][]int) *datasets.Dataset {
	m := x.Clone()
	mean := make([]float64, x.P)
	for _, g := range groups {
		for l := range mean {
			mean[l] = 0
			for _, i := range g {
				mean[l] += x.At(i, l)
			}
			mean[l] /= float64(len(g))
		}
		for _, i := range g {
			copy(m.Row(i), mean)
		}
	}
	return m
}

// Tiny numeric release of metrics.md §7.2.
func tiny() *Input {
	names := []string{"a", "b", "c"}
	x := table(names, []float64{10, 2.0, 100}, []float64{12, 3.5, 90}, []float64{15, 1.0, 120},
		[]float64{9, 4.0, 80}, []float64{20, 2.5, 110}, []float64{14, 3.0, 95})
	xm := table(names, []float64{10.1, 2.03, 100.4}, []float64{11.0, 3.50, 90},
		[]float64{15.1, 1.20, 118}, []float64{9.0, 3.90, 84}, []float64{20.1, 2.52, 110.3},
		[]float64{14.3, 3.00, 95.5})
	return &Input{Orig: x, Masked: xm}
}

type vec struct {
	name string
	f    func(*Input) Result
	opt  *Options // nil keeps the Input's options
	aux  string   // "" = Value, else the Aux key
	want float64
	tol  float64 // 0 = 1e-9 relative
}

func checkVectors(t *testing.T, mk func() *Input, cases []vec) {
	t.Helper()
	for i, c := range cases {
		in := mk()
		if c.opt != nil {
			in.Opt = *c.opt
		}
		r := c.f(in)
		got := r.Value
		if c.aux != "" {
			var ok bool
			if got, ok = r.Aux[c.aux]; !ok {
				t.Errorf("case %d (%s): no Aux %q in %v", i, c.name, c.aux, r.Aux)
				continue
			}
		}
		tol := c.tol
		if tol == 0 {
			tol = 1e-9
		}
		if !near(got, c.want, tol) {
			t.Errorf("case %d (%s %s): got %.15g, want %.15g", i, c.name, c.aux, got, c.want)
		}
	}
}

// TestTable21 checks the metrics.md §7.1 vectors in this package's scope.
func TestTable21(t *testing.T) {
	checkVectors(t, table21, []vec{
		{name: "il1s_sum_sdc", f: IL1sSumSDC, want: 3.61888237842},
		{name: "il1rel_sum_sdc", f: IL1RelSumSDC, want: 188.130510692},
		{name: "il1s_rel", f: IL1sRel, want: 39.7848082009},
		{name: "eigen", f: Eigen, want: 102.923534164},
		{name: "eigen_sdc", f: EigenSDC, want: 102.923534164},
		{name: "id_rank", f: IDRank, want: 0},
		{name: "id_rank P=20", f: IDRank, opt: &Options{IDRankP: []float64{20}}, want: 22.2222222222},
		{name: "id_rank P=50", f: IDRank, opt: &Options{IDRankP: []float64{50}}, want: 61.1111111111},
		{name: "dbrl", f: DBRL, want: 29.6296296296},
		{name: "dbrl all", f: DBRL, opt: &Options{DBRLSubsets: []int{0}}, want: 29.6296296296},
		{name: "dbrl2", f: DBRL2, want: 59.2592592593},
		{name: "dbrl first", f: DBRL, opt: &Options{DBRLTies: "first"}, want: 22.2222222222},
		// PRL at τ = 0.5: tolerance 1e-6 on the EM details.
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, want: 25.9259259259},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "pi", want: 0.2663686203, tol: 1e-6},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "m1", want: 0.9721048356, tol: 1e-6},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "m2", want: 0.9721048356, tol: 1e-6},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "u1", want: 0.1014066622, tol: 1e-6},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "u2", want: 0.1014066622, tol: 1e-6},
		{name: "prl 0.5", f: PRL, opt: &Options{PRLTol: 0.5}, aux: "t_mu", want: 4.5206497, tol: 1e-6},
		{name: "prl 0.1", f: PRL, want: 3.7037037037},
		{name: "prl 0.25", f: PRL, opt: &Options{PRLTol: 0.25}, want: 7.4074074074},
	})
}

// TestTiny checks the metrics.md §7.2 vectors in this package's scope.
func TestTiny(t *testing.T) {
	checkVectors(t, tiny, []vec{
		{name: "il1s_sum_sdc", f: IL1sSumSDC, want: 0.869465020446366},
		{name: "il1rel", f: IL1Rel, want: 2.517142603984709},
		{name: "il1rel_sum_sdc", f: IL1RelSumSDC, want: 45.3085668717248},
		{name: "il1s_rel", f: IL1sRel, want: 9.23231525881},
		{name: "eigen", f: Eigen, want: 127.11631204823},
		{name: "il3", f: IL3, aux: "c1", want: 0.02517142603984709},
		{name: "il3", f: IL3, aux: "c2", want: 0.00658438375350138},
		{name: "il3", f: IL3, aux: "c3", want: 0.11504629434745919},
		{name: "il3", f: IL3, aux: "c4", want: 0.14512625050020020},
		{name: "il3", f: IL3, aux: "c5", want: 0.02205480572136490},
		{name: "il3", f: IL3, want: 6.27966320724746},
		{name: "il3_code", f: IL3Code, aux: "c5", want: 0.01185832014740937},
		{name: "il3_code", f: IL3Code, want: 6.07573349576834},
		{name: "mse", f: MSE, want: 1.20396111111111},
		{name: "mae", f: MAE, want: 0.508333333333334},
		{name: "mse_cov", f: MSECov, want: 207.669449609394},
		{name: "mae_cov", f: MAECov, want: 5.90566925925926},
		{name: "mse_cor", f: MSECor, want: 0.000430519104525183},
		{name: "mae_cor", f: MAECor, want: 0.0158110935298792},
		{name: "dbrl s1", f: DBRL, opt: &Options{DBRLSubsets: []int{1}}, want: 100},
		{name: "dbrl s2", f: DBRL, opt: &Options{DBRLSubsets: []int{2}}, want: 100},
		{name: "dbrl s3", f: DBRL, opt: &Options{DBRLSubsets: []int{3}}, want: 100},
		{name: "id_rank", f: IDRank, want: 22.2222222222},
		{name: "id_rank P=20", f: IDRank, opt: &Options{IDRankP: []float64{20}}, want: 77.7777777778},
		{name: "prl", f: PRL, want: 100},
		{name: "prl", f: PRL, aux: "pi", want: 0.1388889, tol: 1e-6},
		{name: "prl", f: PRL, aux: "m1", want: 0.8, tol: 1e-6},
		{name: "prl", f: PRL, aux: "m2", want: 1 - 1e-6, tol: 1e-6},
		{name: "prl", f: PRL, aux: "m3", want: 0.8, tol: 1e-6},
		{name: "prl", f: PRL, aux: "u1", want: 0.0322581, tol: 1e-6},
		{name: "prl", f: PRL, aux: "u2", want: 1e-6, tol: 1e-6},
		{name: "prl", f: PRL, aux: "u3", want: 1e-6, tol: 1e-6},
		{name: "prl", f: PRL, aux: "t_mu", want: -12.2141035, tol: 1e-6},
		{name: "pil", f: PIL, want: 12.8873145256},
		{name: "pil", f: PIL, aux: "q", want: 0.0631118690171},
		{name: "pil", f: PIL, aux: "mean", want: 0.0502534794943},
		{name: "pil", f: PIL, aux: "var", want: 0.2735809517975},
		{name: "pil", f: PIL, aux: "cov", want: 0.1454805520564},
		{name: "pil", f: PIL, aux: "cor", want: 0.1119388739161},
	})
}
