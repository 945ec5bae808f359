package metrics_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

func scaleBy(d *datasets.Dataset, k int) *datasets.Dataset {
	out := make([]float64, len(d.Data))
	for i, v := range d.Data {
		out[i] = math.Ldexp(v, k)
	}
	return datasets.New(d.Name, d.Names, d.N, d.P, out)
}

// TestMetricsExtremeMagnitudes is issue 14 item 1 for the metrics: the scale-free metrics of
// the census and its MDAV release are the same, to the last bit, when both tables are
// multiplied by 2^1000 (values near 1e306, whose squares overflow) or 2^−1000 (values near
// 1e−296, whose squares underflow); and the release of a table compared with itself is a
// perfect release (sse_sst 0), not NaN.
func TestMetricsExtremeMagnitudes(t *testing.T) {
	d, err := datasets.Load("census")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := methods.Lookup("mdav")
	p, _ := m.Info().Resolve(nil)
	rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"sse_sst", "il1s", "il1s_rel", "il1s_sum_sdc", "il1rel", "il1rel_sum_sdc", "dld", "dbrl", "prl",
		"eigen", "il3", "pil", "gini_diff", "interval_disclosure", "id_rank", "sdid"}
	for _, id := range ids {
		mt, err := metrics.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		want := mt.Eval(&metrics.Input{Orig: d, Masked: rel.Masked}).Value
		if math.IsNaN(want) {
			t.Fatalf("%s: NaN on the census itself", id)
		}
		for _, k := range []int{1000, -1000} {
			got := mt.Eval(&metrics.Input{Orig: scaleBy(d, k), Masked: scaleBy(rel.Masked, k)}).Value
			if got != want {
				t.Errorf("%s ×2^%d: %v, want %v (the census value)", id, k, got, want)
			}
		}
	}
	huge := scaleBy(d, 1000)
	for _, c := range []struct {
		id   string
		want float64
	}{{"sse_sst", 0}, {"il1s", 0}, {"dld", 100}, {"eigen", 0}, {"il3", 0}} {
		mt, _ := metrics.Lookup(c.id)
		if got := mt.Eval(&metrics.Input{Orig: huge, Masked: huge}).Value; got != c.want {
			t.Errorf("%s of a 1e306 table against itself: %v, want %v", c.id, got, c.want)
		}
	}
}
