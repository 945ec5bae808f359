package synth

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// protect runs a registered method with raw parameters.
func protect(t *testing.T, name string, d *datasets.Dataset, raw map[string]string, seed uint64) *methods.Release {
	t.Helper()
	rel, err := tryProtect(name, d, raw, seed)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rel
}

func tryProtect(name string, d *datasets.Dataset, raw map[string]string, seed uint64) (*methods.Release, error) {
	m, err := methods.Lookup(name)
	if err != nil {
		return nil, err
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		return nil, err
	}
	return m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
}

func load(t *testing.T, name string) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// evalY returns the metrics input restricted to the release's synthesized columns.
func evalY(t *testing.T, d *datasets.Dataset, rel *methods.Release, opt metrics.Options) *metrics.Input {
	t.Helper()
	cols := rel.Columns
	names := make([]string, len(cols))
	for i, j := range cols {
		names[i] = d.Names[j]
	}
	o, err := d.Select(names)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rel.Masked.Select(names)
	if err != nil {
		t.Fatal(err)
	}
	return &metrics.Input{Orig: o, Masked: m, Diag: rel.Diag, Opt: opt}
}

func metric(t *testing.T, id string, in *metrics.Input) metrics.Result {
	t.Helper()
	m, err := metrics.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Eval(in)
}

func relNear(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want) || math.Abs(got-want) <= 1e-15
}

// §7.2: the study's pivot generalized inverse.
func TestGinvPivotVectors(t *testing.T) {
	cases := []struct {
		a, g []float64
		n    int
		rank int
	}{
		{[]float64{4, 2, 2, 2, 2, 0, 2, 0, 2}, []float64{0.5, -0.5, 0, -0.5, 1, 0, 0, 0, 0}, 3, 2},
		{[]float64{2, 1, 1, 1}, []float64{1, -1, -1, 2}, 2, 2},
		{[]float64{1, 2, 2, 4}, []float64{1, 0, 0, 0}, 2, 1},
	}
	for i, c := range cases {
		g, rank := GinvPivotOf(mat.NewDense(c.n, c.n, c.a))
		if rank != c.rank {
			t.Errorf("case %d: rank %d, want %d", i, rank, c.rank)
		}
		if !mat.EqualApprox(g, mat.NewDense(c.n, c.n, c.g), 1e-12) {
			t.Errorf("case %d: G = %v, want %v", i, mat.Formatted(g), c.g)
		}
	}
}

// §5.5: AGA = A on random rank-deficient matrices; rank = number of pivots.
func TestGinvPivotProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 200 {
		m, n := 2+rng.IntN(6), 2+rng.IntN(6)
		r := 1 + rng.IntN(min(m, n))
		b, c := mat.NewDense(m, r, nil), mat.NewDense(r, n, nil)
		for i := range m {
			for j := range r {
				b.Set(i, j, rng.NormFloat64())
			}
		}
		for i := range r {
			for j := range n {
				c.Set(i, j, rng.NormFloat64())
			}
		}
		var a mat.Dense
		a.Mul(b, c)
		g, rank := GinvPivotOf(&a)
		if rank != r {
			t.Errorf("trial %d: rank %d, want %d", trial, rank, r)
		}
		var ag, aga mat.Dense
		ag.Mul(&a, g)
		aga.Mul(&ag, &a)
		if !mat.EqualApprox(&aga, &a, 1e-10*mat.Norm(&a, math.Inf(1))) {
			t.Errorf("trial %d: AGA != A", trial)
		}
	}
}

func TestPinvMatchesMoorePenrose(t *testing.T) {
	a := mat.NewDense(3, 3, []float64{4, 2, 2, 2, 2, 0, 2, 0, 2})
	g, err := Pinv(a)
	if err != nil {
		t.Fatal(err)
	}
	// The four Penrose conditions.
	var ag, ga, aga, gag mat.Dense
	ag.Mul(a, g)
	ga.Mul(g, a)
	aga.Mul(&ag, a)
	gag.Mul(&ga, g)
	if !mat.EqualApprox(&aga, a, 1e-12) || !mat.EqualApprox(&gag, g, 1e-12) ||
		!mat.EqualApprox(&ag, ag.T(), 1e-12) || !mat.EqualApprox(&ga, ga.T(), 1e-12) {
		t.Errorf("Penrose conditions fail: G = %v", mat.Formatted(g))
	}
}

// toy73 is the hand-computable example of §7.3.
func toy73() *datasets.Dataset {
	x := []float64{1, 2, 3, 4, 5, 6}
	y := []float64{2, 4, 5, 4, 5, 7}
	data := make([]float64, 0, 12)
	for i := range x {
		data = append(data, x[i], y[i])
	}
	return datasets.New("toy73", []string{"x", "y"}, 6, 2, data)
}

// §7.3: IPSO-A is OLS with intercept.
func TestIPSOAHand(t *testing.T) {
	want := []float64{2.571428571429, 3.342857142857, 4.114285714286, 4.885714285714, 5.657142857143, 6.428571428571}
	for _, g := range []string{"pinv", "pivot"} {
		rel := protect(t, "ipso_a", toy73(), map[string]string{"preds": "x", "ginv": g}, 1)
		for i, w := range want {
			if got := rel.Masked.At(i, 1); math.Abs(got-w) > 1e-11 {
				t.Errorf("ginv %s: y'[%d] = %.12f, want %.12f", g, i, got, w)
			}
			if rel.Masked.At(i, 0) != toy73().At(i, 0) {
				t.Errorf("x changed at %d", i)
			}
		}
		if cols := rel.Columns; len(cols) != 1 || cols[0] != 1 {
			t.Errorf("eval_columns = %v, want [1]", cols)
		}
	}
}

// §7.5: the Census IPSO-A table, measures on Y only.
func TestIPSOACensusVectors(t *testing.T) {
	type want struct {
		pil, q, mean, vari, cov, cor, pilKDE, id, dbrl float64
		dbrlS                                          []float64
		dbrlK                                          []string
		prl, pi, tmu                                   float64
		dr, score, scoreKDE                            float64
	}
	cases := map[string]want{
		"census_s1": {61.75891314, 0.7357249258, 0, 0.9395550237, 0.4160875204, 0.9965781871, 62.01076376,
			45.63580247, 2.037037037, []float64{0.8333333333, 1.018518519, 4.259259259}, []string{"s3", "s5", "s8"},
			4.971178134, 0.0679206, -2.7665670, 24.56995503, 43.16443408, 43.29035940},
		"census_s2": {53.55874311, 0.5955071818, 0, 0.8194243226, 0.2829778527, 0.9800277982, 53.64445362,
			68.92592593, 9.305555556, []float64{8.981481481, 9.629629630}, []string{"s3", "s4"},
			6.472916851, 0.0701315, -1.0090700, 38.40758106, 45.98316209, 46.02601734},
	}
	for set, w := range cases {
		d := load(t, set)
		rel := protect(t, "ipso_a", d, nil, 1)
		in := evalY(t, d, rel, metrics.Options{})
		pil := metric(t, "pil", in)
		check := func(what string, got, want, tol float64) {
			t.Helper()
			if !relNear(got, want, tol) {
				t.Errorf("%s %s = %.10g, want %.10g", set, what, got, want)
			}
		}
		check("pil", pil.Value, w.pil, 1e-8)
		check("pil_q", pil.Aux["q"], w.q, 1e-8)
		if pil.Aux["mean"] > 1e-15 {
			t.Errorf("%s pil_mean = %g, want ≤ 1e-15", set, pil.Aux["mean"])
		}
		check("pil_var", pil.Aux["var"], w.vari, 1e-8)
		check("pil_cov", pil.Aux["cov"], w.cov, 1e-8)
		check("pil_cor", pil.Aux["cor"], w.cor, 1e-8)
		kde := metric(t, "pil", evalY(t, d, rel, metrics.Options{PILQDensity: "kde"}))
		check("pil kde", kde.Value, w.pilKDE, 1e-8)
		check("id_rank", metric(t, "id_rank", in).Value, w.id, 1e-8)
		db := metric(t, "dbrl", in)
		check("dbrl", db.Value, w.dbrl, 1e-8)
		for i, k := range w.dbrlK {
			check("dbrl_"+k, db.Aux[k], w.dbrlS[i], 1e-8)
		}
		pr := metric(t, "prl", in)
		check("prl", pr.Value, w.prl, 1e-6)
		check("prl π", pr.Aux["pi"], w.pi, 1e-5)
		check("prl T_μ", pr.Aux["t_mu"], w.tmu, 1e-6)
		dr := metric(t, "dr", in).Value
		check("dr", dr, w.dr, 1e-8)
		check("score", metric(t, "score", in).Value, w.score, 1e-8)
		check("score_kde", metric(t, "score_kde", in).Value, w.scoreKDE, 1e-8)
		// §5.7: the identities hold exactly.
		if want := 0.25*db.Value + 0.25*pr.Value + 0.5*metric(t, "id_rank", in).Value; dr != want {
			t.Errorf("%s: dr %v != 0.25·dbrl + 0.25·prl + 0.5·id_rank = %v", set, dr, want)
		}
		if got, want := metric(t, "score", in).Value, (pil.Value+dr)/2; got != want {
			t.Errorf("%s: score %v != (pil + dr)/2 = %v", set, got, want)
		}
		if got := metric(t, "pil_kde", in).Value; got != kde.Value {
			t.Errorf("%s: pil_kde %v != pil with kde %v", set, got, kde.Value)
		}
	}
}

// moments returns the column means and the covariance matrix of the columns cols of d.
func moments(d *datasets.Dataset, cols []int) ([]float64, *mat.SymDense) {
	b, _ := newBlock(d.Data, d.N, d.P, cols, false)
	m := make([]float64, b.k)
	for i := range d.N {
		for c := range b.k {
			m[c] += b.a[i*b.k+c] / float64(d.N)
		}
	}
	return m, covOf(b.a, d.N, b.k)
}

func maxAbsDiff(a, b mat.Matrix) (diff, scale float64) {
	r, c := a.Dims()
	for i := range r {
		for j := range c {
			diff = math.Max(diff, math.Abs(a.At(i, j)-b.At(i, j)))
			scale = math.Max(scale, math.Abs(b.At(i, j)))
		}
	}
	return diff, scale
}

// refit returns B̂ (z-free, raw units, (1+s)×t) and the residual covariance of the columns y
// of d regressed on [1, columns x].
func refit(d *datasets.Dataset, x, y []int) (*mat.Dense, *mat.SymDense) {
	xb, xc := newBlock(d.Data, d.N, d.P, x, false)
	yb, _ := newBlock(d.Data, d.N, d.P, y, false)
	a, q := design(true, map[*block][]int{&xb: xc}, &xb)
	s := newSolver(a, d.N, q, GinvPinv)
	beta := make([]float64, q*yb.k)
	s.solve(nil, yb.a, yb.k, beta)
	fit := make([]float64, d.N*yb.k)
	mulRows(a, d.N, q, beta, yb.k, fit)
	for i := range fit {
		fit[i] = yb.a[i] - fit[i]
	}
	return mat.NewDense(q, yb.k, beta), covOf(fit, d.N, yb.k)
}

// randomSet returns an n×(s+t) dataset with correlated columns and the names of the first s.
func randomSet(rng *rand.Rand, n, s, t int) (*datasets.Dataset, string) {
	p := s + t
	names := make([]string, p)
	for j := range names {
		names[j] = "c" + string(rune('a'+j))
	}
	data := make([]float64, n*p)
	for i := range n {
		base := rng.NormFloat64()
		for j := range p {
			data[i*p+j] = float64(j+1)*10 + base*float64(j+1) + rng.ExpFloat64()*float64(5-j%5)
		}
	}
	return datasets.New("rand", names, n, p, data), strings.Join(names[:s], ",")
}

// §5.1-5.2: IPSO-C preserves means and covariances of (X, Y'); IPSO-B and IPSO-C preserve B̂.
func TestIPSOInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	type tc struct {
		d   *datasets.Dataset
		raw map[string]string
	}
	var cases []tc
	for _, set := range []string{"census_s1", "census_s2"} {
		cases = append(cases, tc{load(t, set), nil})
	}
	for range 4 {
		d, preds := randomSet(rng, 40+rng.IntN(60), 1+rng.IntN(3), 1+rng.IntN(3))
		cases = append(cases, tc{d, map[string]string{"preds": preds}})
	}
	for ci, c := range cases {
		base := protect(t, "ipso_a", c.d, c.raw, 1)
		ycols := base.Columns
		var xcols []int
		for j := range c.d.P {
			if !isConst(ycols, j) {
				xcols = append(xcols, j)
			}
		}
		bHat, see := refit(c.d, xcols, ycols)
		for _, v := range []struct {
			name string
			raw  map[string]string
		}{
			{"ipso_b", nil}, {"ipso_b", map[string]string{"ipso_b_variant": "seed"}},
			{"ipso_c", nil}, {"ipso_c", map[string]string{"sqrt": "symmetric"}},
		} {
			raw := map[string]string{}
			for k, x := range c.raw {
				raw[k] = x
			}
			for k, x := range v.raw {
				raw[k] = x
			}
			rel := protect(t, v.name, c.d, raw, uint64(ci+3))
			label := v.name + " " + c.d.Name
			if v.raw != nil {
				label += " " + strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(
					strings.TrimPrefix(strings.TrimPrefix(fmtMap(v.raw), "map"), "["), "]", ""), ":", "="), " ")), " ")
			}
			b2, see2 := refit(rel.Masked, xcols, ycols)
			if dd, sc := maxAbsDiff(b2, bHat); dd > 1e-8*math.Max(sc, 1) {
				t.Errorf("%s: refitted B̂ differs by %g (scale %g)", label, dd, sc)
			}
			mo, _ := moments(c.d, ycols)
			mm, _ := moments(rel.Masked, ycols)
			for l := range mo {
				if math.Abs(mm[l]-mo[l]) > 1e-9*(1+math.Abs(mo[l])) {
					t.Errorf("%s: mean of target %d: %g, want %g", label, l, mm[l], mo[l])
				}
			}
			if v.name != "ipso_c" {
				continue
			}
			if dd, sc := maxAbsDiff(see2, see); dd > 1e-8*sc {
				t.Errorf("%s: residual covariance differs by %g (scale %g)", label, dd, sc)
			}
			all := make([]int, c.d.P)
			for j := range all {
				all[j] = j
			}
			_, co := moments(c.d, all)
			_, cm := moments(rel.Masked, all)
			if dd, sc := maxAbsDiff(cm, co); dd > 1e-8*sc {
				t.Errorf("%s: covariance of (X, Y') differs by %g (scale %g)", label, dd, sc)
			}
			in := evalY(t, c.d, rel, metrics.Options{})
			pil := metric(t, "pil", in)
			// With one target there are no pairs and pil averages three components.
			f := 20.0
			if len(ycols) == 1 {
				f = 100.0 / 3
			}
			if math.Abs(pil.Value-f*pil.Aux["q"]) > 1e-9 {
				t.Errorf("%s: pil %.12g != %.4g·pil_q %.12g", label, pil.Value, f, f*pil.Aux["q"])
			}
		}
	}
}

func fmtMap(m map[string]string) string {
	var b strings.Builder
	for k, v := range m {
		b.WriteString(k + "=" + v + " ")
	}
	return b.String()
}

// §5.6: the study's IPSO-B equals IPSO-A within 0.05 PIL on Census S1 and S2.
func TestIPSOBSeedNearIPSOA(t *testing.T) {
	for _, set := range []string{"census_s1", "census_s2"} {
		d := load(t, set)
		a := metric(t, "pil", evalY(t, d, protect(t, "ipso_a", d, nil, 1), metrics.Options{})).Value
		for seed := range uint64(3) {
			b := metric(t, "pil", evalY(t, d, protect(t, "ipso_b", d, map[string]string{"ipso_b_variant": "seed"}, seed), metrics.Options{})).Value
			if math.Abs(a-b) >= 0.05 {
				t.Errorf("%s seed %d: |pil(ipso_b seed) − pil(ipso_a)| = %g", set, seed, math.Abs(a-b))
			}
		}
	}
}

// Degenerate inputs give one clear error or a documented result, never a panic or NaN.
func TestIPSODegenerate(t *testing.T) {
	constY := datasets.New("cy", []string{"x", "y", "k"}, 6, 3,
		[]float64{1, 2, 5, 2, 4, 5, 3, 5, 5, 4, 4, 5, 5, 5, 5, 6, 7, 5})
	for _, name := range []string{"ipso_a", "ipso_b", "ipso_c"} {
		rel := protect(t, name, constY, map[string]string{"preds": "x"}, 2)
		for i := range 6 {
			if rel.Masked.At(i, 2) != 5 {
				t.Errorf("%s: constant target changed: %v", name, rel.Masked.Col(2))
			}
			for j := range 3 {
				if v := rel.Masked.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: non-finite output %v", name, v)
				}
			}
		}
	}
	constX := datasets.New("cx", []string{"k", "x", "y"}, 6, 3,
		[]float64{1, 1, 2, 1, 2, 4, 1, 3, 5, 1, 4, 4, 1, 5, 5, 1, 6, 7})
	rel := protect(t, "ipso_a", constX, map[string]string{"preds": "k,x"}, 1)
	if got := rel.Masked.At(0, 2); math.Abs(got-2.571428571429) > 1e-11 {
		t.Errorf("constant predictor not dropped: y'[0] = %v", got)
	}
	collinear := datasets.New("col", []string{"x", "x2", "y"}, 6, 3,
		[]float64{1, 2, 2, 2, 4, 4, 3, 6, 5, 4, 8, 4, 5, 10, 5, 6, 12, 7})
	for _, g := range []string{"pinv", "pivot"} {
		rel := protect(t, "ipso_a", collinear, map[string]string{"preds": "x,x2", "ginv": g}, 1)
		if got := rel.Masked.At(5, 2); math.Abs(got-6.428571428571) > 1e-9 {
			t.Errorf("collinear predictors, ginv %s: y'[5] = %v", g, got)
		}
	}
	errs := []struct {
		name string
		d    *datasets.Dataset
		raw  map[string]string
		want string
	}{
		{"ipso_a", toy73(), nil, "no registered X/Y split"},
		{"ipso_a", toy73(), map[string]string{"preds": "z"}, `no column "z"`},
		{"ipso_a", toy73(), map[string]string{"preds": "x,y"}, "no dependent"},
		{"ipso_a", toy73(), map[string]string{"preds": "x", "targets": "x"}, "both a predictor and a target"},
		{"ipso_c", datasets.New("tiny", []string{"x", "y"}, 3, 2, []float64{1, 2, 2, 1, 3, 5}), map[string]string{"preds": "x"}, "need more than 3"},
		{"ipso_a", datasets.New("one", []string{"x", "y"}, 1, 2, []float64{1, 2}), map[string]string{"preds": "x"}, "need at least 2"},
		{"ipso_a", datasets.New("nan", []string{"x", "y"}, 2, 2, []float64{1, math.NaN(), 2, 3}), map[string]string{"preds": "x"}, `column "y" has 1 missing value; drop or impute`},
	}
	for _, e := range errs {
		_, err := tryProtect(e.name, e.d, e.raw, 1)
		if err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%s on %s %v: error %v, want it to mention %q", e.name, e.d.Name, e.raw, err, e.want)
		}
	}
}

// The census_order option permutes which Census columns form the blocks.
func TestCensusOrder(t *testing.T) {
	d := load(t, "census_s1")
	rel := protect(t, "ipso_a", d, map[string]string{"census_order": "table4"}, 1)
	var got []string
	for _, j := range rel.Columns {
		got = append(got, d.Names[j])
	}
	want := "AFNLWGT,EMCONTRB,STATETAX,TAXINC,POTHVAL,INTVAL,FICA,WSALVAL,ERNVAL" // CSV order inside the block
	if strings.Join(got, ",") != want {
		t.Errorf("table4 S1 targets %v, want %s", got, want)
	}
}
