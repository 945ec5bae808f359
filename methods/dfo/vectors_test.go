package dfo

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The hand-checkable vectors of docs/dfo.md (standardize: none, d = 1).

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func part1(x []float64, labels []int32, G int) *Partition {
	return NewPartition(x, len(x), 1, labels, G)
}

// TV-1: the move cost.
func TestVectorMoveCost(t *testing.T) {
	p := part1([]float64{0, 2, 4, 10, 12}, []int32{0, 0, 0, 1, 1}, 2)
	if got, want := p.MoveCost(2, 1), 80.0/3; !near(got, want, 1e-12) {
		t.Errorf("Δ(4, A→B) = %v, want %v", got, want)
	}
	before := p.SSE()
	p.Move(2, 1)
	if !near(before, 10, 1e-12) || !near(p.SSE(), 10+80.0/3, 1e-12) {
		t.Errorf("SSE %v → %v, want 10 → 36.667", before, p.SSE())
	}
}

// TV-2: repair, k = 3, G = 2.
func TestVectorRepair(t *testing.T) {
	p := part1([]float64{0, 1, 2, 3, 4, 20}, []int32{0, 0, 0, 0, 0, 1}, 2)
	for i, want := range []float64{195, 179.25, 162, 143.25, 123} {
		if got := p.MoveCost(i, 1); !near(got, want, 1e-12) {
			t.Errorf("first step: Δ(%d) = %v, want %v", i, got, want)
		}
	}
	var l Local
	moves, err := l.Repair(p, 3)
	if err != nil || moves != 2 {
		t.Fatalf("Repair: %d moves, %v; want 2, nil", moves, err)
	}
	if got := fmt.Sprint(p.Labels); got != "[0 0 0 1 1 1]" {
		t.Errorf("labels %s, want [0 0 0 1 1 1]", got)
	}
	if sse := p.SSE(); !near(sse, 184, 1e-12) || !near(100*sse/totalSS(p.Z, 6, 1), 65.714285714, 1e-9) {
		t.Errorf("SSE %v (sse_sst %v), want 184 (65.714)", sse, 100*sse/280)
	}
}

// TV-3: hmkm (Strategy II), k = 3, G = 2.
func TestVectorHMKM(t *testing.T) {
	x := []float64{0, 1, 2, 6, 7, 8, 9, 30}
	start := []int32{0, 1, 0, 1, 0, 1, 0, 1}
	p := part1(x, start, 2)
	if !near(p.SSE(), 547.75, 1e-12) || !near(totalSS(x, 8, 1), 638.875, 1e-12) {
		t.Fatalf("start SSE %v, SST %v", p.SSE(), totalSS(x, 8, 1))
	}
	// the unconstrained sbm: three moves, to {0..9 | 30}
	q := p.Clone()
	wantDelta := []float64{-7817.0 / 60, -3259.0 / 30, -9635.0 / 42}
	for step, want := range wantDelta {
		bi, bb, bd := naiveBest(q, 1, 0, 0)
		if !near(bd, want, 1e-12) || bb != 0 {
			t.Fatalf("step %d: best move %d→%d Δ=%v, want Δ=%v to group 0", step, bi, bb, bd, want)
		}
		q.Move(bi, bb)
	}
	r := p.Clone()
	var l Local
	if m := l.SBM(r, 1, 0); m != 3 || fmt.Sprint(r.Labels) != fmt.Sprint(q.Labels) {
		t.Fatalf("SBM: %d moves to %v, want 3 to %v", m, r.Labels, q.Labels)
	}
	if !near(r.SSE(), 79.428571428, 1e-9) {
		t.Errorf("after sbm SSE %v, want 79.429", r.SSE())
	}
	// both readings of Strategy II reach the optimum for G = 2 here
	for _, rep := range []RepairMode{RepairEnd, RepairEvery} {
		sur := HMKM
		sur.Repair = rep
		res, err := l.Improve(sur, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Labels); got != "[0 0 0 0 0 1 1 1]" {
			t.Errorf("%v: hmkm labels %s, want [0 0 0 0 0 1 1 1]", rep, got)
		}
		if !near(res.SSE(), 5212.0/15, 1e-12) {
			t.Errorf("%v: hmkm SSE %v, want 347.4667", rep, res.SSE())
		}
		if il := 100 * res.SSE() / 638.875; !near(il, 54.387, 1e-4) {
			t.Errorf("%v: sse_sst %v, want 54.387", rep, il)
		}
	}
}

// TV-4: Algorithm 2 on F′(G) = (G − 23)², Gmin = 10, Gmax = 40, G0 = 40, γ0 = 10.
func TestVectorPatternSearch(t *testing.T) {
	for _, c := range []struct {
		mode   GammaMode
		probes string
		evals  int
	}{
		{GammaInt, "(10,50 out) (10,30 ✓) (20,10 ✗) (20,50 out) (10,40 ✗) (10,20 ✓) (20,0 out) (20,40 ✗) " +
			"(10,30 ✗) (10,10 ✗) (5,25 ✓) (10,35 ✗) (10,15 ✗) (5,30 ✗) (5,20 ✗) (2,27 ✗) (2,23 ✓) " +
			"(4,19 ✗) (4,27 ✗) (2,25 ✗) (2,21 ✗) (1,24 ✗) (1,22 ✗)", 13},
		{GammaReal, "(10,50 out) (10,30 ✓) (20,10 ✗) (20,50 out) (10,40 ✗) (10,20 ✓) (20,0 out) (20,40 ✗) " +
			"(10,30 ✗) (10,10 ✗) (5,25 ✓) (10,35 ✗) (10,15 ✗) (5,30 ✗) (5,20 ✗) (2.5,28 ✗) (2.5,22 ✓) " +
			"(5,17 ✗) (5,27 ✗) (2.5,25 ✗) (2.5,19 ✗) (1.25,23 ✓) (2.5,26 ✗) (2.5,20 ✗) (1.25,24 ✗) (1.25,22 ✗)", 15},
	} {
		f := func(g int) float64 { return float64((g - 23) * (g - 23)) }
		calls := map[int]int{}
		g, probes, evals, err := PatternSearch(40, f(40), 10, 40, 10, c.mode, 0, func(g, _ int) (float64, error) {
			calls[g]++
			return f(g), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, p := range probes {
			if i > 0 {
				b.WriteByte(' ')
			}
			res := "✗"
			switch {
			case p.Out:
				res = "out"
			case p.Accepted:
				res = "✓"
			}
			fmt.Fprintf(&b, "(%g,%d %s)", p.Gamma, p.G, res)
		}
		if b.String() != c.probes {
			t.Errorf("%v: probes\n%s\nwant\n%s", c.mode, b.String(), c.probes)
		}
		if g != 23 || evals != c.evals || len(calls) != c.evals-1 {
			t.Errorf("%v: G = %d, %d evaluations (%d distinct calls); want 23, %d", c.mode, g, evals, len(calls), c.evals)
		}
		for g, n := range calls {
			if n != 1 {
				t.Errorf("%v: F′(%d) evaluated %d times", c.mode, g, n)
			}
		}
	}
}

// naiveBest returns the best move of the naive full scan of §4.2 among moves whose source
// has more than minSize records and, if maxSize > 0, whose target has fewer than maxSize
// (ties: lowest i, then lowest B), with −1 if none is below −tol.
func naiveBest(p *Partition, minSize, maxSize int, tol float64) (int, int, float64) {
	bi, bb, bd := -1, -1, -tol
	for i := 0; i < p.N; i++ {
		a := int(p.Labels[i])
		if p.Size[a] <= max(minSize, 1) {
			continue
		}
		for b := 0; b < p.G(); b++ {
			if b == a || (maxSize > 0 && p.Size[b] >= maxSize) {
				continue
			}
			if v := p.MoveCost(i, b); v < bd {
				bi, bb, bd = i, b, v
			}
		}
	}
	return bi, bb, bd
}
