package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/binomial"
)

// z95 is Φ⁻¹(0.975).
const z95 = 1.959963984540054

// wilsonByHand is the textbook Wilson centre and half-width at 95%.
func wilsonByHand(x, n float64) (c, e float64) {
	z2 := z95 * z95
	return (x + z2/2) / (n + z2), z95 / (n + z2) * math.Sqrt(x*(n-x)/n+z2/4)
}

func riskByHand(xt, nt, xc, nc float64) (v, lo, hi float64) {
	rt, et := wilsonByHand(xt, nt)
	rc, ec := wilsonByHand(xc, nc)
	v = (rt - rc) / (1 - rc)
	e := math.Sqrt(math.Pow(et/(1-rc), 2) + math.Pow(ec*(1-rt)/((1-rc)*(1-rc)), 2))
	return v, v - e, v + e
}

// TestWilsonRate: metrics.Wilson is internal/binomial's Wilson interval (checked there against
// R's prop.test) as a Rate.
func TestWilsonRate(t *testing.T) {
	r := Wilson(7, 20, 0.95)
	v, e := binomial.Wilson(7, 20, 0.95)
	if r.Low() != v-e || r.High() != v+e {
		t.Errorf("Wilson(7, 20) = [%v, %v], binomial.Wilson [%v, %v]", r.Low(), r.High(), v-e, v+e)
	}
}

func mkTable(names []string, rows ...[]float64) *datasets.Dataset {
	var data []float64
	for _, r := range rows {
		data = append(data, r...)
	}
	return datasets.New("t", names, len(rows), len(names), data)
}

// TestAttacksByHand checks each attack on tables small enough to follow by hand (see the
// comments); the risks must equal the hand formula to 1e-12.
func TestAttacksByHand(t *testing.T) {
	ab := []string{"a", "b"}
	cases := []struct {
		id                   string
		opt                  AttackOptions
		orig, masked, ctl    *datasets.Dataset
		xt, nt, xc, nc, natt float64
	}{
		// Release a = 1, 2, 3: the only predicates singling out one release record are a ≤ 1
		// and a ≥ 3. In the original (a = 1, 5, 6, 7) a ≤ 1 singles out one record, a ≥ 3 three;
		// in the control (0, 0.5, 9, 10) each matches two.
		{"singling_out", AttackOptions{Aux: []string{"a"}, Attacks: 2},
			mkTable(ab, []float64{1, 0}, []float64{5, 1}, []float64{6, 0}, []float64{7, 1}),
			mkTable(ab, []float64{1, 0}, []float64{2, 1}, []float64{3, 0}),
			mkTable(ab, []float64{0, 0}, []float64{0.5, 1}, []float64{9, 0}, []float64{10, 1}),
			1, 2, 0, 2, 2},
		// Release (0,0), (10,10), (20,0). Original (0,0): nearest on a and on b is row 0 (b tie
		// to the lower index) → linked; (10,10) → row 1 twice → linked; (20,10) → rows 2 and 1.
		// Control (0,10) → 0/1, (10,0) → 1/0, (20,0) → 2/0: none linked.
		{"linkability", AttackOptions{Aux: []string{"a"}},
			mkTable(ab, []float64{0, 0}, []float64{10, 10}, []float64{20, 10}),
			mkTable(ab, []float64{0, 0}, []float64{10, 10}, []float64{20, 0}),
			mkTable(ab, []float64{0, 10}, []float64{10, 0}, []float64{20, 0}),
			2, 3, 0, 3, 3},
		// Release (a, b) = (0,5), (10,7), (20,9); the secret is b, tolerance 0.05·SD(b of the
		// original 5, 7, 0) ≈ 0.18. Original (1,5) → 5 ✓, (9,7) → 7 ✓, (19,0) → 9 ✗; control
		// (0,6) → 5 ✗, (11,7) → 7 ✓, (21,1) → 9 ✗.
		{"inference", AttackOptions{Aux: []string{"a"}},
			mkTable(ab, []float64{1, 5}, []float64{9, 7}, []float64{19, 0}),
			mkTable(ab, []float64{0, 5}, []float64{10, 7}, []float64{20, 9}),
			mkTable(ab, []float64{0, 6}, []float64{11, 7}, []float64{21, 1}),
			2, 3, 1, 3, 3},
	}
	for _, c := range cases {
		m, err := Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, std := range []string{"", "none"} {
			in := &Input{Orig: c.orig, Masked: c.masked, Control: c.ctl, Opt: Options{Attack: c.opt, Standardize: std}}
			res := m.Eval(in)
			v, lo, hi := riskByHand(c.xt, c.nt, c.xc, c.nc)
			rt, _ := wilsonByHand(c.xt, c.nt)
			rc, _ := wilsonByHand(c.xc, c.nc)
			got := []float64{res.Value, res.Aux["ci_low"], res.Aux["ci_high"], res.Aux["train"], res.Aux["control"], res.Aux["n_attacks"]}
			want := []float64{v, lo, hi, rt, rc, c.natt}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("%s (standardize %q): %s = %.15g, want %.15g (notes %v)", c.id, std,
						[]string{"risk", "ci_low", "ci_high", "train", "control", "n_attacks"}[i], got[i], want[i], res.Notes)
				}
			}
			if b := res.Aux["baseline"]; !(b > 0 && b < 1) {
				t.Errorf("%s: baseline %v outside (0, 1)", c.id, b)
			}
		}
	}
}

// TestAttackWithoutControl: the baseline replaces the control; the result is deterministic.
func TestAttackWithoutControl(t *testing.T) {
	d, _ := datasets.Load("census")
	for _, id := range AttackMetrics {
		m, _ := Lookup(id)
		opt := Options{Attack: AttackOptions{Aux: []string{d.Names[0], d.Names[1], d.Names[2]}, Attacks: 100}}
		r1 := m.Eval(&Input{Orig: d, Masked: d, Opt: opt})
		r2 := m.Eval(&Input{Orig: d, Masked: d.Clone(), Opt: opt})
		if !math.IsNaN(r1.Aux["control"]) || len(r1.Notes) == 0 {
			t.Errorf("%s: control %v, notes %v: want NaN and a note", id, r1.Aux["control"], r1.Notes)
		}
		if r1.Value != r2.Value || r1.Aux["baseline"] != r2.Aux["baseline"] {
			t.Errorf("%s: not deterministic: %v vs %v", id, r1, r2)
		}
		want := (r1.Aux["train"] - r1.Aux["baseline"]) / (1 - r1.Aux["baseline"])
		if math.Abs(r1.Value-want) > 1e-12 {
			t.Errorf("%s: risk %v, want (train − baseline)/(1 − baseline) = %v", id, r1.Value, want)
		}
	}
}

// TestAttackSeparatesReleases: publishing the original itself is risky for every attack,
// publishing unrelated records (the control set itself) is not.
func TestAttackSeparatesReleases(t *testing.T) {
	d, _ := datasets.Load("census")
	train, rest := splitRows(d, 0.5, 7)
	ctl, other := splitRows(rest, 0.5, 8) // other: records of the population outside train
	names := d.Names
	opt := Options{Attack: AttackOptions{Aux: names[:4], Attacks: 300}}
	for _, id := range AttackMetrics {
		m, _ := Lookup(id)
		ident := m.Eval(&Input{Orig: train, Masked: train, Control: ctl, Opt: opt})
		if !(ident.Aux["ci_low"] > 0.2) {
			t.Errorf("%s: publishing the original: risk %v [%v, %v], want a lower bound > 0.2",
				id, ident.Value, ident.Aux["ci_low"], ident.Aux["ci_high"])
		}
		indep := m.Eval(&Input{Orig: train, Masked: other, Control: ctl, Opt: opt})
		if !(indep.Aux["ci_low"] < 0 && indep.Value < 0.1) {
			t.Errorf("%s: publishing other records: risk %v [%v, %v], want an interval reaching below 0",
				id, indep.Value, indep.Aux["ci_low"], indep.Aux["ci_high"])
		}
		t.Logf("%s: original %.3f [%.3f, %.3f]; other records %.3f [%.3f, %.3f]", id, ident.Value,
			ident.Aux["ci_low"], ident.Aux["ci_high"], indep.Value, indep.Aux["ci_low"], indep.Aux["ci_high"])
	}
}

// splitRows puts round(frac·n) random rows in the second table, both in row order.
func splitRows(d *datasets.Dataset, frac float64, seed uint64) (a, b *datasets.Dataset) {
	rng := rand.New(rand.NewPCG(seed, 1))
	perm := rng.Perm(d.N)
	m := int(math.Round(frac * float64(d.N)))
	inB := make([]bool, d.N)
	for _, i := range perm[:m] {
		inB[i] = true
	}
	var da, db []float64
	for i := 0; i < d.N; i++ {
		if inB[i] {
			db = append(db, d.Row(i)...)
		} else {
			da = append(da, d.Row(i)...)
		}
	}
	return datasets.New("a", d.Names, d.N-m, d.P, da), datasets.New("b", d.Names, m, d.P, db)
}

// TestIntervalCoverage simulates attacks with known success probabilities: the Wilson
// interval and the propagated risk interval must cover the truth in 93-97% of 4000 trials.
func TestIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	binom := func(n int, p float64) int {
		k := 0
		for i := 0; i < n; i++ {
			if rng.Float64() < p {
				k++
			}
		}
		return k
	}
	for _, c := range []struct {
		n      int
		pt, pc float64
	}{{500, 0.30, 0.10}, {500, 0.5, 0.45}, {300, 0.2, 0.2}} {
		const trials = 4000
		covW, covR := 0, 0
		truth := (c.pt - c.pc) / (1 - c.pc)
		for range trials {
			rt := Wilson(binom(c.n, c.pt), c.n, 0.95)
			rc := Wilson(binom(c.n, c.pc), c.n, 0.95)
			if rt.Low() <= c.pt && c.pt <= rt.High() {
				covW++
			}
			if r := ResidualRisk(rt, rc); r.Low <= truth && truth <= r.High {
				covR++
			}
		}
		fw, fr := float64(covW)/trials, float64(covR)/trials
		t.Logf("n=%d pt=%v pc=%v: Wilson coverage %.4f, risk coverage %.4f", c.n, c.pt, c.pc, fw, fr)
		if fw < 0.93 || fw > 0.97 || fr < 0.93 || fr > 0.97 {
			t.Errorf("n=%d pt=%v pc=%v: coverage Wilson %.4f, risk %.4f, want both in [0.93, 0.97]", c.n, c.pt, c.pc, fw, fr)
		}
	}
}

func TestAttackBadOptions(t *testing.T) {
	names := []string{"a", "b", "c"}
	for _, c := range []struct {
		opt  AttackOptions
		ids  []string
		want string
	}{
		{AttackOptions{}, []string{"sse_sst", "inference"}, "needs the attacker's auxiliary columns"},
		{AttackOptions{Aux: []string{"z"}}, []string{"singling_out"}, `no column "z"`},
		{AttackOptions{Aux: []string{"a", "b", "c"}}, []string{"linkability"}, "set aux2"},
		{AttackOptions{Aux: []string{"#1", "#2", "#3"}}, []string{"linkability"}, "set aux2"},
		{AttackOptions{Aux: []string{"#4"}}, []string{"inference"}, "column position #4 outside 1..3"},
		{AttackOptions{Aux: []string{"#1", "a"}}, []string{"inference"}, `column "a" listed twice`},
		{AttackOptions{Aux: []string{"a"}, Secret: "a"}, []string{"inference"}, "secret column outside aux"},
	} {
		err := CheckAttackOptions(c.ids, Options{Attack: c.opt}, names)
		if err == nil || !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v %v: error %v, want one line containing %q", c.ids, c.opt, err, c.want)
		}
	}
	if err := CheckAttackOptions([]string{"sse_sst"}, Options{}, names); err != nil {
		t.Errorf("no attack metric: %v", err)
	}
	var o Options
	for _, kv := range [][2]string{{"attacks", "0"}, {"level", "1"}, {"tolerance", "-1"}, {"aux", " , "}, {"nope", "1"}} {
		if err := o.SetOption(kv[0], kv[1]); err == nil || !errors.Is(err, ErrBadOption) {
			t.Errorf("SetOption(%s=%s) = %v, want ErrBadOption", kv[0], kv[1], err)
		}
	}
	if err := o.SetOption("aux", "a, b"); err != nil || len(o.Attack.Aux) != 2 || o.Attack.Aux[1] != "b" {
		t.Errorf("SetOption(aux) = %v, %v", err, o.Attack.Aux)
	}
	// Without options the metric itself is NaN with the message, not a panic.
	m, _ := Lookup("linkability")
	d := mkTable(names, []float64{1, 2, 3}, []float64{4, 5, 6})
	if r := m.Eval(&Input{Orig: d, Masked: d}); !math.IsNaN(r.Value) || len(r.Notes) == 0 {
		t.Errorf("no aux: %v", r)
	}
}

// TestSinglingOutNoPredicate: in a release of groups of identical records no predicate
// singles out a record: the risk is 0 with no attack made.
func TestSinglingOutNoPredicate(t *testing.T) {
	ab := []string{"a", "b"}
	orig := mkTable(ab, []float64{1, 2}, []float64{3, 4}, []float64{5, 6}, []float64{7, 8})
	masked := mkTable(ab, []float64{2, 3}, []float64{2, 3}, []float64{6, 7}, []float64{6, 7})
	m, _ := Lookup("singling_out")
	r := m.Eval(&Input{Orig: orig, Masked: masked, Opt: Options{Attack: AttackOptions{Aux: ab}}})
	if r.Value != 0 || r.Aux["n_attacks"] != 0 || r.Aux["ci_high"] != 0 || len(r.Notes) == 0 {
		t.Errorf("got %v", r)
	}
}
