package dfo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
	"github.com/sdcbench/sdcbench/metrics"
)

// randomTable returns n×d normal data with a few duplicated rows and outliers.
func randomTable(rng *rand.Rand, n, d int) []float64 {
	z := make([]float64, n*d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	for t := 0; t < n/10; t++ { // duplicates
		i, j := rng.IntN(n), rng.IntN(n)
		copy(z[i*d:(i+1)*d], z[j*d:(j+1)*d])
	}
	for t := 0; t < n/20; t++ { // outliers
		z[rng.IntN(n)*d] *= 8
	}
	return z
}

func naiveSBM(p *Partition, minSize, maxSize int, tol float64) int {
	moves := 0
	for {
		i, b, _ := naiveBest(p, minSize, maxSize, tol)
		if i < 0 {
			return moves
		}
		p.Move(i, b)
		moves++
	}
}

// SBM with its cached targets must make exactly the moves of the naive full scan.
func TestSBMEqualsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for c := 0; c < 12; c++ {
		n, d, k := 30+rng.IntN(90), 1+rng.IntN(4), 2+rng.IntN(3)
		z := randomTable(rng, n, d)
		G := n / k
		start := RandomStart(n, G, rng)
		for _, lim := range [][2]int{{1, 0}, {k, 0}, {k, 2*k - 1}} {
			a, b := NewPartition(z, n, d, start, G), NewPartition(z, n, d, start, G)
			l := Local{Tol: 1e-12 * totalSS(z, n, d)}
			ma := l.SBM(a, lim[0], lim[1])
			mb := naiveSBM(b, lim[0], lim[1], l.Tol)
			if ma != mb || !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("case %d (n=%d d=%d k=%d sizes %v): SBM %d moves, naive %d; labels equal %v",
					c, n, d, k, lim, ma, mb, slices.Equal(a.Labels, b.Labels))
			}
		}
	}
}

// Repair, the Strategy-II surrogates, BR, WarmStart and Polish on random data (§12.7).
func TestLocalSearchProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1))
	for c := 0; c < 20; c++ {
		n, d, k := 20+rng.IntN(150), 1+rng.IntN(5), 2+rng.IntN(4)
		z := randomTable(rng, n, d)
		gmin, gmax := Bounds(n, k)
		G := gmin + rng.IntN(gmax-gmin+1)
		l := Local{Tol: 1e-12 * totalSS(z, n, d)}
		name := fmt.Sprintf("case %d (n=%d d=%d k=%d G=%d)", c, n, d, k, G)

		p := NewPartition(z, n, d, KMeansPP(z, n, d, G, rng), G)
		if _, err := l.Repair(p, k); err != nil || !p.Feasible(k) || p.G() != G {
			t.Fatalf("%s: Repair: %v, min size %d", name, err, p.MinSize())
		}
		for _, s := range []string{"hmkm", "sbm", "br", "br+sbm", "sbm+br-I", "br-I",
			"hmkm/end", "hmkm/sweep", "hmkm/stop", "hmkm/sweep/stop", "br+sbm/end"} {
			sur, err := parseReading(s)
			if err != nil {
				t.Fatal(err)
			}
			in := p.Clone()
			q, err := l.Improve(sur, in, k)
			if err != nil || !q.Feasible(k) || q.G() != G {
				t.Fatalf("%s: %s: %v, min size %d", name, s, err, q.MinSize())
			}
			if q.SSE() > p.SSE()*(1+1e-12) {
				t.Errorf("%s: %s raised SSE %v → %v", name, s, p.SSE(), q.SSE())
			}
		}
		u := p.Clone()
		before := u.SSE()
		l.BR(u, 0, 0)
		if u.SSE() > before*(1+1e-12) {
			t.Errorf("%s: BR raised SSE", name)
		}
		for _, g2 := range []int{gmin, gmax, (gmin + gmax) / 2} {
			w, err := l.WarmStart(p, g2, k)
			if err != nil || w.G() != g2 || !w.Feasible(k) {
				t.Fatalf("%s: WarmStart to %d: %v, G %d, min size %d", name, g2, err, w.G(), w.MinSize())
			}
		}
		nn := Neighbours(z, n, d, polishNeighbours(k))
		mdav, _ := microagg.MDAV(context.Background(), z, n, d, k, 1)
		m := NewPartition(z, n, d, mdav, len(microagg.GroupSizes(mdav)))
		before = m.SSE()
		l.Polish(m, k, nn, 0)
		if m.SSE() > before*(1+1e-12) || m.MinSize() < k || m.MaxSize() > 2*k-1 {
			t.Errorf("%s: Polish: SSE %v → %v, sizes %d..%d", name, before, m.SSE(), m.MinSize(), m.MaxSize())
		}
	}
}

// Run returns a feasible partition with k..2k−1 records per group, IL ≤ IL_start and
// ≥ sse_sst_lb, a G in range, and the same labels for the same seed.
func TestRunProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for c := 0; c < 6; c++ {
		n, d, k := 30+rng.IntN(200), 1+rng.IntN(5), 2+rng.IntN(4)
		z := randomTable(rng, n, d)
		ds := datasets.New("r", make([]string, d), n, d, z)
		lb := metrics.SSESSTLowerBound(&metrics.Input{Orig: ds, Masked: ds, Opt: metrics.Options{K: k, Standardize: "none"}}).Value
		mdav, _ := microagg.MDAV(context.Background(), z, n, d, k, 1)
		for _, cfg := range []Config{
			{K: k},
			{K: k, Init: InitWarm},
			{K: k, FreshF0: true},
			{K: k, FreshF0: true, Init: InitWarm, NoRefine: true},
			{K: k, Init: InitKMeansPP},
			{K: k, Surrogate: Surrogate{Repair: RepairEnd}},
			{K: k, Surrogate: Surrogate{HMIter: HMSweep}},
			{K: k, Surrogate: Surrogate{OnFail: FailStop}},
			{K: k, Surrogate: Surrogate{HMIter: HMSweep, OnFail: FailStop}},
			{K: k, Gamma0: 3, GammaMode: GammaReal, NoRefine: true},
			{K: k, Init: InitKMeansPP, Restarts: 2, FinalRerun: true},
			{K: k, Init: InitRandom, Polish: PolishEvery},
			{K: k, Scan: true, ScanStep: 3, Polish: PolishFinal},
			{K: k, Surrogate: Surrogate{Stages: []Base{BR, SBM}, Strategy: StrategyI}},
		} {
			name := fmt.Sprintf("case %d (n=%d d=%d k=%d) %+v", c, n, d, k, cfg)
			run := func() *Result {
				res, err := Run(context.Background(), z, n, d, mdav, cfg, rand.New(rand.NewPCG(uint64(c), 9)))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return res
			}
			res := run()
			sizes := microagg.GroupSizes(res.Labels)
			if slices.Min(sizes) < k || slices.Max(sizes) > 2*k-1 {
				t.Errorf("%s: sizes %d..%d", name, slices.Min(sizes), slices.Max(sizes))
			}
			if res.SseSst > res.ILStart*(1+1e-12) {
				t.Errorf("%s: IL %v > start %v", name, res.SseSst, res.ILStart)
			}
			if res.SseSst < lb*(1-1e-9) {
				t.Errorf("%s: IL %v below the lower bound %v", name, res.SseSst, lb)
			}
			lo := (n + 2*k - 2) / (2*k - 1)
			if res.Groups < lo || res.Groups > n/k || res.G < res.Gmin || res.G > res.Gmax {
				t.Errorf("%s: groups %d, G* %d outside the ranges", name, res.Groups, res.G)
			}
			if again := run(); !slices.Equal(again.Labels, res.Labels) || again.NEvals != res.NEvals {
				t.Errorf("%s: not deterministic", name)
			}
		}
	}
}

// parseReading reads a surrogate name followed by optional "/end", "/sweep" and "/stop".
func parseReading(s string) (Surrogate, error) {
	parts := strings.Split(s, "/")
	sur, err := ParseSurrogate(parts[0])
	for _, f := range parts[1:] {
		switch f {
		case "end":
			sur.Repair = RepairEnd
		case "sweep":
			sur.HMIter = HMSweep
		case "stop":
			sur.OnFail = FailStop
		}
	}
	return sur, err
}

// naiveHMEvery is hmEvery with full scans: the best unconstrained move, the cheapest refill,
// and the best restricted move on failure.
func naiveHMEvery(p *Partition, k int, fail OnFail, tol float64) {
	for {
		i, b, d := naiveBest(p, 1, 0, tol)
		if i < 0 {
			return
		}
		a := int(p.Labels[i])
		p.Move(i, b)
		if p.Size[a] >= k {
			continue
		}
		if j, dj := cheapestDonor(p, a, k); j >= 0 && d+dj < -tol {
			p.Move(j, a)
			continue
		}
		p.Move(i, a)
		if fail == FailRestrict {
			if r, rb, _ := naiveBest(p, k, 0, tol); r >= 0 {
				p.Move(r, rb)
				continue
			}
		}
		return
	}
}

// hmEvery with its cached targets makes the moves of the naive full scan; its result is
// feasible and never worse than its start, for both failure rules.
func TestHMEveryEqualsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	for c := 0; c < 16; c++ {
		n, d, k := 30+rng.IntN(90), 1+rng.IntN(4), 2+rng.IntN(3)
		z := randomTable(rng, n, d)
		gmin, gmax := Bounds(n, k)
		G := gmin + rng.IntN(gmax-gmin+1)
		start := RandomStart(n, G, rng)
		for _, fail := range []OnFail{FailRestrict, FailStop} {
			a, b := NewPartition(z, n, d, start, G), NewPartition(z, n, d, start, G)
			l := Local{Tol: 1e-12 * totalSS(z, n, d)}
			before := a.SSE()
			l.hmEvery(a, k, fail)
			naiveHMEvery(b, k, fail, l.Tol)
			if !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("case %d (n=%d d=%d k=%d G=%d %v): hmEvery and the naive scan differ", c, n, d, k, G, fail)
			}
			if !a.Feasible(k) || a.SSE() > before*(1+1e-12) {
				t.Errorf("case %d %v: min size %d, SSE %v → %v", c, fail, a.MinSize(), before, a.SSE())
			}
		}
	}
}
