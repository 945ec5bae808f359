package magga

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	_ "github.com/sdcbench/sdcbench/datasets/synth" // the benchmark's substitute instances
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

func init() {
	methods.Register(Method{})
}

// Method is the registered method `magga` (docs/magga.md).
type Method struct{}

var (
	_ methods.Method    = Method{}
	_ methods.Validator = Method{}
)

var inf = math.Inf(1)

// Info declares the parameters of spec §9; defaults are the final experiment's.
func (Method) Info() methods.Info {
	gens := []string{"tsp", "d1", "d2"}
	return methods.Info{
		Name:          "magga",
		Description:   "MAGGA: BRKGA-style genetic microaggregation minimizing a weighted IL/DR objective (MAGGA study)",
		Randomized:    true,
		Partitions:    true,
		BoundedGroups: true,
		Example:       map[string]string{"pop": "8", "gens": "3"},
		Params: []methods.ParamSpec{
			{Name: "k", Kind: methods.Int, Default: "3", Min: 2, Max: inf, Doc: "minimum group size (groups have k..2k−1 records)"},
			{Name: "pop", Kind: methods.Int, Default: "100", Min: 2, Max: inf, Doc: "population size"},
			{Name: "gens", Kind: methods.Int, Default: "200", Min: 0, Max: inf, Doc: "number of generations"},
			{Name: "pe", Kind: methods.Float, Default: "0.1", Min: 0, Max: 1, Doc: "elite fraction of pop"},
			{Name: "pm", Kind: methods.Float, Default: "0.2", Min: 0, Max: 1, Doc: "mutant fraction of pop"},
			{Name: "rho_e", Kind: methods.Float, Default: "0.9", Min: 0.5, Max: 1, Doc: "probability of the elite parent's gene (> 0.5)"},
			{Name: "init", Kind: methods.String, Default: "tsp", Choices: gens, Doc: "generator of the initial population"},
			{Name: "mutant", Kind: methods.String, Default: "tsp", Choices: gens, Doc: "generator of the mutants"},
			{Name: "weights", Kind: methods.String, Default: "fobj3",
				Doc: "objective: fobj1..fobj5, fobj4_cal, dld_only or a sum such as 0.5*sse_sst+0.5*dld over sse_sst, dld, il1s, il3, il3_code"},
			{Name: "repair_pick", Kind: methods.String, Default: "nearest", Choices: []string{"nearest", "lowest_index"},
				Doc: "which donor members the repair moves"},
			{Name: "time_limit_s", Kind: methods.Float, Default: "0", Min: 0, Max: inf, Doc: "stop after this many seconds (0: off)"},
			{Name: "stall", Kind: methods.String, Default: "off",
				Doc: "off, or GENS,TOL: stop after GENS generations with (F_prev − F_best) ≤ TOL·|F_prev|"},
			{Name: "eval_workers", Kind: methods.Int, Default: "0", Min: 0, Max: inf,
				Doc: "evaluation goroutines (0: GOMAXPROCS, capped by the runner's thread budget)"},
			{Name: "standardize", Kind: methods.String, Default: "zscore", Choices: []string{"zscore", "none"},
				Doc: "distance space: z-scores (sample SD) or raw values"},
		},
	}
}

// config turns parameters into a Config (without workers) and checks them.
func config(p methods.Params) (Config, error) {
	obj, err := ParseObjective(p.String("weights"))
	if err != nil {
		return Config{}, err
	}
	c := Config{
		Pop: p.Int("pop"), Gens: p.Int("gens"), Pe: p.Float("pe"), Pm: p.Float("pm"),
		RhoE:      p.Float("rho_e"),
		Init:      Generator(slices.Index(generatorNames, p.String("init"))),
		Mutant:    Generator(slices.Index(generatorNames, p.String("mutant"))),
		Objective: obj,
		TimeLimit: time.Duration(p.Float("time_limit_s") * float64(time.Second)),
	}
	if p.String("repair_pick") == "lowest_index" {
		c.Pick = PickLowestIndex
	}
	if s := strings.TrimSpace(p.String("stall")); s != "off" && s != "" {
		a, b, ok := strings.Cut(s, ",")
		g, err1 := strconv.Atoi(strings.TrimSpace(a))
		tol, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if !ok || err1 != nil || err2 != nil || g < 1 || !(tol >= 0) {
			return Config{}, fmt.Errorf("%w stall=%q: want off or GENS,TOL with GENS ≥ 1 and TOL ≥ 0", methods.ErrBadParam, s)
		}
		c.StallGens, c.StallTol = g, tol
	}
	if _, _, _, err := c.Sizes(); err != nil {
		return Config{}, fmt.Errorf("%w: %v", methods.ErrBadParam, err)
	}
	return c, nil
}

// Validate rejects bad parameters and datasets before a run: a malformed or unknown
// objective, population fractions that leave no elite or no child, n < k, non-finite data
// or data whose columns are all constant (a constant column alone is zero in Z).
func (Method) Validate(d *datasets.Dataset, p methods.Params) error {
	if _, err := config(p); err != nil {
		return fmt.Errorf("magga: %w", err)
	}
	if k := p.Int("k"); d.N < k {
		return fmt.Errorf("magga: dataset %s has %d rows, fewer than k = %d", d.Name, d.N, k)
	}
	if err := methods.RefuseMissing("magga", d, methods.AltMicroagg); err != nil {
		return err
	}
	if d.N < 2 {
		return fmt.Errorf("magga: dataset %s has %d rows, want ≥ 2", d.Name, d.N)
	}
	// constant columns are zero in Z and excluded from the metrics (MA §0, metrics.md §0.2)
	s := datasets.ScalingOf(d)
	if !slices.ContainsFunc(s.SD, func(v float64) bool { return v > 0 }) {
		return fmt.Errorf("magga: dataset %s: every column is constant", d.Name)
	}
	return nil
}

// Protect runs MAGGA on d and returns the best partition's release, its per-generation trace
// (best and mean objective, seconds) and diagnostics in Info: the objective value f, every
// metric of the best partition, groups, generations, evals, cache_hits, seconds_per_gen,
// status and the per-generation best_sse_sst and best_dld.
func (m Method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	cfg, _ := config(p)
	cfg.Workers = p.Int("eval_workers")
	if t := methods.Threads(ctx); t > 0 && (cfg.Workers == 0 || cfg.Workers > t) {
		cfg.Workers = t
	}
	pr := NewProblem(d, p.Int("k"), p.String("standardize") == "zscore")
	res, err := Run(ctx, pr, cfg, rng)
	if err != nil {
		return nil, fmt.Errorf("magga: %w", err)
	}
	rel := &methods.Release{
		Masked: microagg.Aggregate(d, res.Labels),
		Labels: res.Labels,
		Diag:   diag.Diagnostics{Partition: &diag.Partition{K: p.Int("k"), Groups: res.G}},
		Info: map[string]any{
			"f": res.F, "generations": res.Generations,
			"evals": res.Evals, "cache_hits": res.CacheHits, "status": string(res.Status),
			"seconds": res.Seconds,
		},
	}
	if res.Generations > 0 {
		rel.Info["seconds_per_gen"] = res.Seconds / float64(res.Generations)
	}
	for mt, v := range res.Values {
		rel.Info[Metric(mt).String()] = v
	}
	if len(cfg.Objective.Warnings) > 0 {
		rel.Info["warnings"] = cfg.Objective.Warnings
	}
	sse := make([]float64, len(res.Trace))
	dld := make([]float64, len(res.Trace))
	for i, t := range res.Trace {
		rel.Trace = append(rel.Trace, methods.TracePoint{Iter: t.Gen, Best: t.Best, Mean: t.Mean, Seconds: t.Seconds})
		sse[i], dld[i] = t.BestSSESST, t.BestDLD
	}
	rel.Info["best_sse_sst"], rel.Info["best_dld"] = sse, dld
	return rel, nil
}
