package metrics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// table21 returns MAGGA study Table 2.1 and its exact group-mean release for the partition
// {1,2,8},{3,6,7},{4,5,9} (metrics.md §7.1).
func table21() (orig, masked *datasets.Dataset, labels []int32) {
	x := []float64{24, 21000, 31, 19500, 32, 22000, 57, 43480, 49, 39220, 43, 32285, 39, 40500, 20, 20000, 51, 43050}
	labels = []int32{0, 0, 1, 2, 2, 1, 1, 0, 2}
	var sum [3][2]float64
	for i, l := range labels {
		sum[l][0] += x[2*i]
		sum[l][1] += x[2*i+1]
	}
	m := make([]float64, len(x))
	for i, l := range labels {
		m[2*i], m[2*i+1] = sum[l][0]/3, sum[l][1]/3
	}
	names := []string{"age", "income"}
	return datasets.New("t21", names, 9, 2, x), datasets.New("t21m", names, 9, 2, m), labels
}

// tiny72 returns the 6×3 release of metrics.md §7.2.
func tiny72() (orig, masked *datasets.Dataset) {
	names := []string{"a", "b", "c"}
	x := []float64{10, 2.0, 100, 12, 3.5, 90, 15, 1.0, 120, 9, 4.0, 80, 20, 2.5, 110, 14, 3.0, 95}
	y := []float64{10.1, 2.03, 100.4, 11.0, 3.50, 90, 15.1, 1.20, 118, 9.0, 3.90, 84, 20.1, 2.52, 110.3, 14.3, 3.00, 95.5}
	return datasets.New("x", names, 6, 3, x), datasets.New("y", names, 6, 3, y)
}

func near(got, want float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-12
	}
	return math.Abs(got-want) <= 1e-9*math.Abs(want)
}

func TestCoreVectors(t *testing.T) {
	o21, m21, l21 := table21()
	o72, m72 := tiny72()
	for _, c := range []struct {
		name string
		in   *metrics.Input
		f    func(*metrics.Input) metrics.Result
		want float64
	}{
		// metrics.md §7.1
		{"7.1 sse_sst z", &metrics.Input{Orig: o21, Masked: m21}, metrics.SSESST, 16.4855756738},
		{"7.1 sse_sst raw", &metrics.Input{Orig: o21, Masked: m21, Opt: metrics.Options{Standardize: "none"}}, metrics.SSESST, 20.5774579786},
		{"7.1 il1s", &metrics.Input{Orig: o21, Masked: m21}, metrics.IL1s, 0.201049021023},
		{"7.1 dld", &metrics.Input{Orig: o21, Masked: m21}, metrics.DLD, 33.3333333333},
		{"7.1 dld with labels", &metrics.Input{Orig: o21, Masked: m21, Labels: l21}, metrics.DLD, 33.3333333333},
		{"7.1 dld raw", &metrics.Input{Orig: o21, Masked: m21, Opt: metrics.Options{Standardize: "none"}}, metrics.DLD, 33.3333333333},
		{"7.1 interval k=0.05", &metrics.Input{Orig: o21, Masked: m21}, metrics.IntervalDisclosure, 0},
		{"7.1 interval k=0.1", &metrics.Input{Orig: o21, Masked: m21, Opt: metrics.Options{IntervalK: 0.1}}, metrics.IntervalDisclosure, 11.1111111111},
		{"7.1 interval k=0.5", &metrics.Input{Orig: o21, Masked: m21, Opt: metrics.Options{IntervalK: 0.5}}, metrics.IntervalDisclosure, 66.6666666667},
		// metrics.md §7.2
		{"7.2 il1s", &metrics.Input{Orig: o72, Masked: m72}, metrics.IL1s, 0.0483036122470203},
		{"7.2 sse_sst z", &metrics.Input{Orig: o72, Masked: m72}, metrics.SSESST, 1.43311884753902},
		{"7.2 sse_sst raw", &metrics.Input{Orig: o72, Masked: m72, Opt: metrics.Options{Standardize: "none"}}, metrics.SSESST, 1.95943037974684},
		{"7.2 interval k=0.05", &metrics.Input{Orig: o72, Masked: m72}, metrics.IntervalDisclosure, 33.3333333333},
		{"7.2 interval k=0.1", &metrics.Input{Orig: o72, Masked: m72, Opt: metrics.Options{IntervalK: 0.1}}, metrics.IntervalDisclosure, 50},
		{"7.2 dld", &metrics.Input{Orig: o72, Masked: m72}, metrics.DLD, 100},
	} {
		// metrics.md §0.5: relative 1e-9, absolute 1e-12 near 0
		if got := c.f(c.in).Value; !near(got, c.want) {
			t.Errorf("%s = %.12g, want %.12g", c.name, got, c.want)
		}
	}
}

// TestIntervalConstantColumn: metrics.md §7.2, a constant column d = 7 added to X and X'
// leaves interval_disclosure at 33.33 (degenerate interval, x = x').
func TestIntervalConstantColumn(t *testing.T) {
	o, m := tiny72()
	add := func(d *datasets.Dataset) *datasets.Dataset {
		out := make([]float64, 0, d.N*4)
		for i := 0; i < d.N; i++ {
			out = append(append(out, d.Row(i)...), 7)
		}
		return datasets.New(d.Name, []string{"a", "b", "c", "d"}, d.N, 4, out)
	}
	got := metrics.IntervalDisclosure(&metrics.Input{Orig: add(o), Masked: add(m)}).Value
	if !near(got, 33.3333333333333) {
		t.Errorf("interval_disclosure = %v", got)
	}
	// Constant columns are excluded from sse_sst and il1s, with a note.
	r := metrics.SSESST(&metrics.Input{Orig: add(o), Masked: add(m)})
	if !near(r.Value, 1.43311884753902) || len(r.Notes) != 1 {
		t.Errorf("sse_sst with a constant column = %v, notes %v", r.Value, r.Notes)
	}
}

func TestEdgeCasesNaN(t *testing.T) {
	one := datasets.New("one", []string{"a"}, 1, 1, []float64{3})
	allConst := datasets.New("c", []string{"a", "b"}, 3, 2, []float64{1, 2, 1, 2, 1, 2})
	for _, in := range []*metrics.Input{{Orig: one, Masked: one}, {Orig: allConst, Masked: allConst}} {
		for _, f := range []func(*metrics.Input) metrics.Result{metrics.SSESST, metrics.IL1s} {
			if v := f(in).Value; !math.IsNaN(v) {
				t.Errorf("%s: got %v, want NaN", in.Orig.Name, v)
			}
		}
	}
}

// TestDLDProperties: the fast grouped DLD equals the brute-force definition, and for a
// k-microaggregation DLD ≤ 100·G/n.
func TestDLDProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		n, p, k := 20+rng.IntN(200), 1+rng.IntN(4), 2+rng.IntN(4)
		x := make([]float64, n*p)
		for i := range x {
			x[i] = math.Round(rng.NormFloat64() * 3)
		}
		// groups of k consecutive records (last absorbs the remainder), group means
		labels := make([]int32, n)
		for i := range labels {
			labels[i] = int32(min(i/k, n/k-1))
		}
		G := n / k
		sums := make([]float64, G*p)
		cnt := make([]float64, G)
		for i, l := range labels {
			cnt[l]++
			for j := 0; j < p; j++ {
				sums[int(l)*p+j] += x[i*p+j]
			}
		}
		m := make([]float64, n*p)
		for i, l := range labels {
			for j := 0; j < p; j++ {
				m[i*p+j] = sums[int(l)*p+j] / cnt[l]
			}
		}
		names := make([]string, p)
		for j := range names {
			names[j] = string(rune('a' + j))
		}
		in := &metrics.Input{Orig: datasets.New("x", names, n, p, x), Masked: datasets.New("m", names, n, p, m)}
		got := metrics.DLD(in).Value
		z, zm := in.Z()
		hits := 0
		for j := 0; j < n; j++ {
			if metrics.NearestRow(z, n, p, zm[j*p:(j+1)*p]) == j {
				hits++
			}
		}
		if want := 100 * float64(hits) / float64(n); got != want {
			t.Fatalf("trial %d: fast dld %v, brute force %v", trial, got, want)
		}
		if got > 100*float64(G)/float64(n)+1e-12 {
			t.Fatalf("trial %d: dld %v > 100·G/n = %v", trial, got, 100*float64(G)/float64(n))
		}
	}
}

// TestRowOrderInvariance: permuting the records of X and X' alike changes no core metric.
func TestRowOrderInvariance(t *testing.T) {
	o, m := tiny72()
	perm := []int{3, 0, 5, 1, 4, 2}
	po, pm := o.Clone(), m.Clone()
	for i, j := range perm {
		copy(po.Row(i), o.Row(j))
		copy(pm.Row(i), m.Row(j))
	}
	for _, f := range []func(*metrics.Input) metrics.Result{metrics.SSESST, metrics.IL1s, metrics.DLD, metrics.IntervalDisclosure} {
		a := f(&metrics.Input{Orig: o, Masked: m}).Value
		b := f(&metrics.Input{Orig: po, Masked: pm}).Value
		if math.Abs(a-b) > 1e-12*math.Abs(a) {
			t.Errorf("metric changed under row permutation: %v vs %v", a, b)
		}
	}
}

func TestRegistry(t *testing.T) {
	for _, id := range []string{"sse_sst", "il1s", "dld", "interval_disclosure"} {
		m, err := metrics.Lookup(id)
		if err != nil || m.Info().ID != id || m.Info().Description == "" {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := metrics.Lookup("nope"); err == nil {
		t.Error("unknown metric accepted")
	}
}

// TestNearestIndex: the sorted-projection search equals the brute-force scan, ties included.
func TestNearestIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	for trial := 0; trial < 200; trial++ {
		n, p := 1+rng.IntN(300), 1+rng.IntN(5)
		z := make([]float64, n*p)
		for i := range z {
			z[i] = math.Round(rng.NormFloat64()*2) / 2 // many exact ties
		}
		idx := metrics.NewNearestIndex(z, n, p)
		q := make([]float64, p)
		for k := 0; k < 50; k++ {
			if k%2 == 0 {
				copy(q, z[rng.IntN(n)*p:])
			} else {
				for j := range q {
					q[j] = math.Round(rng.NormFloat64()*4) / 4
				}
			}
			if a, b := idx.Nearest(q), metrics.NearestRow(z, n, p, q); a != b {
				t.Fatalf("trial %d: index %d, scan %d", trial, a, b)
			}
		}
	}
}
