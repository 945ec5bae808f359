package dfo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

func init() { methods.Register(FixedG{}) }

// FixedG is the registered `hmkm` method: one size-constrained local search (a Surrogate) at a
// fixed number of groups G from a random start, the unit of the paper's first experiment
// (Araújo & Aloise, experiment 1: the four modified heuristics and the two orders HM+KM and
// KM+HM, run at every G of Proposition 1 from random initial solutions). G is given as its
// position in [Gmin, Gmax], so one grid covers every dataset and k.
//
// The random start is drawn from its own generator, seeded by start_seed and G, and not from
// the run's rng: runs that differ only in the surrogate start from the same partition, so
// the experiment compares the searches in pairs.
type FixedG struct{}

var (
	_ methods.Method    = FixedG{}
	_ methods.Validator = FixedG{}
)

// Info declares the parameters.
func (FixedG) Info() methods.Info {
	inf := math.Inf(1)
	return methods.Info{
		Name:        "hmkm",
		Description: "one constrained HM/KM local search at a fixed number of groups from a random start (Araújo & Aloise, experiment 1)",
		Partitions:  true,
		Params: []methods.ParamSpec{
			{Name: "k", Kind: methods.Int, Default: "3", Min: 2, Max: inf, Doc: "minimum group size"},
			{Name: "g_pos", Kind: methods.Float, Default: "0.5", Min: 0, Max: 1, Doc: "G = Gmin + round(g_pos·(Gmax − Gmin)) in the range of Proposition 1"},
			{Name: "surrogate", Kind: methods.String, Default: "hmkm", Doc: "hmkm or {sbm,br,sbm+br,br+sbm} with -I or -II"},
			{Name: "repair", Kind: methods.String, Default: "every", Choices: []string{"every", "end"}, Doc: "Strategy II: repair after every iteration, or after a run to convergence"},
			{Name: "hm_iter", Kind: methods.String, Default: "move", Choices: []string{"move", "sweep"}, Doc: "repair=every: one HM iteration is one best move, or one sweep"},
			{Name: "on_fail", Kind: methods.String, Default: "restrict", Choices: []string{"restrict", "stop"}, Doc: "repair=every: on a failed repaired iteration try a restricted one, or stop"},
			{Name: "start_seed", Kind: methods.Int, Default: "1", Min: 0, Max: inf, Doc: "seed of the random start (shared by runs that differ in the surrogate)"},
			{Name: "standardize", Kind: methods.String, Default: "zscore", Choices: []string{"zscore", "none"}, Doc: "distance space"},
		},
	}
}

// Validate rejects k > n/2, non-finite data and a bad surrogate.
func (FixedG) Validate(d *datasets.Dataset, p methods.Params) error {
	if k := p.Int("k"); d.N < 2*k {
		return fmt.Errorf("hmkm: dataset %s has %d rows, fewer than 2k = %d", d.Name, d.N, 2*k)
	}
	if err := methods.RefuseMissing("hmkm", d, methods.AltMicroagg); err != nil {
		return err
	}
	if _, err := ParseSurrogate(p.String("surrogate")); err != nil {
		return fmt.Errorf("hmkm: %w: %w", methods.ErrBadParam, err)
	}
	return nil
}

// Protect runs the surrogate once. Info holds k, g_best (= G), groups and il_start (the
// random start's sse_sst, %).
func (m FixedG) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	k := p.Int("k")
	z := append([]float64(nil), d.Data...)
	if p.String("standardize") != "none" {
		z = datasets.ScalingOf(d).Apply(nil, d)
	}
	n, dim := d.N, d.P
	gmin, gmax := Bounds(n, k)
	G := gmin + int(math.Round(p.Float("g_pos")*float64(gmax-gmin)))
	sur, _ := ParseSurrogate(p.String("surrogate"))
	sur.Repair, _ = ParseRepair(p.String("repair"))
	sur.HMIter, _ = ParseHMIter(p.String("hm_iter"))
	sur.OnFail, _ = ParseOnFail(p.String("on_fail"))
	rng := rand.New(rand.NewPCG(uint64(p.Int("start_seed")), uint64(G)))
	start := NewPartition(z, n, dim, RandomStart(n, G, rng), G)
	sst := totalSS(z, n, dim)
	if sst == 0 {
		return nil, fmt.Errorf("hmkm: all records of %s are equal (SST = 0)", d.Name)
	}
	cpu := threadCPU()
	l := &Local{Tol: 1e-12 * sst}
	ilStart := 100 * start.SSE() / sst
	q, err := l.Improve(sur, start.Clone(), k)
	used := cpu()
	if err != nil {
		return nil, fmt.Errorf("hmkm: %w", err)
	}
	labels := microagg.Canonical(q.Labels)
	return &methods.Release{
		Masked: microagg.Aggregate(d, labels),
		Labels: labels,
		Diag: diag.Diagnostics{
			Partition: &diag.Partition{K: k, Groups: q.G()},
			Search:    &diag.Search{ILStart: ilStart, GBest: G, CPU: used.Seconds()},
		},
	}, nil
}
