package dfo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// Init selects the initial partition of a new G (docs/dfo.md).
type Init int

// Initializations.
const (
	// InitRandom: a fresh random round-robin partition drawn with the rng (the default;
	// the paper's experiment 1 used random initial solutions, Section 4).
	InitRandom   Init = iota
	InitKMeansPP      // a fresh k-means++ seeding with the rng, nearest centre, Repair
	InitWarm          // split/merge from the incumbent, then Repair (draws nothing)
)

func (i Init) String() string { return [...]string{"random", "kmeanspp", "warm"}[i] }

// Config holds the parameters of Run (docs/dfo.md). The zero value of every field
// except K means its default.
type Config struct {
	K         int       // minimum group size, ≥ 2
	Gamma0    int       // initial step γ0 (0: 10)
	GammaMode GammaMode // GammaInt (default) or GammaReal
	NoRefine  bool      // refine_start: false — F′(G0) is the start's own IL
	// FreshF0 (f0: fresh) takes only G0 from the start (the paper, Section 3: "k0 can be recovered
	// from a random or heuristic solution"): F′(G0) is evaluated like any other G, from a fresh
	// Init partition, and the start (refined unless NoRefine) is returned instead of the
	// search's result when that is not better.
	FreshF0    bool
	Init       Init      // initial partition at a new G
	Restarts   int       // F′(G) = min over the Init start and Restarts−1 k-means++ starts (0: 1)
	Surrogate  Surrogate // the local search of F′ (zero value: HMKM)
	FinalRerun bool      // final_rebuild: rerun — also try Restarts fresh k-means++ starts at G*
	// Scan replaces the pattern search by the gscan baseline: F′ at every ScanStep-th G
	// from Gmax down to Gmin (docs/dfo.md).
	Scan     bool
	ScanStep int // 0: 1
	// Polish adds the exchange search of Local.Polish (a harness extension, not in the
	// paper): PolishNone (default, the paper's method), PolishFinal (the returned solution
	// only) or PolishEvery (also inside every F′ evaluation, after the surrogate).
	Polish PolishMode
}

// PolishMode says where Local.Polish runs.
type PolishMode int

// Polish modes.
const (
	PolishNone PolishMode = iota
	PolishFinal
	PolishEvery
)

func (m PolishMode) String() string { return [...]string{"none", "final", "every"}[m] }

// polishNeighbours is the number of nearest records Polish considers per record, 3k + 5.
func polishNeighbours(k int) int { return 3*k + 5 }

// Result is the outcome of Run (docs/dfo.md).
type Result struct {
	G          int     // G*, the final centre of the search
	G0         int     // groups of the start partition
	Gmin, Gmax int     // the range of Proposition 1
	Groups     int     // groups of Labels (≥ G when groups of 2k or more were split)
	Labels     []int32 // canonical; every group has k..2k−1 records
	SSE, SST   float64 // of Labels, in the search space
	SseSst     float64 // 100·SSE/SST (%)
	FStar      float64 // F′(G*) (%), before the final split and polish
	ILStart    float64 // 100·SSE/SST of the unrefined start (%)
	Imp        float64 // 100·(ILStart − SseSst)/ILStart (%)
	NEvals     int     // distinct G whose F′ was computed, G0 included
	Trace      []Probe
	Elapsed    time.Duration
	CPU        time.Duration // CPU time of the run's thread (Linux; 0 elsewhere)
}

// Run runs the DFO microaggregation of docs/dfo.md on the n×d row-major table z
// (already standardized) from the start partition start (labels in any numbering; every
// group must have ≥ K records). The rng is used only by Init kmeanspp/random, Restarts > 1
// and FinalRerun; it may be nil otherwise.
//
// Steps: F′(G0) = IL(start), refined by the surrogate unless NoRefine; Algorithm 2
// (PatternSearch) or the Scan over G with F′ cached per G; the cached partition of G* is the
// solution. Decision (not in the paper): the model of the paper asks only for ≥ k records per
// group, while the harness requires k..2k−1 (docs/dfo.md, "Output"). Groups of
// 2k or more records are therefore split by MDAV on their members, which never raises SSE,
// and a single-best-move polish that keeps every size in [k, 2k−1] follows; both can only
// lower the SSE of the cached partition. ctx is checked before every F′ evaluation.
func Run(ctx context.Context, z []float64, n, d int, start []int32, cfg Config, rng *rand.Rand) (*Result, error) {
	t0 := time.Now()
	cpu := threadCPU()
	defer func() {
		if cpu != nil { // an early return: unlock the thread
			cpu()
		}
	}()
	k := cfg.K
	if k < 2 || n < 2*k {
		return nil, fmt.Errorf("dfo: need k ≥ 2 and n ≥ 2k (k=%d, n=%d)", k, n)
	}
	if cfg.Gamma0 <= 0 {
		cfg.Gamma0 = 10
	}
	cfg.Restarts = max(cfg.Restarts, 1)
	cfg.ScanStep = max(cfg.ScanStep, 1)
	if len(cfg.Surrogate.Stages) == 0 {
		cfg.Surrogate.Stages, cfg.Surrogate.Strategy = HMKM.Stages, HMKM.Strategy
	}
	if rng == nil && (cfg.Init != InitWarm || cfg.Restarts > 1 || cfg.FinalRerun) {
		return nil, errors.New("dfo: nil *rand.Rand with a randomized option")
	}
	lab := canonical(start)
	g0 := 0
	for _, l := range lab {
		g0 = max(g0, int(l)+1)
	}
	ps := NewPartition(z, n, d, lab, g0)
	if !ps.Feasible(k) {
		return nil, fmt.Errorf("dfo: start partition has a group of %d records, fewer than k = %d", ps.MinSize(), k)
	}
	sst := totalSS(z, n, d)
	if sst == 0 {
		return nil, errors.New("dfo: all records are equal (SST = 0)")
	}
	l := &Local{Tol: 1e-12 * sst}
	il := func(p *Partition) float64 { return 100 * p.SSE() / sst }
	res := &Result{G0: g0, SST: sst, ILStart: il(ps)}
	res.Gmin, res.Gmax = Bounds(n, k)
	var nn []int32
	if cfg.Polish != PolishNone {
		nn = Neighbours(z, n, d, polishNeighbours(k))
	}

	// improve runs the surrogate from p and the Restarts−1 extra k-means++ starts.
	improve := func(p *Partition, g int, extra int) (*Partition, error) {
		best, err := l.Improve(cfg.Surrogate, p, k)
		if err != nil {
			return nil, err
		}
		if cfg.Polish == PolishEvery {
			l.Polish(best, k, nn, 0)
		}
		bs := best.SSE()
		for r := 0; r < extra; r++ {
			q, err := l.Improve(cfg.Surrogate, NewPartition(z, n, d, KMeansPP(z, n, d, g, rng), g), k)
			if err != nil {
				return nil, err
			}
			if cfg.Polish == PolishEvery {
				l.Polish(q, k, nn, 0)
			}
			if s := q.SSE(); s < bs-l.Tol {
				best, bs = q, s
			}
		}
		return best, nil
	}
	cache := map[int][]int32{}
	f0 := res.ILStart
	cache[g0] = ps.Labels
	if !cfg.NoRefine {
		q, err := improve(ps.Clone(), g0, 0)
		if err != nil {
			return nil, fmt.Errorf("dfo: %w", err)
		}
		if f := il(q); f < f0-100*l.Tol/sst {
			f0, cache[g0] = f, q.Labels
		}
	}
	startLabels, startF := cache[g0], f0
	eval := func(g, centre int) (float64, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		var p *Partition
		var err error
		switch cfg.Init {
		case InitWarm:
			lab, ok := cache[centre]
			if !ok { // FreshF0 at G0: the start is the incumbent
				lab = startLabels
			}
			inc := NewPartition(z, n, d, lab, centre)
			if p, err = l.WarmStart(inc, g, k); err != nil {
				return 0, err
			}
		case InitKMeansPP:
			p = NewPartition(z, n, d, KMeansPP(z, n, d, g, rng), g)
		case InitRandom:
			p = NewPartition(z, n, d, RandomStart(n, g, rng), g)
		}
		q, err := improve(p, g, cfg.Restarts-1)
		if err != nil {
			return 0, err
		}
		cache[g] = q.Labels
		return il(q), nil
	}
	if cfg.FreshF0 {
		delete(cache, g0)
		f, err := eval(g0, g0)
		if err != nil {
			return nil, fmt.Errorf("dfo: %w", err)
		}
		f0 = f
	}
	var err error
	tol := 100 * l.Tol / sst
	if cfg.Scan {
		res.G, res.Trace, res.NEvals, err = scan(g0, f0, res.Gmin, res.Gmax, cfg.ScanStep, tol, eval)
	} else {
		res.G, res.Trace, res.NEvals, err = PatternSearch(g0, f0, res.Gmin, res.Gmax, cfg.Gamma0, cfg.GammaMode, tol, eval)
	}
	if err != nil {
		return nil, fmt.Errorf("dfo: %w", err)
	}
	best := NewPartition(z, n, d, cache[res.G], res.G)
	res.FStar = il(best)
	if cfg.FinalRerun {
		if q, err := improve(NewPartition(z, n, d, KMeansPP(z, n, d, res.G, rng), res.G), res.G, cfg.Restarts-1); err != nil {
			return nil, fmt.Errorf("dfo: %w", err)
		} else if q.SSE() < best.SSE()-l.Tol {
			best = q
		}
	}
	if cfg.FreshF0 && !(best.SSE() < startF*sst/100-l.Tol) {
		best = NewPartition(z, n, d, startLabels, g0)
	}
	if err := l.Bound(ctx, best, k); err != nil {
		return nil, fmt.Errorf("dfo: %w", err)
	}
	if cfg.Polish != PolishNone {
		l.Polish(best, k, nn, 0)
	}
	res.Labels = microagg.Canonical(best.Labels)
	res.Groups = len(microagg.GroupSizes(res.Labels))
	res.SSE = best.SSE()
	res.SseSst = 100 * res.SSE / sst
	res.Imp = 100 * (res.ILStart - res.SseSst) / res.ILStart
	res.Elapsed = time.Since(t0)
	res.CPU, cpu = cpu(), nil
	return res, nil
}

// scan is the gscan baseline (docs/dfo.md): F′ at G = Gmax, Gmax−step, … ≥ Gmin,
// each warm-started from the previous G (the first from the start at g0), keeping the best.
// Its count of evaluations includes F′(g0), as PatternSearch's does.
func scan(g0 int, f0 float64, gmin, gmax, step int, tol float64, eval Evaluator) (int, []Probe, int, error) {
	best, bf := g0, f0
	centre := g0
	var probes []Probe
	evals := 1
	t0 := time.Now()
	for g := gmax; g >= gmin; g -= step {
		f := f0
		if g != g0 {
			var err error
			if f, err = eval(g, centre); err != nil {
				return best, probes, evals, err
			}
			evals++
		}
		pr := Probe{Gamma: float64(step), G: g, F: f}
		if f < bf-tol {
			best, bf, pr.Accepted = g, f, true
		}
		pr.Centre, pr.Seconds = bf, time.Since(t0).Seconds()
		probes = append(probes, pr)
		centre = g
	}
	return best, probes, evals, nil
}

// Bound makes every group of the feasible partition p have k..2k−1 records without raising
// its SSE: each group of 2k or more records is split by MDAV on its members (a refinement,
// which cannot raise SSE), then SBM polishes with sources above k and targets below 2k−1.
// p is modified in place and may gain groups.
func (l *Local) Bound(ctx context.Context, p *Partition, k int) error {
	if p.MaxSize() < 2*k {
		return nil
	}
	d := p.D
	G := p.G()
	var sub []float64
	var idx []int
	for g := 0; g < G; g++ {
		if p.Size[g] < 2*k {
			continue
		}
		idx, sub = idx[:0], sub[:0]
		for i, lab := range p.Labels {
			if int(lab) == g {
				idx = append(idx, i)
				sub = append(sub, p.Row(i)...)
			}
		}
		parts, err := microagg.MDAV(ctx, sub, len(idx), d, k, 1)
		if err != nil {
			return err
		}
		base := int32(p.G())
		for t, i := range idx {
			if parts[t] > 0 {
				p.Labels[i] = base + parts[t] - 1
			}
		}
		for range microagg.GroupSizes(parts)[1:] {
			p.Size = append(p.Size, 0)
			p.Sum = append(p.Sum, make([]float64, d)...)
			p.Cent = append(p.Cent, make([]float64, d)...)
		}
	}
	p.Recompute()
	l.SBM(p, k, 2*k-1)
	return nil
}

// totalSS returns Σ_i ‖z_i − z̄‖².
func totalSS(z []float64, n, d int) float64 {
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range z[i*d : (i+1)*d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	var s float64
	for i := 0; i < n; i++ {
		s += distance.Sq(z[i*d:(i+1)*d], mean)
	}
	return s
}
