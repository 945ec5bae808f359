package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

func TestDFOInfoMetrics(t *testing.T) {
	d := datasets.New("t", []string{"a"}, 2, 1, []float64{1, 2})
	info := map[string]any{"il_start": 16.9326, "g0": 278, "g_best": 250, "groups": 251, "n_evals": 12, "cpu_s": 2.5}
	for _, c := range []struct {
		id   string
		want float64
	}{{"il_start", 16.9326}, {"dfo_g0", 278}, {"dfo_g", 250}, {"dfo_groups", 251}, {"dfo_evals", 12}, {"dfo_cpu", 2.5}} {
		m, err := Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Eval(&Input{Orig: d, Masked: d, Info: info}).Value; got != c.want {
			t.Errorf("%s = %v, want %v", c.id, got, c.want)
		}
		if got := m.Eval(&Input{Orig: d, Masked: d}).Value; !math.IsNaN(got) {
			t.Errorf("%s without Info = %v, want NaN", c.id, got)
		}
	}
}
