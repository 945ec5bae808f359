package metrics

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// withLevels returns mkTable's table with the given levels (nil entries: numeric columns).
func withLevels(d *datasets.Dataset, levels ...[]string) *datasets.Dataset {
	d.Levels = levels
	return d
}

// TestGowerDist: Gower's per-column distances averaged; a missing numeric value differs by 1,
// a missing category (−1) is a category.
func TestGowerDist(t *testing.T) {
	nan := math.NaN()
	cat := []bool{false, true, false}
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{0.1, 2, 0.5}, []float64{0.1, 2, 0.5}, 0},
		{[]float64{0.1, 2, 0.5}, []float64{0.4, 2, 0.5}, 0.3 / 3},
		{[]float64{0.1, 2, 0.5}, []float64{0.4, 1, 0}, (0.3 + 1 + 0.5) / 3},
		{[]float64{nan, -1, 0.5}, []float64{0.2, -1, 0.5}, 1.0 / 3},
		{[]float64{nan, -1, 0.5}, []float64{nan, 0, 0.5}, 2.0 / 3},
	} {
		if got := gowerDist(c.a, c.b, cat); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("gowerDist(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestMixedTables: numeric columns divided by their range over the three tables, category
// codes mapped through the labels (a release with other level order and a new label).
func TestMixedTables(t *testing.T) {
	nan := math.NaN()
	ab := []string{"x", "c"}
	orig := withLevels(mkTable(ab, []float64{0, 0}, []float64{4, 1}, []float64{2, nan}), nil, []string{"p", "q"})
	rel := withLevels(mkTable(ab, []float64{1, 0}, []float64{8, 1}, []float64{3, 2}), nil, []string{"q", "p", "r"})
	ctl := withLevels(mkTable(ab, []float64{-2, 1}), nil, []string{"p", "q"})
	m := mixedOf(&Input{Orig: orig, Masked: rel, Control: ctl})
	// Range of x: 8 − (−2) = 10. Codes: p 0, q 1, r 2 (new), missing −1.
	want := struct{ t, r, c []float64 }{
		[]float64{0, 0, 0.4, 1, 0.2, -1},
		[]float64{0.1, 1, 0.8, 0, 0.3, 2},
		[]float64{-0.2, 1},
	}
	for _, x := range []struct {
		name      string
		got, want []float64
	}{{"original", m.t, want.t}, {"release", m.r, want.r}, {"control", m.c, want.c}} {
		for i := range x.want {
			if math.Abs(x.got[i]-x.want[i]) > 1e-15 {
				t.Errorf("%s: %v, want %v", x.name, x.got, x.want)
				break
			}
		}
	}
	if m.cat[0] || !m.cat[1] {
		t.Errorf("cat = %v, want [false true]", m.cat)
	}
}

// TestNearestGowerVsCodes: on a categorical column the Euclidean distance of codes finds
// code 1 nearer to 0 than code 2; Gower's finds both equally far (the lower index wins).
func TestNearestGowerVsCodes(t *testing.T) {
	r := []float64{2, 1}
	dst, dist := make([]int, 1), make([]float64, 1)
	nearest(dst, dist, r, 2, 1, []float64{0}, sqDist)
	if dst[0] != 1 {
		t.Errorf("Euclidean on codes: row %d, want 1", dst[0])
	}
	nearest(dst, dist, r, 2, 1, []float64{0}, func(a, b []float64) float64 { return gowerDist(a, b, []bool{true}) })
	if dst[0] != 0 {
		t.Errorf("Gower: row %d, want 0", dst[0])
	}
}

// TestCategoricalAttacksByHand: inference with a categorical secret (exact match, compared
// by label) and linkability with the Gower distance on a categorical aux column.
func TestCategoricalAttacksByHand(t *testing.T) {
	xs := []string{"x", "s"}
	ab := []string{"a", "b"}
	cases := []struct {
		name              string
		id                string
		opt               AttackOptions
		orig, masked, ctl *datasets.Dataset
		xt, nt, xc, nc    float64
	}{
		// Secret s (levels a, b in the original, b, a in the release). Original x = 0, 10, 20,
		// 30 with s = a, b, a, b; release x = 1, 11, 19, 29 with s = a, a, a, b: the nearest
		// record gives a ✓, a ✗, a ✓, b ✓. Control x = 5 (b), 25 (a), 2 (a), 12 (b): nearest
		// 1 (a) ✗, 29 (b) ✗, 1 (a) ✓, 11 (a) ✗.
		{"inference, categorical secret", "inference", AttackOptions{Aux: []string{"x"}, Attacks: 4},
			withLevels(mkTable(xs, []float64{0, 0}, []float64{10, 1}, []float64{20, 0}, []float64{30, 1}), nil, []string{"a", "b"}),
			withLevels(mkTable(xs, []float64{1, 1}, []float64{11, 1}, []float64{19, 1}, []float64{29, 0}), nil, []string{"b", "a"}),
			withLevels(mkTable(xs, []float64{5, 1}, []float64{25, 0}, []float64{2, 0}, []float64{12, 1}), nil, []string{"a", "b"}),
			3, 4, 1, 4},
		// a categorical (p, q, r), b numeric. Release (p, 20), (p, 0), (q, 10). Original
		// (p, 0): nearest on a is release row 0 (tie with row 1, lower index), on b row 1: not
		// linked; (q, 10): row 2 and row 2: linked; (p, 20): rows 0 and 0: linked. Control
		// (q, 0): rows 2 and 1; (r, 10): a ties all three → row 0, b row 2; (p, 19): rows 0, 0:
		// linked.
		{"linkability, Gower", "linkability", AttackOptions{Aux: []string{"a"}},
			withLevels(mkTable(ab, []float64{0, 0}, []float64{1, 10}, []float64{0, 20}), []string{"p", "q", "r"}, nil),
			withLevels(mkTable(ab, []float64{0, 20}, []float64{0, 0}, []float64{1, 10}), []string{"p", "q", "r"}, nil),
			withLevels(mkTable(ab, []float64{1, 0}, []float64{2, 10}, []float64{0, 19}), []string{"p", "q", "r"}, nil),
			2, 3, 1, 3},
	}
	for _, c := range cases {
		m, err := Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		res := m.Eval(&Input{Orig: c.orig, Masked: c.masked, Control: c.ctl, Opt: Options{Attack: c.opt}})
		v, lo, hi := riskByHand(c.xt, c.nt, c.xc, c.nc)
		rt, _ := wilsonByHand(c.xt, c.nt)
		rc, _ := wilsonByHand(c.xc, c.nc)
		got := []float64{res.Value, res.Aux["ci_low"], res.Aux["ci_high"], res.Aux["train"], res.Aux["control"]}
		want := []float64{v, lo, hi, rt, rc}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s: %s = %.15g, want %.15g (notes %v)", c.name,
					[]string{"risk", "ci_low", "ci_high", "train", "control"}[i], got[i], want[i], res.Notes)
			}
		}
	}
}

// TestAttackDistanceOption: attack_distance = euclidean on a categorical aux reads the codes
// (the old behaviour), gower and auto agree there.
func TestAttackDistanceOption(t *testing.T) {
	ab := []string{"a", "b"}
	lv := []string{"p", "q", "r"}
	orig := withLevels(mkTable(ab, []float64{0, 0}, []float64{1, 10}, []float64{0, 20}), lv, nil)
	rel := withLevels(mkTable(ab, []float64{0, 20}, []float64{0, 0}, []float64{1, 10}), lv, nil)
	m, _ := Lookup("linkability")
	run := func(dist string) float64 {
		var o Options
		if err := o.SetOption("aux", "a"); err != nil {
			t.Fatal(err)
		}
		if dist != "" {
			if err := o.SetOption("attack_distance", dist); err != nil {
				t.Fatal(err)
			}
		}
		return m.Eval(&Input{Orig: orig, Masked: rel, Opt: o}).Aux["train"]
	}
	if a, g := run(""), run("gower"); a != g {
		t.Errorf("auto %v, gower %v: want equal on a categorical aux", a, g)
	}
	var o Options
	if err := o.SetOption("attack_distance", "manhattan"); err == nil {
		t.Error("attack_distance = manhattan accepted")
	}
}

// TestDiscoTCAPByHand follows synthpop's disclosure() on eight records by hand.
func TestDiscoTCAPByHand(t *testing.T) {
	nan := math.NaN()
	kt := []string{"key", "target"}
	keys := []string{"A", "B", "C", "D", "E"}
	// Original (key, target): A x, A x, B x, B y, C y, D x, NA y, E x.
	orig := withLevels(mkTable(kt, []float64{0, 0}, []float64{0, 0}, []float64{1, 0}, []float64{1, 1},
		[]float64{2, 1}, []float64{3, 0}, []float64{nan, 1}, []float64{4, 0}), keys, []string{"x", "y"})
	// Release, levels in another order: A x, A x, B y, C x, C y, NA y. One target per key:
	// A → x, B → y, C none (two values), NA → y; D and E do not occur.
	rel := withLevels(mkTable(kt, []float64{2, 1}, []float64{2, 1}, []float64{1, 0}, []float64{0, 1},
		[]float64{0, 0}, []float64{nan, 0}), []string{"C", "B", "A"}, []string{"y", "x"})
	// Control: A y (matched, wrong), B y (matched, right).
	ctl := withLevels(mkTable(kt, []float64{0, 1}, []float64{1, 1}), keys, []string{"x", "y"})
	in := &Input{Orig: orig, Masked: rel, Control: ctl, Opt: Options{Attack: AttackOptions{Aux: []string{"key"}, Secret: "target"}}}
	// Matched original records: A x, A x, B x, B y, NA y (5); right: A x, A x, B y, NA y (4).
	// Own single target (Dorig): A, C, D, NA, E → 6 of 8. baseCAPd: (5/8)² + (3/8)².
	w, wt := Wilson(4, 8, 0.95), Wilson(4, 5, 0.95)
	for _, c := range []struct {
		id   string
		want map[string]float64
	}{
		{"disco", map[string]float64{"": 0.5, "ci_low": w.Low(), "ci_high": w.High(), "dorig": 0.75, "control": 0.5, "n": 8}},
		{"tcap", map[string]float64{"": 0.8, "ci_low": wt.Low(), "ci_high": wt.High(), "baseline": 34.0 / 64, "control": 0.5, "n_matched": 5}},
	} {
		m, _ := Lookup(c.id)
		res := m.Eval(in)
		for k, want := range c.want {
			got := res.Value
			if k != "" {
				got = res.Aux[k]
			}
			if math.Abs(got-want) > 1e-15 {
				t.Errorf("%s %s = %v, want %v", c.id, k, got, want)
			}
		}
	}
	// A release sharing no key: TCAP is undefined (synthpop's NA), DiSCO 0.
	other := withLevels(mkTable(kt, []float64{0, 0}), []string{"Z"}, []string{"x"})
	in = &Input{Orig: orig, Masked: other, Opt: in.Opt}
	if m, _ := Lookup("tcap"); !math.IsNaN(m.Eval(in).Value) {
		t.Error("tcap with no matched key: want NaN")
	}
	if m, _ := Lookup("disco"); m.Eval(in).Value != 0 {
		t.Error("disco with no matched key: want 0")
	}
}

// TestDiscoNumericKeys: a numeric key is a factor of its distinct values, as synthpop makes it.
func TestDiscoNumericKeys(t *testing.T) {
	kt := []string{"k", "t"}
	orig := mkTable(kt, []float64{1, 10}, []float64{2, 20}, []float64{2, 30}, []float64{3, 10})
	rel := mkTable(kt, []float64{1, 10}, []float64{2, 20}, []float64{3, 11})
	// k = 1 → 10 ✓; k = 2 → 20: ✓ and ✗; k = 3 → 11 ✗ (10 ≠ 11).
	m, _ := Lookup("disco")
	res := m.Eval(&Input{Orig: orig, Masked: rel, Opt: Options{Attack: AttackOptions{Aux: []string{"k"}, Secret: "t"}}})
	if res.Value != 0.5 {
		t.Errorf("disco = %v, want 2/4 (notes %v)", res.Value, res.Notes)
	}
}

// TestDiscoProperties: publishing the original gives DiSCO = Dorig and TCAP = 1; the result
// does not depend on the release's row order.
func TestDiscoProperties(t *testing.T) {
	d, err := datasets.Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Attack: AttackOptions{Aux: []string{"db040", "rb090", "age"}, Secret: "pl030"}}
	disco, _ := Lookup("disco")
	tcap, _ := Lookup("tcap")
	r := disco.Eval(&Input{Orig: d, Masked: d, Opt: opt})
	if r.Value != r.Aux["dorig"] || !(r.Value > 0) {
		t.Errorf("disco of the original itself = %v, dorig %v: want equal and > 0", r.Value, r.Aux["dorig"])
	}
	if v := tcap.Eval(&Input{Orig: d, Masked: d, Opt: opt}).Value; v != 1 {
		t.Errorf("tcap of the original itself = %v, want 1", v)
	}
	rev := d.Clone()
	for i := 0; i < d.N; i++ {
		copy(rev.Data[i*d.P:(i+1)*d.P], d.Data[(d.N-1-i)*d.P:(d.N-i)*d.P])
	}
	if a, b := disco.Eval(&Input{Orig: d, Masked: rev, Opt: opt}).Value, r.Value; a != b {
		t.Errorf("disco depends on the release's row order: %v vs %v", a, b)
	}
}

// TestDiscoTargetNA: use_target_na = false follows synthpop's usetargetNA = FALSE: DiSCO's
// disclosive keys still see the release's missing targets, TCAP's do not, and records with a
// missing target count in DiSCO's denominator only.
func TestDiscoTargetNA(t *testing.T) {
	nan := math.NaN()
	kt := []string{"key", "target"}
	lv := [][]string{{"A", "B", "C", "D"}, {"x", "y"}}
	// Original: A x, A NA, B y, B y, C NA, D x. Release: A x, A NA, B y, C NA, D NA, D y.
	orig := withLevels(mkTable(kt, []float64{0, 0}, []float64{0, nan}, []float64{1, 1}, []float64{1, 1},
		[]float64{2, nan}, []float64{3, 0}), lv...)
	rel := withLevels(mkTable(kt, []float64{0, 0}, []float64{0, nan}, []float64{1, 1}, []float64{2, nan},
		[]float64{3, nan}, []float64{3, 1}), lv...)
	for _, c := range []struct {
		use                      string
		disco, dorig, tcap, nMat float64
	}{
		// NA a category: one target per key A −, B y, C NA, D −. DiSCO: B, B, C (3/6); TCAP 3/3;
		// Dorig: B, B, C, D (4/6).
		{"true", 3.0 / 6, 4.0 / 6, 1, 3},
		// Excluded: DiSCO B, B (2/6); TCAP's keys without the release's NA: A x, B y, D y →
		// A ✓, B ✓, B ✓, D ✗ (3/4); Dorig B, B, D (3/6).
		{"false", 2.0 / 6, 3.0 / 6, 3.0 / 4, 4},
	} {
		var o Options
		for k, v := range map[string]string{"aux": "key", "secret": "target", "use_target_na": c.use} {
			if err := o.SetOption(k, v); err != nil {
				t.Fatal(err)
			}
		}
		in := &Input{Orig: orig, Masked: rel, Opt: o}
		d, _ := Lookup("disco")
		tc, _ := Lookup("tcap")
		rd, rt := d.Eval(in), tc.Eval(in)
		got := []float64{rd.Value, rd.Aux["dorig"], rt.Value, rt.Aux["n_matched"], rt.Aux["baseline"]}
		want := []float64{c.disco, c.dorig, c.tcap, c.nMat, 1.0 / 3}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-15 {
				t.Errorf("use_target_na = %s: %s = %v, want %v", c.use,
					[]string{"disco", "dorig", "tcap", "n_matched", "baseline"}[i], got[i], want[i])
			}
		}
	}
}

// TestGowerProperties: on random mixed records Gower's distance is symmetric, 0 on a record
// and itself, and within [0, 1].
func TestGowerProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	cat := []bool{true, false, true, false}
	rec := func() []float64 {
		r := []float64{float64(rng.IntN(3) - 1), rng.Float64(), float64(rng.IntN(4)), rng.Float64()}
		if rng.IntN(5) == 0 {
			r[1] = math.NaN()
		}
		return r
	}
	for range 1000 {
		a, b := rec(), rec()
		ab, ba := gowerDist(a, b, cat), gowerDist(b, a, cat)
		if ab != ba || !(ab >= 0 && ab <= 1) {
			t.Fatalf("gowerDist(%v, %v) = %v, reversed %v", a, b, ab, ba)
		}
		if a[1] == a[1] && gowerDist(a, a, cat) != 0 {
			t.Fatalf("gowerDist(a, a) = %v for a = %v", gowerDist(a, a, cat), a)
		}
	}
}

// TestDisclosureOptionsChecked: disco and tcap need aux (their keys) before anything runs.
func TestDisclosureOptionsChecked(t *testing.T) {
	names := []string{"a", "b"}
	for _, id := range DisclosureMetrics {
		if err := CheckAttackOptions([]string{id}, Options{}, names); err == nil || !strings.Contains(err.Error(), "aux") {
			t.Errorf("%s without aux: %v, want an error naming aux", id, err)
		}
		o := Options{Attack: AttackOptions{Aux: []string{"a", "b"}}}
		if err := CheckAttackOptions([]string{id}, o, names); err == nil || !strings.Contains(err.Error(), "secret") {
			t.Errorf("%s with every column in aux: %v, want an error naming secret", id, err)
		}
	}
}
