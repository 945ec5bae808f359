package microagg_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/internal/robust"
	"github.com/sdcbench/sdcbench/methods"
)

// TestRMDMTarragona checks docs/microaggregation.md §6.2: the median sse_sst over 5 rng
// seeds lies within ±0.5 of the range sdcMicro 5.8.1's rmd gives over six R seeds.
func TestRMDMTarragona(t *testing.T) {
	d := load(t, "tarragona")
	ranges := [4][2]float64{{17.32, 17.38}, {19.51, 19.77}, {21.91, 21.95}, {34.78, 34.87}}
	for i, k := range refK {
		t.Run(fmt.Sprint("k=", k), func(t *testing.T) {
			var vals []float64
			for seed := uint64(1); seed <= 5; seed++ {
				rel, v := protect(t, "rmdm", d, map[string]string{"k": fmt.Sprint(k)}, rand.New(rand.NewPCG(seed, seed)))
				assertGroups(t, rel.Labels, d.N, k)
				if rel.Info["mcd_ridge"] != false || rel.Info["mcd_dropped_dims"] != 0 {
					t.Errorf("seed %d: info %v, want no ridge and no dropped dims", seed, rel.Info)
				}
				vals = append(vals, v)
			}
			slices.Sort(vals)
			med := vals[2]
			lo, hi := ranges[i][0]-0.5, ranges[i][1]+0.5
			t.Logf("sse_sst over seeds 1..5: %.4f (sdcMicro %.2f–%.2f)", vals, ranges[i][0], ranges[i][1])
			if med < lo || med > hi {
				t.Errorf("median sse_sst = %.4f, want in [%.2f, %.2f]", med, lo, hi)
			}
		})
	}
}

// TestRMDMSingular checks §2.6 item 4 and §6.2: on Census (PTOTVAL = PEARNVAL + POTHVAL) and
// EIA, singular=error fails with ErrSingularCovariance as sdcMicro does, and auto returns a
// feasible partition.
func TestRMDMSingular(t *testing.T) {
	m, err := methods.Lookup("rmdm")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"census", "eia", "eia10"} {
		d := load(t, name)
		t.Run(name, func(t *testing.T) {
			p, err := m.Info().Resolve(map[string]string{"k": "3", "singular": "error", "mcd_starts": "50"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Protect(t.Context(), d, p, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, robust.ErrSingularCovariance) {
				t.Fatalf("singular=error: err = %v, want ErrSingularCovariance", err)
			}
			t.Logf("singular=error: %v", err)
			rel, v := protect(t, "rmdm", d, map[string]string{"k": "3", "mcd_starts": "50"}, rand.New(rand.NewPCG(1, 1)))
			assertGroups(t, rel.Labels, d.N, 3)
			t.Logf("auto: sse_sst %.4f, info %v", v, rel.Info)
		})
	}
}
