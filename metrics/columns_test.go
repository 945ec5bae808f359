package metrics

import (
	"math"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// readMixed reads a small CSV table; the columns named in cat are categorical.
func readMixed(t *testing.T, text string, cat ...string) *datasets.Dataset {
	t.Helper()
	d, err := datasets.ReadCSV(strings.NewReader(text), "test", datasets.ReadOptions{Categorical: cat})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEveryMetricDeclaresLabelAndColumns(t *testing.T) {
	for _, in := range List() {
		if in.Label == "" {
			t.Errorf("%s: no Label (add it to the labels table of columns.go)", in.ID)
		}
		if in.Columns == KindUnset {
			t.Errorf("%s: column kind unset", in.ID)
		}
	}
	for id := range columnKinds() {
		if _, err := Lookup(id); err != nil {
			t.Errorf("columnKinds names %s: %v", id, err)
		}
	}
	for id := range labels() {
		if _, err := Lookup(id); err != nil {
			t.Errorf("labels names %s: %v", id, err)
		}
	}
}

func TestAxisLabel(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"sse_sst", "SSE/SST (%), lower is better"},
		{"il1s", "IL1s, lower is better"},
		{"dld", "DLD (%), lower is better"},
		{"ldiv_distinct_min", "Distinct l-diversity min (count), higher is better"},
		{"ind_risk_max", "Individual risk max (fraction), lower is better"},
		{"gini_diff", "Gini difference (percentage points), lower is better"},
		{"bias", "Bias (fraction), closest to 0 is best"},
		{"dfo_cpu", "DFO CPU time (s)"},
	} {
		m, err := Lookup(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Info().AxisLabel(); got != tc.want {
			t.Errorf("%s: AxisLabel = %q, want %q", tc.id, got, tc.want)
		}
	}
}

func TestColumnKinds(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want ColumnKind
	}{
		{"il1s", NumericColumns}, {"dld", NumericColumns}, {"sse_sst", NumericColumns}, {"prl", NumericColumns},
		{"ut1", CategoricalColumns}, {"pram_changed", CategoricalColumns},
		{"kanon_viol_2", AnyColumns}, {"n_suppressed", AnyColumns}, {"dis_suda_mean", AnyColumns},
	} {
		m, _ := Lookup(tc.id)
		if got := m.Info().Columns; got != tc.want {
			t.Errorf("%s: Columns = %v, want %v", tc.id, got, tc.want)
		}
	}
}

// A PRAMed categorical column: the numeric measures do not apply (NaN and a note saying
// why), the categorical ones do.
func TestNumericMeasuresSkipCategoricalCodes(t *testing.T) {
	orig := readMixed(t, "c\n1\n2\n3\n1\n2\n3\n", "c")
	rel := readMixed(t, "c\n3\n2\n1\n1\n2\n3\n", "c")
	in := &Input{Orig: orig, Masked: rel}
	for _, id := range []string{"il1s", "dld", "sse_sst", "interval_disclosure"} {
		m, _ := Lookup(id)
		r := m.Eval(in)
		if !math.IsNaN(r.Value) {
			t.Errorf("%s on category codes = %v, want NaN", id, r.Value)
		}
		want := id + " measures numeric columns; c is categorical"
		if r.NotApplicable != want {
			t.Errorf("%s: NotApplicable = %q, want %q", id, r.NotApplicable, want)
		}
	}
	m, _ := Lookup("pram_changed")
	if r := m.Eval(in); r.Value != 2 || r.NotApplicable != "" {
		t.Errorf("pram_changed = %v (%q), want 2 records changed", r.Value, r.NotApplicable)
	}
	vals, err := Evaluate(orig, rel, "il1s", "pram_changed")
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(vals["il1s"]) || vals["pram_changed"] != 2 {
		t.Errorf("Evaluate = %v, want il1s NaN, pram_changed 2", vals)
	}
	// A numeric release: the categorical measure does not apply.
	num := readMixed(t, "x\n1\n2\n")
	if r := m.Eval(&Input{Orig: num, Masked: num}); r.NotApplicable != "pram_changed measures categorical columns; x is numeric" {
		t.Errorf("pram_changed on numbers: %q", r.NotApplicable)
	}
}

// A mixed release: the numeric measures see the numeric columns only, and equal their value on
// the numeric part alone; a purely numeric release is measured as before.
func TestNumericMeasuresOnMixedRelease(t *testing.T) {
	orig := readMixed(t, "x,c\n1,1\n2,2\n3,3\n4,1\n", "c")
	rel := readMixed(t, "x,c\n2,3\n2,2\n3,1\n4,1\n", "c")
	m, _ := Lookup("il1s")
	r := m.Eval(&Input{Orig: orig, Masked: rel})
	// one cell off by 1 over 4 cells; S = sd(1, 2, 3, 4) = √(5/3)
	want := 1 / (4 * math.Sqrt2 * math.Sqrt(5.0/3))
	if math.Abs(r.Value-want) > 1e-15 {
		t.Errorf("il1s on the mixed release = %v, want %v (numeric column only)", r.Value, want)
	}
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[len(r.Notes)-1], "left out c") {
		t.Errorf("notes %q do not name the column left out", r.Notes)
	}
	numOrig := readMixed(t, "x\n1\n2\n3\n4\n")
	numRel := readMixed(t, "x\n2\n2\n3\n4\n")
	for _, id := range []string{"il1s", "sse_sst", "dld", "interval_disclosure", "id_rank"} {
		m, _ := Lookup(id)
		gated := m.Eval(&Input{Orig: numOrig, Masked: numRel})
		plain := m.(declared).m.Eval(&Input{Orig: numOrig, Masked: numRel})
		if gated.Value != plain.Value && !(math.IsNaN(gated.Value) && math.IsNaN(plain.Value)) {
			t.Errorf("%s on a numeric release: gated %v, ungated %v", id, gated.Value, plain.Value)
		}
		mixed := m.Eval(&Input{Orig: orig, Masked: rel})
		if mixed.Value != plain.Value && !(math.IsNaN(mixed.Value) && math.IsNaN(plain.Value)) {
			t.Errorf("%s on the mixed release = %v, on its numeric part %v", id, mixed.Value, plain.Value)
		}
	}
}
