package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
)

func TestDFOInfoMetrics(t *testing.T) {
	d := datasets.New("t", []string{"a"}, 2, 1, []float64{1, 2})
	info := diag.Diagnostics{Partition: &diag.Partition{K: 3, Groups: 251},
		Search: &diag.Search{ILStart: 16.9326, G0: 278, GBest: 250, Pattern: true, Evals: 12, CPU: 2.5}}
	for _, c := range []struct {
		id   string
		want float64
	}{{"il_start", 16.9326}, {"dfo_g0", 278}, {"dfo_g", 250}, {"dfo_groups", 251}, {"dfo_evals", 12}, {"dfo_cpu", 2.5}} {
		m, err := Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Eval(&Input{Orig: d, Masked: d, Diag: info}).Value; got != c.want {
			t.Errorf("%s = %v, want %v", c.id, got, c.want)
		}
		if got := m.Eval(&Input{Orig: d, Masked: d}).Value; !math.IsNaN(got) {
			t.Errorf("%s without diagnostics = %v, want NaN", c.id, got)
		}
	}
}

// TestDFODiagWithoutPattern: a search that is not DFO's pattern search (hmkm) reports no G0
// and no evaluation count.
func TestDFODiagWithoutPattern(t *testing.T) {
	d := datasets.New("t", []string{"a"}, 2, 1, []float64{1, 2})
	in := &Input{Orig: d, Masked: d, Diag: diag.Diagnostics{Search: &diag.Search{ILStart: 3, GBest: 2, CPU: 1}}}
	for id, nan := range map[string]bool{"il_start": false, "dfo_g": false, "dfo_cpu": false, "dfo_g0": true, "dfo_evals": true, "dfo_groups": true} {
		m, err := Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Eval(in).Value; math.IsNaN(got) != nan {
			t.Errorf("%s = %v", id, got)
		}
	}
}
