package magga

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/sdcbench/sdcbench/internal/parallel"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// Config is one MAGGA run's settings (docs/magga.md). Objective must be set;
// the zero value of every other field is documented on it.
type Config struct {
	Pop, Gens      int     // population size and generation budget
	Pe, Pm, RhoE   float64 // elite and mutant fractions; P(gene from the elite parent)
	Init, Mutant   Generator
	Objective      *Objective
	Pick           Pick
	TimeLimit      time.Duration // 0: none; checked after each generation
	StallGens      int           // 0: off; stop after this many generations without relative gain > StallTol
	StallTol       float64
	Workers        int  // evaluation goroutines; 0 means GOMAXPROCS
	KeepPopulation bool // return the final population in Result.Population
}

// Sizes returns ne = RoundHalfEven(pe·pop), nm = RoundHalfEven(pm·pop) and no = pop − ne − nm,
// and an error unless ne ≥ 1, no ≥ 1, ne < pop − ne and 0.5 < rho_e ≤ 1 (spec §5, §7).
func (c *Config) Sizes() (ne, nm, no int, err error) {
	ne = int(math.RoundToEven(c.Pe * float64(c.Pop)))
	nm = int(math.RoundToEven(c.Pm * float64(c.Pop)))
	no = c.Pop - ne - nm
	switch {
	case c.Pop < 2:
		err = fmt.Errorf("pop = %d, want ≥ 2", c.Pop)
	case ne < 1:
		err = fmt.Errorf("pe·pop rounds to %d elite, want ≥ 1", ne)
	case no < 1:
		err = fmt.Errorf("pop − elite − mutants = %d crossover children, want ≥ 1", no)
	case ne >= c.Pop-ne:
		err = fmt.Errorf("elite set (%d) must be smaller than the non-elite set (%d)", ne, c.Pop-ne)
	case !(c.RhoE > 0.5 && c.RhoE <= 1):
		err = fmt.Errorf("rho_e = %v, want 0.5 < rho_e ≤ 1", c.RhoE)
	case c.Gens < 0:
		err = fmt.Errorf("gens = %d, want ≥ 0", c.Gens)
	case c.Objective == nil:
		err = errors.New("no objective")
	}
	return ne, nm, no, err
}

// GenStat is one row of the per-generation trace (spec §7 "Per-generation trace").
type GenStat struct {
	Gen                 int
	Best, Mean, Median  float64 // objective over the population
	BestSSESST, BestDLD float64 // of the best individual
	Evals, CacheHits    int     // cumulative
	Seconds             float64 // since the start of the run
}

// Status says why a run stopped.
type Status string

// Stopping reasons.
const (
	StatusGenerations Status = "generations"
	StatusTimeLimit   Status = "time_limit"
	StatusStall       Status = "stall"
	StatusTrivial     Status = "single_group" // n ≤ 2k−1: no search needed
)

// Result is the outcome of Run.
type Result struct {
	Labels      []int32 // best partition, canonical
	F           float64 // its objective value
	Values      Values  // every metric of the best partition
	G           int
	Generations int // generations done
	Evals       int // evaluations (cache misses)
	CacheHits   int
	Seconds     float64
	Status      Status
	Trace       []GenStat
	Population  [][]int32 // final population, best first, stored labels (KeepPopulation)
}

// indiv is one stored individual.
type indiv struct {
	labels []int32
	G      int
	key    [16]byte
	v      Values
	f      float64
	child  bool // needs repair before its first evaluation
}

// run holds a run's state.
type run struct {
	pr      *Problem
	cfg     Config
	want    [numMetrics]bool
	tour    *Tour
	workers []*worker
	cache   map[[16]byte]Values
	free    [][]int32
	keys    [][]float64 // per-slot random keys for the decoders
	evals   int
	hits    int
}

type worker struct {
	s  *Scratch
	ds decodeScratch
}

// GA is a MAGGA run in progress: NewGA builds and evaluates the initial population, Step
// runs one generation. Run drives it to a stopping rule; benchmarks step it directly.
type GA struct {
	r          *run
	rng        *rand.Rand
	ne, nm, no int
	P          []*indiv
	gen        int
	start      time.Time
	trace      []GenStat
}

// NewGA checks cfg, precomputes the tour if a generator needs it (drawing its start from
// rng), and generates and evaluates the initial population (spec §7). pr must have n ≥ 2k.
func NewGA(pr *Problem, cfg Config, rng *rand.Rand) (*GA, error) {
	ne, nm, no, err := cfg.Sizes()
	if err != nil {
		return nil, fmt.Errorf("magga: %w", err)
	}
	n, k := pr.N, pr.K
	if k < 2 || n < 2*k {
		return nil, fmt.Errorf("magga: need k ≥ 2 and n ≥ 2k, have k = %d, n = %d", k, n)
	}
	g := &GA{r: newRun(pr, cfg), rng: rng, ne: ne, nm: nm, no: no, start: time.Now()}
	r := g.r
	if cfg.Init == GenTSP || cfg.Mutant == GenTSP {
		order, edges := microagg.FarthestInsertion(pr.Z, n, pr.D, rng.IntN(n))
		r.tour = NewTour(order, edges)
	}
	g.P = make([]*indiv, cfg.Pop)
	for i := range g.P {
		g.P[i] = &indiv{labels: r.alloc()}
	}
	r.generate(g.P, cfg.Init, rng)
	r.evaluate(g.P)
	sortPop(g.P)
	g.trace = append(g.trace, r.stat(0, g.P, g.start))
	return g, nil
}

func newRun(pr *Problem, cfg Config) *run {
	r := &run{pr: pr, cfg: cfg, cache: map[[16]byte]Values{}}
	for m := range r.want {
		r.want[m] = cfg.Objective.Uses(Metric(m))
	}
	nw := cfg.Workers
	if nw <= 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	nw = max(1, min(nw, cfg.Pop))
	for range nw {
		r.workers = append(r.workers, &worker{s: pr.NewScratch()})
	}
	return r
}

// Step runs one generation: the elite is kept, nm mutants and no repaired children are
// generated and evaluated, and the population is sorted again; a trace row is added.
func (g *GA) Step() {
	r, rng, P, cfg := g.r, g.rng, g.P, &g.r.cfg
	g.gen++
	next := make([]*indiv, 0, cfg.Pop)
	next = append(next, P[:g.ne]...)
	M := make([]*indiv, g.nm)
	for i := range M {
		M[i] = &indiv{labels: r.alloc()}
	}
	r.generate(M, cfg.Mutant, rng)
	C := make([]*indiv, g.no)
	for i := range C {
		a, b := P[rng.IntN(g.ne)], P[g.ne+rng.IntN(cfg.Pop-g.ne)]
		C[i] = &indiv{labels: r.alloc(), child: true}
		Crossover(C[i].labels, a.labels, b.labels, cfg.RhoE, rng)
	}
	fresh := append(C, M...)
	r.evaluate(fresh)
	for _, x := range P[g.ne:] {
		r.free = append(r.free, x.labels)
	}
	next = append(next, fresh...)
	sortPop(next)
	g.P = next
	g.trace = append(g.trace, r.stat(g.gen, g.P, g.start))
}

// Best returns the best objective value of the current population.
func (g *GA) Best() float64 { return g.P[0].f }

// Run minimizes cfg.Objective over the feasible k-partitions of pr with MAGGA (spec §7):
// a population of pop individuals from cfg.Init, then per generation the ne best kept
// unchanged, nm fresh individuals from cfg.Mutant and pop − ne − nm children of the biased
// crossover of an elite and a non-elite parent, repaired (§6). All randomness comes from rng,
// in the order of §7; evaluations run on cfg.Workers goroutines and are cached by the
// canonical partition, so the result does not depend on the number of workers. It returns
// ctx.Err() if ctx is cancelled.
func Run(ctx context.Context, pr *Problem, cfg Config, rng *rand.Rand) (*Result, error) {
	start := time.Now()
	if _, _, _, err := cfg.Sizes(); err != nil {
		return nil, fmt.Errorf("magga: %w", err)
	}
	if n, k := pr.N, pr.K; k < 2 || n < k {
		return nil, fmt.Errorf("magga: need k ≥ 2 and n ≥ k, have k = %d, n = %d", k, n)
	} else if n <= 2*k-1 {
		return newRun(pr, cfg).trivial(start), nil
	}
	g, err := NewGA(pr, cfg, rng)
	if err != nil {
		return nil, err
	}
	g.start = start
	res := &Result{Status: StatusGenerations}
	stall := 0
	for gen := 1; gen <= cfg.Gens; gen++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		prevBest := g.Best()
		g.Step()
		res.Generations = gen
		if cfg.TimeLimit > 0 && time.Since(start) >= cfg.TimeLimit {
			res.Status = StatusTimeLimit
			break
		}
		if cfg.StallGens > 0 {
			if prevBest-g.Best() <= cfg.StallTol*math.Abs(prevBest) {
				stall++
			} else {
				stall = 0
			}
			if stall >= cfg.StallGens {
				res.Status = StatusStall
				break
			}
		}
	}
	r, best := g.r, g.P[0]
	all := [numMetrics]bool{true, true, true, true, true}
	res.Values = pr.Evaluate(best.labels, best.G, &all, r.workers[0].s)
	res.F = cfg.Objective.Value(&res.Values)
	res.Labels = microagg.Canonical(best.labels)
	res.G = best.G
	res.Evals, res.CacheHits = r.evals, r.hits
	res.Seconds = time.Since(start).Seconds()
	res.Trace = g.trace
	if cfg.KeepPopulation {
		for _, x := range g.P {
			res.Population = append(res.Population, x.labels)
		}
	}
	return res, nil
}

// trivial returns the single-group partition of n ≤ 2k−1 records (spec §3).
func (r *run) trivial(start time.Time) *Result {
	labels := make([]int32, r.pr.N)
	all := [numMetrics]bool{true, true, true, true, true}
	v := r.pr.Evaluate(labels, 1, &all, r.workers[0].s)
	f := r.cfg.Objective.Value(&v)
	sec := time.Since(start).Seconds()
	return &Result{Labels: labels, F: f, Values: v, G: 1, Status: StatusTrivial, Seconds: sec,
		Trace: []GenStat{{Best: f, Mean: f, Median: f, BestSSESST: v[SSESST], BestDLD: v[DLD], Seconds: sec}}}
}

// alloc returns a label buffer of length n, reusing discarded individuals' buffers.
func (r *run) alloc() []int32 {
	if k := len(r.free); k > 0 {
		b := r.free[k-1]
		r.free = r.free[:k-1]
		return b
	}
	return make([]int32, r.pr.N)
}

// generate fills the individuals with new ones from gen: the random numbers are drawn
// serially, in order, and the decoders then run in parallel.
func (r *run) generate(xs []*indiv, gen Generator, rng *rand.Rand) {
	if gen == GenTSP {
		var sizes []int
		for _, x := range xs {
			sizes = TSPIndividual(x.labels, r.tour, r.pr.K, sizes, rng)
			x.G = len(sizes)
		}
		return
	}
	for len(r.keys) < len(xs) {
		r.keys = append(r.keys, make([]float64, r.pr.N))
	}
	for i := range xs {
		Keys(r.keys[i], rng)
	}
	r.parallel(len(xs), func(w *worker, i int) {
		if gen == GenD1 {
			Decode1(xs[i].labels, r.keys[i], r.pr.K, &w.ds)
		} else {
			Decode2(xs[i].labels, r.keys[i], r.pr.K, &w.ds)
		}
		xs[i].G = len(w.ds.sizes)
	})
}

// evaluate repairs the children, looks every individual up in the cache by its canonical
// key and evaluates the distinct misses in parallel.
func (r *run) evaluate(xs []*indiv) {
	r.parallel(len(xs), func(w *worker, i int) {
		x := xs[i]
		if x.child {
			x.G = Repair(x.labels, r.pr.Z, r.pr.D, r.pr.K, r.cfg.Pick, &w.s.repair)
			x.child = false
		}
		x.key = canonicalKey(x.labels, x.G, w.s)
	})
	var todo []*indiv
	pending := map[[16]byte]bool{}
	for _, x := range xs {
		if _, ok := r.cache[x.key]; ok || pending[x.key] {
			r.hits++
			continue
		}
		pending[x.key] = true
		todo = append(todo, x)
	}
	r.parallel(len(todo), func(w *worker, i int) {
		todo[i].v = r.pr.Evaluate(todo[i].labels, todo[i].G, &r.want, w.s)
	})
	r.evals += len(todo)
	for _, x := range todo {
		r.cache[x.key] = x.v
	}
	for _, x := range xs {
		x.v = r.cache[x.key]
		x.f = r.cfg.Objective.Value(&x.v)
	}
}

// parallel calls f(w, i) for i = 0..count−1 on the workers (parallel.Each); each worker
// handles whole individuals and writes only their slots.
func (r *run) parallel(count int, f func(w *worker, i int)) {
	parallel.Each(count, len(r.workers), func(w, i int) { f(r.workers[w], i) })
}

// canonicalKey returns the first 16 bytes of SHA-256 of the canonical labels (groups numbered
// by first appearance) as little-endian int32 (spec §8 "Cache").
func canonicalKey(labels []int32, G int, s *Scratch) [16]byte {
	canon := s.canon[:G]
	for g := range canon {
		canon[g] = -1
	}
	next := int32(0)
	b := s.keyBytes[:4*len(labels)]
	for i, g := range labels {
		c := canon[g]
		if c < 0 {
			c, canon[g] = next, next
			next++
		}
		binary.LittleEndian.PutUint32(b[4*i:], uint32(c))
	}
	sum := sha256.Sum256(b)
	var key [16]byte
	copy(key[:], sum[:16])
	return key
}

// sortPop sorts by objective ascending, stably, NaN last.
func sortPop(P []*indiv) {
	slices.SortStableFunc(P, func(a, b *indiv) int {
		an, bn := math.IsNaN(a.f), math.IsNaN(b.f)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	})
}

// stat returns the trace row of a sorted population; sse_sst and dld of the best individual
// are computed if the objective does not use them.
func (r *run) stat(gen int, P []*indiv, start time.Time) GenStat {
	best := P[0]
	if math.IsNaN(best.v[SSESST]) || math.IsNaN(best.v[DLD]) {
		want := [numMetrics]bool{SSESST: true, DLD: true}
		v := r.pr.Evaluate(best.labels, best.G, &want, r.workers[0].s)
		best.v[SSESST], best.v[DLD] = v[SSESST], v[DLD]
	}
	fs := make([]float64, len(P))
	var sum float64
	for i, x := range P {
		fs[i] = x.f
		sum += x.f
	}
	slices.Sort(fs)
	m := len(fs) / 2
	med := fs[m]
	if len(fs)%2 == 0 {
		med = (fs[m-1] + fs[m]) / 2
	}
	return GenStat{Gen: gen, Best: best.f, Mean: sum / float64(len(P)), Median: med,
		BestSSESST: best.v[SSESST], BestDLD: best.v[DLD], Evals: r.evals, CacheHits: r.hits,
		Seconds: time.Since(start).Seconds()}
}
