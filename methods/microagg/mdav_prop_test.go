package microagg_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// tableTwoOne is MAGGA study Table 2.1 (docs/microaggregation.md §5 TV-1).
func tableTwoOne() *datasets.Dataset {
	return datasets.New("tv1", []string{"idade", "renda"}, 9, 2, []float64{
		24, 21000, 31, 19500, 32, 22000, 57, 43480, 49, 39220, 43, 32285, 39, 40500, 20, 20000, 51, 43050})
}

func mdavRelease(t *testing.T, name string, d *datasets.Dataset, raw map[string]string) *methods.Release {
	t.Helper()
	m, err := methods.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

func TestMDAVTableTwoOne(t *testing.T) {
	for _, c := range []struct {
		standardize string
		labels      []int32
		sseSST      float64
	}{
		// the seed's example partition {1,2,8},{3,6,7},{4,5,9}
		{"zscore", []int32{0, 0, 1, 2, 2, 1, 1, 0, 2}, 16.4856},
		// raw distances: income dominates (sse_sst then also on raw values)
		{"none", []int32{0, 0, 1, 2, 1, 1, 2, 0, 2}, 17.5004},
	} {
		rel := mdavRelease(t, "mdav", tableTwoOne(), map[string]string{"k": "3", "standardize": c.standardize})
		if !slices.Equal(rel.Labels, c.labels) {
			t.Errorf("%s: labels %v, want %v", c.standardize, rel.Labels, c.labels)
		}
		got := metrics.SSESST(&metrics.Input{Orig: tableTwoOne(), Masked: rel.Masked,
			Opt: metrics.Options{Standardize: c.standardize}}).Value
		if math.Round(got*1e4)/1e4 != c.sseSST {
			t.Errorf("%s: sse_sst %.6f, want %.4f", c.standardize, got, c.sseSST)
		}
	}
	// The masked rows of a group are bit-identical group means in raw units.
	rel := mdavRelease(t, "mdav", tableTwoOne(), map[string]string{"k": "3"})
	if got := rel.Masked.Row(3); got[0] != (57.0+49+51)/3 || got[1] != (43480.0+39220+43050)/3 {
		t.Errorf("group mean of record 3 = %v", got)
	}
}

// TestMDAVProperties checks TV-6: group sizes in [k, 2k−1], canonical labels, and labels that
// do not depend on the number of workers, on random data with injected duplicate rows.
func TestMDAVProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		k := 2 + rng.IntN(6)
		n := 2*k + rng.IntN(300)
		d := 1 + rng.IntN(6)
		z := make([]float64, n*d)
		for i := range z {
			z[i] = math.Round(rng.NormFloat64()*4) / 4 // coarse values make exact ties common
		}
		for dup := 0; dup < n/5; dup++ { // duplicated rows
			a, b := rng.IntN(n), rng.IntN(n)
			copy(z[a*d:(a+1)*d], z[b*d:(b+1)*d])
		}
		l1, err := microagg.MDAV(context.Background(), z, n, d, k, 1)
		if err != nil {
			t.Fatal(err)
		}
		checkSizes(t, l1, k)
		checkCanonical(t, l1)
		l2, _ := microagg.MDAV(context.Background(), z, n, d, k, 3)
		if !slices.Equal(l1, l2) {
			t.Fatalf("trial %d: labels depend on the worker count", trial)
		}
	}
}

// TestMDAVParallelEqualsSerial covers the parallel block path (n above the parallel threshold).
func TestMDAVParallelEqualsSerial(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	n, d := 9000, 4
	z := make([]float64, n*d)
	for i := range z {
		z[i] = math.Round(rng.NormFloat64()*8) / 8
	}
	a, _ := microagg.MDAV(context.Background(), z, n, d, 3, 1)
	b, _ := microagg.MDAV(context.Background(), z, n, d, 3, 2)
	c, _ := microagg.MDAV(context.Background(), z, n, d, 3, 5)
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Fatal("parallel MDAV differs from serial")
	}
	checkSizes(t, a, 3)
}

func TestMDAVCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	z := make([]float64, 1000)
	if _, err := microagg.MDAV(ctx, z, 1000, 1, 3, 1); err == nil {
		t.Fatal("no error from a cancelled context")
	}
}

func TestMDAVValidate(t *testing.T) {
	m, _ := methods.Lookup("mdav")
	small := datasets.New("small", []string{"a"}, 5, 1, []float64{1, 2, 3, 4, 5})
	p, _ := m.Info().Resolve(map[string]string{"k": "3"})
	if err := m.(methods.Validator).Validate(small, p); err == nil {
		t.Error("5 rows at k = 3 accepted")
	}
	for _, bad := range []string{"1", "2.5", "x", "-3"} {
		if _, err := m.Info().Resolve(map[string]string{"k": bad}); err == nil {
			t.Errorf("k=%s accepted", bad)
		}
	}
}

func checkCanonical(t *testing.T, labels []int32) {
	t.Helper()
	next := int32(0)
	for i, l := range labels {
		if l > next {
			t.Fatalf("labels not canonical at record %d: %d before %d", i, l, next)
		}
		if l == next {
			next++
		}
	}
}
