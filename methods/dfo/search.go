package dfo

import (
	"math"
	"time"
)

// GammaMode is how Algorithm 2 halves its step (docs/dfo.md).
type GammaMode int

// Step modes.
const (
	// GammaInt: γ is an integer halved by floor division (10→5→2→1→0 stops).
	GammaInt GammaMode = iota
	// GammaReal: γ is real and halved exactly; a probe is at G ± ⌊γ + 0.5⌋; the loop runs
	// while γ ≥ 1 (10→5→2.5→1.25 gives steps 10, 5, 3, 1).
	GammaReal
)

func (m GammaMode) String() string { return [...]string{"int", "real"}[m] }

// Probe is one probe of Algorithm 2, one row of the trace.
type Probe struct {
	Gamma    float64 // the step γ at the probe
	G        int     // the probed number of groups Gi
	F        float64 // F′(Gi), NaN when Out
	Out      bool    // Gi outside [Gmin, Gmax]: a failure without evaluation
	Accepted bool    // F′(Gi) < F′(G) − tol: Gi became the centre
	Cached   bool    // F′(Gi) came from the cache
	Centre   float64 // F′ of the centre after the probe
	Seconds  float64 // since the search started
}

// Evaluator returns F′(g) for a g not yet in the cache, computed from the cached solution of
// the current centre (the warm start of docs/dfo.md).
type Evaluator func(g, centre int) (float64, error)

// PatternSearch runs Algorithm 2 of the paper (Section 3, docs/dfo.md) from the
// centre g0 whose F′ is f0 and returns the final centre, the probes in order and the number
// of distinct G whose F′ is known, g0 included (eval was called one time fewer):
//
//	γ ← γ0; G ← g0; last ← none
//	while γ ≥ 1:
//	    for i in 1, 2: dir ← the mirror of the first probe on i = 2, else −γ if last = left,
//	        else +γ; Gi ← G + dir
//	        if Gmin ≤ Gi ≤ Gmax (the fix of line 11 of Algorithm 2):
//	            F′(Gi) from the cache, else eval(Gi, G), cached for good
//	            if F′(Gi) < F′(G) − tol: G ← Gi; last ← sign(dir); γ ← 2γ; next round
//	    both failed: last ← none; γ ← ⌊γ/2⌋ (GammaInt) or γ/2 (GammaReal)
//
// The first evaluation of every G is final, so each G becomes the centre at most once and
// the search ends after at most Gmax−Gmin+1 evaluations. An error from eval stops the search
// and is returned with the probes so far.
func PatternSearch(g0 int, f0 float64, gmin, gmax, gamma0 int, mode GammaMode, tol float64, eval Evaluator) (int, []Probe, int, error) {
	cache := map[int]float64{g0: f0}
	gamma := float64(gamma0)
	G, last := g0, 0
	var probes []Probe
	t0 := time.Now()
	record := func(pr Probe) {
		pr.Centre, pr.Seconds = cache[G], time.Since(t0).Seconds()
		probes = append(probes, pr)
	}
	for gamma >= 1 {
		step := int(gamma)
		if mode == GammaReal {
			step = int(math.Floor(gamma + 0.5))
		}
		dir, success := 0, false
		for i := 1; i <= 2; i++ {
			switch {
			case dir == -step:
				dir = step
			case dir == step:
				dir = -step
			case last < 0:
				dir = -step
			default:
				dir = step
			}
			gi := G + dir
			pr := Probe{Gamma: gamma, G: gi, F: math.NaN()}
			if gi < gmin || gi > gmax {
				pr.Out = true
				record(pr)
				continue
			}
			f, ok := cache[gi]
			if ok {
				pr.Cached = true
			} else {
				var err error
				if f, err = eval(gi, G); err != nil {
					return G, probes, len(cache), err
				}
				cache[gi] = f
			}
			pr.F = f
			if f < cache[G]-tol {
				pr.Accepted = true
				G, last = gi, dir
				record(pr)
				gamma *= 2
				success = true
				break
			}
			record(pr)
		}
		if !success {
			last = 0
			if mode == GammaInt {
				gamma = math.Floor(gamma / 2)
			} else {
				gamma /= 2
			}
		}
	}
	return G, probes, len(cache), nil
}

// Bounds returns the range of the number of groups of Proposition 1 of the paper
// (docs/dfo.md): Gmin = max(1, ⌊n/(2k−1)⌋) and Gmax = ⌊n/k⌋.
func Bounds(n, k int) (gmin, gmax int) {
	return max(1, n/(2*k-1)), n / k
}
