package metrics

import (
	"math"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
)

func TestEvaluate(t *testing.T) {
	d := mkTable([]string{"a", "b"}, []float64{1, 2}, []float64{3, 5}, []float64{4, 4})
	v, err := Evaluate(d, d, "sse_sst", "dld")
	if err != nil || v["sse_sst"] != 0 || v["dld"] != 100 {
		t.Errorf("Evaluate(d, d) = %v, %v; want sse_sst 0, dld 100", v, err)
	}
	if _, err := Evaluate(d, d, "sse_sts"); err == nil || !strings.Contains(err.Error(), `did you mean "sse_sst"`) {
		t.Errorf("misspelled ID: %v", err)
	}
	short := datasets.New("s", []string{"a", "b"}, 1, 2, []float64{1, 2})
	if _, err := Evaluate(d, short, "sse_sst"); err == nil {
		t.Error("shape mismatch: no error")
	}
	in := &Input{Orig: d, Masked: short, Opt: Options{Attack: AttackOptions{Aux: []string{"a"}}}}
	if v, err := in.Evaluate("inference"); err != nil || math.IsNaN(v["inference_n_attacks"]) {
		t.Errorf("attack on a shorter release: %v, %v", v, err)
	}
}

func TestAuditMetric(t *testing.T) {
	d := mkTable([]string{"y"}, []float64{0}, []float64{1})
	m, _ := Lookup("audit_eps_lb")
	r := m.Eval(&Input{Orig: d, Masked: d, Diag: diag.Diagnostics{Audit: &diag.Audit{EpsLB: 0.9, EpsClaimed: 1.0,
		EpsPair: 1.0, EpsHat: 1.02, TPR: 0.73, FPR: 0.27, Trials: 500}}})
	if r.Value != 0.9 || r.Aux["claimed"] != 1 || r.Aux["fpr"] != 0.27 || r.Aux["trials"] != 500 {
		t.Errorf("audit_eps_lb = %v", r)
	}
	if r := m.Eval(&Input{Orig: d, Masked: d}); !math.IsNaN(r.Value) {
		t.Errorf("not an audit release: %v", r.Value)
	}
}
