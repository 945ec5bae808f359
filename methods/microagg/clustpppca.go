package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:        "clustpppca",
			Description: "CLARA clusters, PPPCA sorting inside each cluster, fixed-size groups of k (sdcMicro clustpppca)",
			Params: []methods.ParamSpec{kParam, standardizeParam,
				{Name: "nc", Kind: methods.Int, Default: "8", Min: 1, Max: math.Inf(1),
					Doc: "number of CLARA clusters (ignored when nc_range is set)"},
				{Name: "nc_range", Kind: methods.String, Default: "",
					Doc: `"a..b": run every nc in a..b and keep the best by select_by (MAGGA study uses 3..8)`},
				{Name: "select_by", Kind: methods.String, Default: "sse_sst", Choices: []string{"sse_sst"},
					Doc: "criterion that picks nc within nc_range"},
				varParam("sort column for clusters with fewer records than columns")},
			Randomized: true,
			Partitions: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, p methods.Params, rng *rand.Rand) ([]int32, map[string]any, error) {
			lo, hi, err := ncRange(p.Int("nc"), p.String("nc_range"))
			if err != nil {
				return nil, nil, err
			}
			if hi > n {
				return nil, nil, fmt.Errorf("%w: nc = %d exceeds the %d records", methods.ErrBadParam, hi, n)
			}
			v := p.Int("var")
			if err := checkVar(v, d); err != nil {
				return nil, nil, err
			}
			labels, nc, err := ClustPPPCA(ctx, z, n, d, k, lo, hi, v, methods.Threads(ctx), rng)
			return labels, map[string]any{"nc": nc}, err
		},
	})
}

// ncRange parses nc_range ("a..b", or "" for nc alone).
func ncRange(nc int, s string) (lo, hi int, err error) {
	if s == "" {
		return nc, nc, nil
	}
	a, b, ok := strings.Cut(s, "..")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("%w nc_range=%q: want a..b with 1 ≤ a ≤ b", methods.ErrBadParam, s)
	}
	return lo, hi, nil
}

// ClustPPPCA returns the canonical labels of sdcMicro's clustpppca on the n×d row-major table
// z (docs/microaggregation.md §3.6, MAGGA study L1064-1070) and the number of clusters it
// kept. For each nc = ncLo..ncHi in turn (all drawing from rng one after another): CLARA
// clusters the records; each cluster's members, in cluster order, are sorted by their PP1
// score computed on that cluster alone (by column varsort when the cluster has fewer records
// than columns); the concatenated sequence is cut by FixedGroups, so groups may straddle
// clusters. The nc with the lowest SSE (equivalently sse_sst) is kept, ties to the smallest.
//
// PP1 uses workers goroutines (0 means GOMAXPROCS); the result does not depend on workers.
// ctx is checked once per nc. z is not modified; it panics if k < 1, n < k, ncLo < 1,
// ncHi > n or len(z) != n·d. Cost per nc: CLARA plus O(Σ_c n_c²·d).
func ClustPPPCA(ctx context.Context, z []float64, n, d, k, ncLo, ncHi, varsort, workers int, rng *rand.Rand) ([]int32, int, error) {
	if k < 1 || n < k || ncLo < 1 || ncHi > n || ncLo > ncHi || len(z) != n*d {
		panic("microagg: ClustPPPCA: bad shape, k or nc")
	}
	var best []int32
	bestSSE, bestNC := math.Inf(1), 0
	for nc := ncLo; nc <= ncHi; nc++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		clusters := CLARA(z, n, d, nc, rng)
		members := make([][]int, nc)
		for i, c := range clusters {
			members[c] = append(members[c], i)
		}
		seq := make([]int, 0, n)
		for _, M := range members {
			sub := make([]float64, len(M)*d)
			for t, i := range M {
				copy(sub[t*d:(t+1)*d], z[i*d:(i+1)*d])
			}
			var key []float64
			if len(M) < d {
				key = column(sub, d, varsort)
			} else {
				v, m := PP1(sub, len(M), d, workers)
				key = Project(nil, sub, m, v)
			}
			for _, t := range sortedBy(key) {
				seq = append(seq, M[t])
			}
		}
		labels := FixedGroups(seq, k)
		if sse := sseOf(z, d, labels); sse < bestSSE {
			best, bestSSE, bestNC = labels, sse, nc
		}
	}
	return best, bestNC, nil
}
