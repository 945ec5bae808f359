package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/diag"
)

// fcrm-ipso §7.4: the PIL primitive.
func TestPILTermFCRMVector(t *testing.T) {
	if got, want := pilTerm(10, 12, 4), 0.682689492137; math.Abs(got-want) > 1e-12 {
		t.Errorf("pilTerm(10, 12, 4) = %.12f, want %.12f", got, want)
	}
}

// pil_kde equals pil with Opt.PILQDensity "kde"; score_kde = (pil_kde + dr)/2 exactly; the
// FCRM diagnostics read Info and are NaN without it.
func TestFCRMMetrics(t *testing.T) {
	x := table([]string{"a", "b"}, []float64{1, 2}, []float64{2, 1}, []float64{3, 5}, []float64{4, 3},
		[]float64{5, 4}, []float64{6, 7}, []float64{7, 6}, []float64{8, 9})
	m := x.Clone()
	for i := range m.Data {
		m.Data[i] += 0.3 * float64(i%3)
	}
	in := &Input{Orig: x, Masked: m, Diag: diag.Diagnostics{FCRM: &diag.FCRM{Iters: 30, LastDelta: 0.25}}}
	kde := PIL(&Input{Orig: x, Masked: m, Opt: Options{PILQDensity: "kde"}})
	lookup := func(id string) Result {
		mm, err := Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		return mm.Eval(in)
	}
	if got := lookup("pil_kde"); got.Value != kde.Value || got.Aux["q"] != kde.Aux["q"] {
		t.Errorf("pil_kde %v, want %v", got.Value, kde.Value)
	}
	if got, want := lookup("score_kde").Value, (kde.Value+lookup("dr").Value)/2; got != want {
		t.Errorf("score_kde %v, want %v", got, want)
	}
	if got := lookup("fcrm_iters").Value; got != 30 {
		t.Errorf("fcrm_iters %v", got)
	}
	if got := lookup("fcrm_last_delta").Value; got != 0.25 {
		t.Errorf("fcrm_last_delta %v", got)
	}
	if m, _ := Lookup("fcrm_objective"); !math.IsNaN(m.Eval(&Input{Orig: x, Masked: x}).Value) {
		t.Error("fcrm_objective of a release without FCRM diagnostics is not NaN")
	}
	if got, want := lookup("dbrl_sets").Value, lookup("dbrl").Value; got != want {
		t.Errorf("dbrl_sets %v != dbrl %v", got, want)
	}
}
