package dfo

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

func init() { methods.Register(Method{}) }

// Method is the registered `dfo` method: Run on the dataset (z-scored by default) from the
// chosen start, releasing the group means in raw units.
type Method struct{}

var (
	_ methods.Method    = Method{}
	_ methods.Validator = Method{}
)

// Info declares the parameters of docs/dfo.md
func (Method) Info() methods.Info {
	inf := math.Inf(1)
	return methods.Info{
		Name:          "dfo",
		Description:   "derivative-free pattern search over the number of groups with an HM+KM surrogate (Araújo & Aloise)",
		Randomized:    true,
		Partitions:    true,
		BoundedGroups: true,
		Params: []methods.ParamSpec{
			{Name: "k", Kind: methods.Int, Default: "3", Min: 2, Max: inf, Doc: "minimum group size (output groups have k..2k−1 records)"},
			{Name: "gamma0", Kind: methods.Int, Default: "10", Min: 1, Max: inf, Doc: "initial step of the pattern search over G"},
			{Name: "gamma_mode", Kind: methods.String, Default: "int", Choices: []string{"int", "real"}, Doc: "step halving: integer floor or real with rounding"},
			{Name: "start", Kind: methods.String, Default: "mdav", Doc: "start partition: mdav | gsms | random | labels:FILE (one group id per record) | another partitioning method with k, e.g. fdm"},
			{Name: "g0", Kind: methods.Int, Default: "0", Min: 0, Max: inf, Doc: "groups of start=random (0: ⌊n/k⌋)"},
			{Name: "refine_start", Kind: methods.Bool, Default: "true", Doc: "run the surrogate on the start before the search"},
			{Name: "f0", Kind: methods.String, Default: "fresh", Choices: []string{"fresh", "start"}, Doc: "F′(G0): evaluated from a fresh init like any G (the start gives G0 and is returned if the search finds nothing better), or the (refined) start's own IL"},
			{Name: "init", Kind: methods.String, Default: "random", Choices: []string{"random", "kmeanspp", "warm"}, Doc: "initial partition at a new G: a fresh random or k-means++ one, or warm (merge/split the incumbent)"},
			{Name: "restarts", Kind: methods.Int, Default: "1", Min: 1, Max: inf, Doc: "F′(G) = best of the init start and restarts−1 k-means++ starts"},
			{Name: "surrogate", Kind: methods.String, Default: "hmkm", Doc: "local search of F′: hmkm or {sbm,br,sbm+br,br+sbm} with -I or -II"},
			{Name: "repair", Kind: methods.String, Default: "every", Choices: []string{"every", "end"}, Doc: "Strategy II: repair after every iteration of the base search, or after a run to convergence"},
			{Name: "hm_iter", Kind: methods.String, Default: "move", Choices: []string{"move", "sweep"}, Doc: "repair=every: one HM iteration is one best move, or one sweep over the records"},
			{Name: "on_fail", Kind: methods.String, Default: "restrict", Choices: []string{"restrict", "stop"}, Doc: "repair=every: when the repaired iteration does not improve, try a restricted (Strategy I) iteration, or stop"},
			{Name: "final_rebuild", Kind: methods.String, Default: "cached", Choices: []string{"cached", "rerun"}, Doc: "rerun: also try fresh k-means++ starts at G*"},
			{Name: "search", Kind: methods.String, Default: "pattern", Choices: []string{"pattern", "gscan"}, Doc: "Algorithm 2, or the exhaustive scan over G"},
			{Name: "scan_step", Kind: methods.Int, Default: "1", Min: 1, Max: inf, Doc: "gscan: evaluate every scan_step-th G"},
			{Name: "polish", Kind: methods.String, Default: "none", Choices: []string{"none", "final", "every"}, Doc: "extension: exchange search on the result (final) or in every F′ (every)"},
			{Name: "standardize", Kind: methods.String, Default: "zscore", Choices: []string{"zscore", "none"}, Doc: "distance space: z-scores (sample SD) or raw values"},
		},
	}
}

// Validate rejects k > n/2, non-finite data, a bad start or surrogate, and a g0 out of range.
func (Method) Validate(d *datasets.Dataset, p methods.Params) error {
	k := p.Int("k")
	if d.N < 2*k {
		return fmt.Errorf("dfo: dataset %s has %d rows, fewer than 2k = %d", d.Name, d.N, 2*k)
	}
	if err := methods.RefuseMissing("dfo", d, methods.AltMicroagg); err != nil {
		return err
	}
	if _, err := ParseSurrogate(p.String("surrogate")); err != nil {
		return fmt.Errorf("%w: %w", methods.ErrBadParam, err)
	}
	switch s := p.String("start"); {
	case s == "mdav", s == "gsms":
	case s == "random":
		if g0 := p.Int("g0"); g0 > d.N/k {
			return fmt.Errorf("dfo: %w g0=%d: more than ⌊n/k⌋ = %d", methods.ErrBadParam, g0, d.N/k)
		}
	case strings.HasPrefix(s, "labels:"):
		if _, err := readLabels(strings.TrimPrefix(s, "labels:"), d.N); err != nil {
			return err
		}
	default:
		if _, err := startMethod(s); err != nil {
			return err
		}
	}
	return nil
}

// Protect runs DFO. The release's Diag holds the partition (k, groups) and the search
// (il_start = sse_sst_start, g0, g_best, n_evals, CPU time) that the dfo measures read; its
// Info holds gmin, gmax and f_star for people; the trace has one point per probe (Best = F′ of the
// centre, Mean = F′ of the probe, NaN when out of range).
func (m Method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	k := p.Int("k")
	var z []float64
	if p.String("standardize") == "none" {
		z = datasets.PowerScaled(d.Data) // raw distances' order, without overflow near 1e308
	} else {
		z = datasets.ScalingOf(d).Apply(nil, d)
	}
	start, err := startLabels(ctx, d, z, k, p, rng)
	if err != nil {
		return nil, err
	}
	sur, _ := ParseSurrogate(p.String("surrogate"))
	sur.Repair, _ = ParseRepair(p.String("repair"))
	sur.HMIter, _ = ParseHMIter(p.String("hm_iter"))
	sur.OnFail, _ = ParseOnFail(p.String("on_fail"))
	cfg := Config{K: k, Gamma0: p.Int("gamma0"), NoRefine: !p.Bool("refine_start"), FreshF0: p.String("f0") != "start",
		Restarts: p.Int("restarts"), Surrogate: sur, FinalRerun: p.String("final_rebuild") == "rerun",
		Scan: p.String("search") == "gscan", ScanStep: p.Int("scan_step")}
	cfg.Polish = map[string]PolishMode{"none": PolishNone, "final": PolishFinal, "every": PolishEvery}[p.String("polish")]
	if p.String("gamma_mode") == "real" {
		cfg.GammaMode = GammaReal
	}
	cfg.Init = map[string]Init{"warm": InitWarm, "kmeanspp": InitKMeansPP, "random": InitRandom}[p.String("init")]
	res, err := Run(ctx, z, d.N, d.P, start, cfg, rng)
	if err != nil {
		return nil, err
	}
	trace := make([]methods.TracePoint, len(res.Trace))
	for i, pr := range res.Trace {
		trace[i] = methods.TracePoint{Iter: i + 1, Best: pr.Centre, Mean: pr.F, Seconds: pr.Seconds}
	}
	return &methods.Release{
		Masked: microagg.Aggregate(d, res.Labels),
		Labels: res.Labels,
		Trace:  trace,
		Diag: diag.Diagnostics{
			Partition: &diag.Partition{K: k, Groups: res.Groups},
			Search: &diag.Search{ILStart: res.ILStart, GBest: res.G, CPU: res.CPU.Seconds(),
				Pattern: true, G0: res.G0, Evals: res.NEvals},
		},
		Info: map[string]any{"gmin": res.Gmin, "gmax": res.Gmax, "f_star": res.FStar},
	}, nil
}

// startLabels builds the start partition named by the start parameter.
func startLabels(ctx context.Context, ds *datasets.Dataset, z []float64, k int, p methods.Params, rng *rand.Rand) ([]int32, error) {
	s := p.String("start")
	n, d := ds.N, ds.P
	switch {
	case s == "mdav":
		l, err := microagg.MDAV(ctx, z, n, d, k, methods.Threads(ctx))
		if err != nil {
			return nil, fmt.Errorf("dfo: start mdav: %w", err)
		}
		return l, nil
	case s == "gsms":
		l, err := microagg.GSMS(ctx, z, n, d, k, methods.Threads(ctx))
		if err != nil {
			return nil, fmt.Errorf("dfo: start gsms: %w", err)
		}
		return l, nil
	case s == "random":
		if rng == nil {
			return nil, fmt.Errorf("dfo: start random: nil *rand.Rand")
		}
		g0 := p.Int("g0")
		if g0 == 0 {
			g0 = n / k
		}
		return RandomStart(n, g0, rng), nil
	case strings.HasPrefix(s, "labels:"):
		return readLabels(strings.TrimPrefix(s, "labels:"), n)
	}
	m, err := startMethod(s)
	if err != nil {
		return nil, err
	}
	raw := map[string]string{"k": strconv.Itoa(k), "standardize": p.String("standardize")}
	mp, err := m.Info().Resolve(raw)
	if err != nil {
		return nil, fmt.Errorf("dfo: start %s: %w", s, err)
	}
	rel, err := m.Protect(ctx, ds, mp, rng)
	if err != nil {
		return nil, fmt.Errorf("dfo: start %s: %w", s, err)
	}
	return rel.Labels, nil
}

// startMethod returns the registered partitioning method named s, usable as a start: it
// partitions and has the parameters k and standardize.
func startMethod(s string) (methods.Method, error) {
	m, err := methods.Lookup(s)
	if err != nil || s == "dfo" {
		return nil, fmt.Errorf("dfo: %w start=%q: want mdav, gsms, random, labels:FILE or a partitioning method", methods.ErrBadParam, s)
	}
	in := m.Info()
	has := func(name string) bool {
		for _, ps := range in.Params {
			if ps.Name == name {
				return true
			}
		}
		return false
	}
	if !in.Partitions || !has("k") || !has("standardize") {
		return nil, fmt.Errorf("dfo: %w start=%q: the method does not partition with k and standardize", methods.ErrBadParam, s)
	}
	return m, nil
}

// InputFiles implements methods.FileReader: the file of start=labels:FILE.
func (Method) InputFiles(_ *datasets.Dataset, p methods.Params, _ methods.Run) []string {
	if s := p.String("start"); strings.HasPrefix(s, "labels:") {
		return []string{strings.TrimPrefix(s, "labels:")}
	}
	return nil
}

// readLabels reads one integer group id per line (an optional non-numeric header line and
// blank lines are skipped; a line's first comma-separated field is used).
func readLabels(path string, n int) ([]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dfo: start labels: %w", err)
	}
	defer f.Close()
	var out []int32
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		field, _, _ := strings.Cut(strings.TrimSpace(sc.Text()), ",")
		field = strings.Trim(field, `" `)
		if field == "" {
			continue
		}
		v, err := strconv.ParseInt(field, 10, 32)
		if err != nil {
			if line == 1 {
				continue // header
			}
			return nil, fmt.Errorf("dfo: start labels: %s:%d: %q is not a group id", path, line, field)
		}
		if v < 0 {
			return nil, fmt.Errorf("dfo: start labels: %s:%d: negative group id %d", path, line, v)
		}
		out = append(out, int32(v))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dfo: start labels: %w", err)
	}
	if len(out) != n {
		return nil, fmt.Errorf("dfo: start labels: %s has %d labels for %d records", path, len(out), n)
	}
	return out, nil
}
