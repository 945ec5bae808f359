package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestTPRAtFPR: the threshold is the (⌊fpr·n⌋+1)-th smallest non-member score; scores
// strictly below it are flagged.
func TestTPRAtFPR(t *testing.T) {
	mem := []float64{-5, -3, -1, 0, 2}
	non := []float64{-2, 0, 1, 3, 4, 5, 6, 7, 8, 9}
	for _, c := range []struct {
		fpr    float64
		tp, fp int
	}{
		{0.01, 2, 0}, // f = 0: threshold −2; −5, −3 flagged
		{0.1, 3, 1},  // f = 1: threshold 0; −5, −3, −1 and non-member −2
		{0.25, 4, 2}, // f = 2: threshold 1; members below 1: −5, −3, −1, 0
		{0.99, 5, 9}, // f = 9: threshold 9
		{1, 5, 10},   // every non-member allowed: all flagged
	} {
		tp, fp := tprAtFPR(mem, non, c.fpr)
		if tp != c.tp || fp != c.fp {
			t.Errorf("fpr %v: tp %d fp %d, want %d %d", c.fpr, tp, fp, c.tp, c.fp)
		}
	}
}

// TestAUCLower: the Mann–Whitney probability that a member scores below a non-member.
func TestAUCLower(t *testing.T) {
	for _, c := range []struct {
		mem, non []float64
		want     float64
	}{
		{[]float64{0, 1}, []float64{2, 3}, 1},
		{[]float64{2, 3}, []float64{0, 1}, 0},
		{[]float64{1}, []float64{1}, 0.5},
		// 0 < 1, 2 (2); 2 vs 1 (0), vs 2 (½) → 2.5/4.
		{[]float64{0, 2}, []float64{1, 2}, 2.5 / 4},
	} {
		if got := aucLower(c.mem, c.non); got != c.want {
			t.Errorf("auc(%v, %v) = %v, want %v", c.mem, c.non, got, c.want)
		}
	}
}

// TestCalibrated: l0 − mean of the shadow log distances.
func TestCalibrated(t *testing.T) {
	for _, c := range []struct {
		l0   float64
		ls   []float64
		want float64
	}{
		{1, nil, 1},
		{1, []float64{3}, -2},
		{1, []float64{2, 4}, -2},
		{1, []float64{0.5, 0.5, 0.5}, 0.5},
		{math.Inf(1), []float64{math.Inf(1), 1}, math.Inf(1)}, // NaN → +Inf
	} {
		if got := calibrated(c.l0, c.ls); got != c.want {
			t.Errorf("calibrated(%v, %v) = %v, want %v", c.l0, c.ls, got, c.want)
		}
	}
}

// gaussTable returns n rows of p independent N(0, 1) columns.
func gaussTable(n, p int, seed uint64) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(seed, 2))
	data := make([]float64, n*p)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	names := make([]string, p)
	for j := range names {
		names[j] = string(rune('a' + j))
	}
	return datasets.New("g", names, n, p, data)
}

// TestMembershipSeparatesReleases: a release that copies its records gives them away (TPR
// 1, AUC 1), with and without shadow releases; a release of independent records does not
// (TPR near the FPR, AUC near ½).
func TestMembershipSeparatesReleases(t *testing.T) {
	orig, ctl := gaussTable(300, 3, 1), gaussTable(300, 3, 2)
	m, _ := Lookup("membership")
	copyShadow := func(ctx context.Context, rows []int, seed uint64) (*datasets.Dataset, error) {
		data := make([]float64, 0, len(rows)*ctl.P)
		for _, i := range rows {
			data = append(data, ctl.Row(i)...)
		}
		return datasets.New("s", ctl.Names, len(rows), ctl.P, data), nil
	}
	freshShadow := func(ctx context.Context, rows []int, seed uint64) (*datasets.Dataset, error) {
		return gaussTable(len(rows), 3, seed), nil
	}
	opt := Options{Attack: AttackOptions{FPR: 0.05, Shadows: 3}}
	noShadow := Options{Attack: AttackOptions{FPR: 0.05, NoShadows: true}}
	for _, c := range []struct {
		name   string
		masked *datasets.Dataset
		shadow ShadowFunc
		opt    Options
		leak   bool
	}{
		{"copy, shadows", orig, copyShadow, opt, true},
		{"copy, no shadows", orig, nil, noShadow, true},
		{"independent, shadows", gaussTable(300, 3, 9), freshShadow, opt, false},
		{"independent, no shadows", gaussTable(300, 3, 9), nil, noShadow, false},
	} {
		r := m.Eval(&Input{Orig: orig, Masked: c.masked, Control: ctl, Shadow: c.shadow, Opt: c.opt})
		if r.Aux["n_members"] != 150 || r.Aux["n_nonmembers"] != 150 {
			t.Errorf("%s: %v members, %v non-members, want 150 each (notes %v)", c.name, r.Aux["n_members"], r.Aux["n_nonmembers"], r.Notes)
		}
		if !(r.Aux["fpr"] <= 0.05) {
			t.Errorf("%s: achieved FPR %v > 0.05", c.name, r.Aux["fpr"])
		}
		if !(r.Aux["ci_low"] <= r.Value && r.Value <= r.Aux["ci_high"]) {
			t.Errorf("%s: TPR %v outside its interval [%v, %v]", c.name, r.Value, r.Aux["ci_low"], r.Aux["ci_high"])
		}
		if c.leak && (r.Value != 1 || r.Aux["auc"] != 1) {
			t.Errorf("%s: TPR %v, AUC %v: want 1 and 1", c.name, r.Value, r.Aux["auc"])
		}
		if !c.leak && (!(r.Aux["ci_low"] < 0.05) || math.Abs(r.Aux["auc"]-0.5) > 0.1) {
			t.Errorf("%s: TPR %v [%v, %v], AUC %v: want an interval reaching below the FPR and AUC near ½",
				c.name, r.Value, r.Aux["ci_low"], r.Aux["ci_high"], r.Aux["auc"])
		}
	}
}

// TestMembershipNeeds: without a control set, or without shadow releases when they are
// asked for, the attack is NaN with a note; it is deterministic.
func TestMembershipNeeds(t *testing.T) {
	orig := gaussTable(50, 2, 1)
	m, _ := Lookup("membership")
	if r := m.Eval(&Input{Orig: orig, Masked: orig}); !math.IsNaN(r.Value) || len(r.Notes) == 0 {
		t.Errorf("no control: %v %v, want NaN and a note", r.Value, r.Notes)
	}
	ctl := gaussTable(50, 2, 2)
	if r := m.Eval(&Input{Orig: orig, Masked: orig, Control: ctl}); !math.IsNaN(r.Value) || len(r.Notes) == 0 {
		t.Errorf("no shadow function: %v %v, want NaN and a note", r.Value, r.Notes)
	}
	var o Options
	for k, v := range map[string]string{"mia_shadows": "0", "mia_fpr": "0.1"} {
		if err := o.SetOption(k, v); err != nil {
			t.Fatal(err)
		}
	}
	rel := gaussTable(50, 2, 3)
	a := m.Eval(&Input{Orig: orig, Masked: rel, Control: ctl, Opt: o})
	b := m.Eval(&Input{Orig: orig, Masked: rel.Clone(), Control: ctl, Opt: o})
	if math.IsNaN(a.Value) || a.Value != b.Value || a.Aux["auc"] != b.Aux["auc"] || a.Aux["shadows"] != 0 {
		t.Errorf("not deterministic or NaN: %v vs %v", a, b)
	}
	for _, kv := range [][2]string{{"mia_shadows", "-1"}, {"mia_fpr", "0"}, {"mia_fpr", "1"}} {
		if err := o.SetOption(kv[0], kv[1]); err == nil {
			t.Errorf("%s = %s accepted", kv[0], kv[1])
		}
	}
}
