package magga

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// randomData returns n×d data with duplicated rows and a heavy-tailed column, so that exact
// distance ties occur.
func randomData(rng *rand.Rand, n, d int) *datasets.Dataset {
	x := make([]float64, n*d)
	names := make([]string, d)
	for l := range names {
		names[l] = fmt.Sprint("v", l)
	}
	for i := range n {
		if i > 0 && rng.IntN(5) == 0 { // duplicate an earlier row
			j := rng.IntN(i)
			copy(x[i*d:(i+1)*d], x[j*d:(j+1)*d])
			continue
		}
		for l := range d {
			v := math.Round(rng.NormFloat64() * 3)
			if l == 0 {
				v = math.Round(math.Exp(rng.NormFloat64() * 2))
			}
			x[i*d+l] = v
		}
	}
	x[0], x[d] = 1, 2 // no constant column
	return datasets.New("random", names, n, d, x)
}

// decodeRandom returns a random feasible partition (Decoder 1) of n records.
func decodeRandom(rng *rand.Rand, n, k int) ([]int32, int) {
	u := make([]float64, n)
	Keys(u, rng)
	labels := make([]int32, n)
	var s decodeScratch
	Decode1(labels, u, k, &s)
	return labels, len(s.sizes)
}

// TestEvaluateMatchesMetrics checks the fast evaluator against the metrics package (the
// per-record definitions) on random and TSP-like partitions of data with duplicate rows.
func TestEvaluateMatchesMetrics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	all := [numMetrics]bool{true, true, true, true, true}
	for trial := range 40 {
		n, d, k := 20+rng.IntN(200), 1+rng.IntN(6), 2+rng.IntN(4)
		if n < 2*k {
			continue
		}
		x := randomData(rng, n, d)
		pr := NewProblem(x, k, true)
		s := pr.NewScratch()
		var labels []int32
		var G int
		if trial%2 == 0 {
			labels, G = decodeRandom(rng, n, k)
		} else {
			order, edges := microagg.FarthestInsertion(pr.Z, n, d, rng.IntN(n))
			labels = make([]int32, n)
			G = len(TSPIndividual(labels, NewTour(order, edges), k, nil, rng))
		}
		v := pr.Evaluate(labels, G, &all, s)
		canon := microagg.Canonical(labels)
		in := &metrics.Input{Orig: x, Masked: microagg.Aggregate(x, canon), Labels: canon}
		for _, c := range []struct {
			m    Metric
			f    func(*metrics.Input) metrics.Result
			rtol float64
		}{
			{SSESST, metrics.SSESST, 0}, {DLD, metrics.DLD, 0}, {IL1s, metrics.IL1s, 1e-12},
			{IL3, metrics.IL3, 1e-9}, {IL3Code, metrics.IL3Code, 1e-9},
		} {
			want := c.f(in).Value
			if math.Abs(v[c.m]-want) > c.rtol*math.Abs(want) && !(math.IsNaN(want) && math.IsNaN(v[c.m])) {
				t.Errorf("trial %d (n=%d d=%d k=%d): %s = %.15g, metrics %.15g", trial, n, d, k, c.m, v[c.m], want)
			}
		}
		// the per-record brute force of metrics.md §3.1, with its own masked z'
		_, zm := in.Z()
		z, _ := in.Z()
		linked := 0
		for j := range n {
			if metrics.NearestRow(z, n, d, zm[j*d:(j+1)*d]) == j {
				linked++
			}
		}
		if want := 100 * float64(linked) / float64(n); v[DLD] != want {
			t.Errorf("trial %d: dld %v, brute force %v", trial, v[DLD], want)
		}
	}
}

// TestFeasibility checks the invariant of spec §3 for every generated, crossed and repaired
// individual over random n, k and seeds, with both repair picks.
func TestFeasibility(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		k := 2 + rng.IntN(9)
		n := 2*k + rng.IntN(300)
		d := 1 + rng.IntN(4)
		x := randomData(rng, n, d)
		pr := NewProblem(x, k, true)
		order, edges := microagg.FarthestInsertion(pr.Z, n, d, rng.IntN(n))
		tr := NewTour(order, edges)
		var ds decodeScratch
		var rs repairScratch
		u := make([]float64, n)
		pool := [][]int32{}
		for g := range 3 {
			for range 5 {
				labels := make([]int32, n)
				switch Generator(g) {
				case GenTSP:
					TSPIndividual(labels, tr, k, nil, rng)
				case GenD1:
					Keys(u, rng)
					Decode1(labels, u, k, &ds)
				case GenD2:
					Keys(u, rng)
					Decode2(labels, u, k, &ds)
				}
				if _, err := Feasible(labels, k); err != nil {
					t.Fatalf("trial %d n=%d k=%d %v: %v", trial, n, k, Generator(g), err)
				}
				pool = append(pool, labels)
			}
		}
		for c := range 30 {
			a, b := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]
			child := make([]int32, n)
			Crossover(child, a, b, 0.5+rng.Float64()/2, rng)
			pick := Pick(c % 2)
			G := Repair(child, pr.Z, d, k, pick, &rs)
			if g, err := Feasible(child, k); err != nil || g != G {
				t.Fatalf("trial %d n=%d k=%d: repaired child G=%d (Repair %d): %v", trial, n, k, g, G, err)
			}
			again := slices.Clone(child)
			if Repair(again, pr.Z, d, k, pick, &rs); !slices.Equal(again, child) {
				t.Fatalf("trial %d: repair of a feasible child changed it", trial)
			}
		}
	}
}

func runCfg(t *testing.T, weights string, workers int) Config {
	obj, err := ParseObjective(weights)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Pop: 30, Gens: 15, Pe: 0.1, Pm: 0.2, RhoE: 0.9, Objective: obj, Workers: workers,
		Init: GenTSP, Mutant: GenD1}
}

// TestDeterminism runs the same seed with 1 and 4 workers and twice with 2: the partitions,
// objective values and traces (timings aside) must agree.
func TestDeterminism(t *testing.T) {
	x := randomData(rand.New(rand.NewPCG(7, 8)), 300, 4)
	pr := NewProblem(x, 3, true)
	var ref *Result
	for i, w := range []int{1, 4, 2, 2} {
		res, err := Run(context.Background(), pr, runCfg(t, "fobj3", w), rand.New(rand.NewPCG(9, 10)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Feasible(res.Labels, 3); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			ref = res
			continue
		}
		if !slices.Equal(res.Labels, ref.Labels) || res.F != ref.F || res.Evals != ref.Evals || res.CacheHits != ref.CacheHits {
			t.Errorf("workers %d: F %v evals %d hits %d, want F %v evals %d hits %d", w, res.F, res.Evals, res.CacheHits, ref.F, ref.Evals, ref.CacheHits)
		}
		for g := range res.Trace {
			a, b := res.Trace[g], ref.Trace[g]
			a.Seconds, b.Seconds = 0, 0
			if a != b {
				t.Errorf("workers %d gen %d: trace %+v, want %+v", w, g, a, b)
			}
		}
	}
	// the best objective never gets worse (elitism) and the reported F is the best's
	for g := 1; g < len(ref.Trace); g++ {
		if ref.Trace[g].Best > ref.Trace[g-1].Best {
			t.Errorf("gen %d: best rose from %v to %v", g, ref.Trace[g-1].Best, ref.Trace[g].Best)
		}
	}
	if last := ref.Trace[len(ref.Trace)-1].Best; math.Abs(last-ref.F) > 1e-9*ref.F {
		t.Errorf("F %v, last trace best %v", ref.F, last)
	}
}

// TestDecoder1Tarragona checks §10 vector 13: over 100 d1 individuals on Tarragona with k = 3,
// mean(sse_sst − 100(n−G)/(n−1)) is within ±1 and the mean dld is ≤ 1.5 %.
func TestDecoder1Tarragona(t *testing.T) {
	x, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	pr := NewProblem(x, 3, true)
	s := pr.NewScratch()
	rng := rand.New(rand.NewPCG(1, 1))
	want := [numMetrics]bool{SSESST: true, DLD: true}
	var dev, dld float64
	n := float64(x.N)
	for range 100 {
		labels, G := decodeRandom(rng, x.N, 3)
		v := pr.Evaluate(labels, G, &want, s)
		dev += v[SSESST] - 100*(n-float64(G))/(n-1)
		dld += v[DLD]
	}
	if dev /= 100; math.Abs(dev) > 1 {
		t.Errorf("mean sse_sst − E = %.3f, want within ±1", dev)
	}
	if dld /= 100; dld > 1.5 {
		t.Errorf("mean dld = %.3f %%, want ≤ 1.5", dld)
	}
}

// TestSmallN covers n ≤ 2k−1 (one group, no search) and the parameter errors of Run.
func TestSmallN(t *testing.T) {
	x := randomData(rand.New(rand.NewPCG(1, 2)), 5, 2)
	pr := NewProblem(x, 3, true)
	res, err := Run(context.Background(), pr, runCfg(t, "fobj1", 1), rand.New(rand.NewPCG(1, 1)))
	if err != nil || res.Status != StatusTrivial || !slices.Equal(res.Labels, make([]int32, 5)) {
		t.Errorf("n=5 k=3: %+v, %v", res, err)
	}
	for _, c := range []Config{
		{Pop: 10, Pe: 0, Pm: 0.2, RhoE: 0.9},
		{Pop: 10, Pe: 0.5, Pm: 0.2, RhoE: 0.9},
		{Pop: 10, Pe: 0.1, Pm: 0.9, RhoE: 0.9},
		{Pop: 10, Pe: 0.1, Pm: 0.2, RhoE: 0.5},
	} {
		c.Objective = runCfg(t, "fobj1", 1).Objective
		if _, err := Run(context.Background(), pr, c, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// TestGroupCache checks that the per-scratch DLD cache never changes an answer: a warm
// scratch (full table) and one whose table has a single slot (every group collides) give the
// same dld as a fresh scratch on a chain of partitions that share most of their groups.
func TestGroupCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	want := [numMetrics]bool{DLD: true}
	for trial := range 20 {
		n, d, k := 30+rng.IntN(150), 1+rng.IntN(5), 2+rng.IntN(4)
		pr := NewProblem(randomData(rng, n, d), k, true)
		warm, tiny := pr.NewScratch(), pr.NewScratch()
		tiny.groups = newGroupCache(2*k-1, 1)
		labels, G := decodeRandom(rng, n, k)
		for step := range 30 {
			if step%10 == 9 {
				labels, G = decodeRandom(rng, n, k)
			} else { // swap two records of different groups: sizes and feasibility are kept
				i, j := rng.IntN(n), rng.IntN(n)
				labels[i], labels[j] = labels[j], labels[i]
			}
			ref := pr.Evaluate(labels, G, &want, pr.NewScratch())[DLD]
			for name, s := range map[string]*Scratch{"warm": warm, "tiny": tiny} {
				if got := pr.Evaluate(labels, G, &want, s)[DLD]; got != ref {
					t.Fatalf("trial %d step %d %s: dld %v, fresh scratch %v", trial, step, name, got, ref)
				}
			}
		}
	}
	c := newGroupCache(3, 4)
	m := []int32{1, 5, 9}
	slot, key, found := c.lookup(m)
	if found {
		t.Fatal("empty cache: found")
	}
	c.store(slot, key, m, true)
	if s, _, found := c.lookup(m); !found || !c.hit[s] {
		t.Error("stored set not found")
	}
	if _, _, found := c.lookup([]int32{1, 5, 8}); found {
		t.Error("different set found")
	}
	c.store(0, 1, []int32{1, 2, 3, 4}, true) // wider than the cache: ignored
	if c.size[0] == 4 {
		t.Error("over-wide set stored")
	}
}

// TestArgsortKeys checks the radix argsort against the comparison order on (u_j, j): random
// keys in [0, 1), keys with many ties, signed values with ±0 and ±Inf, and a NaN.
func TestArgsortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s decodeScratch
	for trial := range 200 {
		n := rng.IntN(300)
		u := make([]float64, n)
		for j := range u {
			switch trial % 4 {
			case 0:
				u[j] = rng.Float64()
			case 1:
				u[j] = float64(rng.IntN(5)) / 4
			case 2:
				u[j] = []float64{-1.5, math.Copysign(0, -1), 0, 2, math.Inf(1), math.Inf(-1), rng.NormFloat64()}[rng.IntN(7)]
			case 3:
				u[j] = rng.NormFloat64()
				if j == n/2 {
					u[j] = math.NaN()
				}
			}
		}
		want := make([]int32, n)
		for j := range want {
			want[j] = int32(j)
		}
		slices.SortFunc(want, func(a, b int32) int {
			if c := cmp.Compare(u[a], u[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		if got := s.argsortKeys(u); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d): argsort %v, want %v", trial, n, got, want)
		}
	}
}
