package microagg_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestMDAVReference checks docs/microaggregation.md §6.1: sdcMicro 5.8.1's mdav and the
// literature, sse_sst to 4 decimals.
func TestMDAVReference(t *testing.T) {
	want := map[string][4]float64{
		"tarragona": {16.9326, 19.5460, 22.4619, 33.1929},
		"census":    {5.6922, 7.4947, 9.0884, 14.1559},
		"eia":       {0.4829, 0.6713, 1.6667, 3.8397},
		"eia10":     {0.5919, 0.8120, 1.5877, 3.2699},
	}
	m, err := methods.Lookup("mdav")
	if err != nil {
		t.Fatal(err)
	}
	for name, vals := range want {
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range []int{3, 4, 5, 10} {
			t.Run(fmt.Sprintf("%s/k=%d", name, k), func(t *testing.T) {
				p, err := m.Info().Resolve(map[string]string{"k": fmt.Sprint(k)})
				if err != nil {
					t.Fatal(err)
				}
				rel, err := m.Protect(context.Background(), d, p, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := metrics.SSESST(&metrics.Input{Orig: d, Masked: rel.Masked}).Value
				if r := math.Round(got*1e4) / 1e4; r != vals[i] {
					t.Errorf("sse_sst = %.6f, want %.4f", got, vals[i])
				}
				checkSizes(t, rel.Labels, k)
			})
		}
	}
}

func checkSizes(t *testing.T, labels []int32, k int) {
	t.Helper()
	for g, s := range microagg.GroupSizes(labels) {
		if s < k || s > 2*k-1 {
			t.Fatalf("group %d has %d records, want %d..%d", g, s, k, 2*k-1)
		}
	}
}
