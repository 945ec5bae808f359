package microagg

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/internal/robust"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:        "rmdm",
			Description: "robust Mahalanobis-distance microaggregation (sdcMicro rmd): FAST-MCD ordering, Euclidean k-NN groups",
			Params: []methods.ParamSpec{kParam, standardizeParam,
				{Name: "singular", Kind: methods.String, Default: "auto", Choices: []string{"auto", "error"},
					Doc: "singular covariance: drop null directions and ridge (auto), or fail as sdcMicro does (error)"},
				{Name: "mcd_starts", Kind: methods.Int, Default: "500", Min: 1, Max: math.Inf(1),
					Doc: "random (d+1)-subsets of FAST-MCD"}},
			Randomized:    true,
			Partitions:    true,
			BoundedGroups: true,
			Example:       map[string]string{"mcd_starts": "10"},
		},
		part: func(ctx context.Context, z []float64, n, d, k int, p methods.Params, rng *rand.Rand) ([]int32, map[string]any, error) {
			opt := robust.MCDOptions{
				Starts:         p.Int("mcd_starts"),
				StrictSingular: p.String("singular") == "error",
				Workers:        methods.Threads(ctx),
			}
			labels, mcd, err := rmdm(ctx, z, n, d, k, opt, rng)
			if err != nil {
				return nil, nil, err
			}
			return labels, map[string]any{"mcd_dropped_dims": mcd.DroppedDims, "mcd_ridge": mcd.Ridge}, nil
		},
	})
}

// rmdmTreeMaxDims is the largest number of columns for which rmdm's groups come from the k-d
// tree: MDAV's (indexMaxDims; docs/scaling.md, "ma_rmd_sdc at d = 10").
const rmdmTreeMaxDims = indexMaxDims

// rmdmCompactMin is the tree size from which rmdm's grouping rebuilds the tree over the live
// records (mdavindex's default TreeRebuildMin).
const rmdmCompactMin = 4096

// rmdm returns the canonical labels of robust Mahalanobis-distance microaggregation on the
// n×d row-major table z, as sdcMicro's rmd does it (docs/microaggregation.md §3.3,
// MAGGA study L1142-1148), and the MCD estimate it used:
//
//	md_i = squared Mahalanobis distance of z_i under robust.FastMCD(z)   (computed once)
//	repeat ⌊n/k⌋ − 1 times:
//	    s = argmax_{i∈R} md_i                 (ties: lowest index)
//	    emit the k nearest to z_s within R    (Euclidean on z, then index; s comes first)
//	emit R                                    (k..2k−1 records)
//
// Every group has k records except the last. The Mahalanobis distance only orders the seed
// records. Randomness (the MCD starts) comes only from rng. When n ≤ d, MCD is undefined and
// every md_i is 0 (seeds in index order). ctx is checked once per group. z is not modified;
// it panics if k < 1, n < k or len(z) != n·d. Errors wrap robust.ErrSingularCovariance when
// opt.StrictSingular meets a singular covariance. Cost: FastMCD plus about n²·d/(2k).
func rmdm(ctx context.Context, z []float64, n, d, k int, opt robust.MCDOptions, rng *rand.Rand) ([]int32, *robust.MCDResult, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: rmdm: bad shape or k")
	}
	// the k-d tree of the grouping does not depend on the MCD: build it meanwhile
	var trees chan *mdavindex.Tree
	if n >= indexMinRows && d <= rmdmTreeMaxDims {
		trees = make(chan *mdavindex.Tree, 1)
		go func() { trees <- mdavindex.NewTree(z, n, d) }()
	}
	mcd := &robust.MCDResult{Distances: make([]float64, n)}
	if n > d {
		var err error
		if mcd, err = robust.FastMCD(ctx, z, n, d, opt, rng); err != nil {
			return nil, nil, err
		}
	}
	var tree *mdavindex.Tree
	if trees != nil {
		tree = <-trees
	}
	labels, err := rmdmGroups(ctx, z, n, d, k, mcd.Distances, tree)
	if err != nil {
		return nil, nil, err
	}
	return labels, mcd, nil
}

// rmdmGroups is rmdm's grouping given the seed distances md: by scans over the remaining
// records, or, with tree (a fresh k-d tree of z), the seeds from one sort of md (descending, lowest index on
// ties) and each group's k-NN from MDAV's k-d tree with deletion (mdavindex.Tree), whose
// distances are the scan's bit for bit, so the partition is the same (TestRMDMIndexedSame).
// The indexed path costs O(n log n) plus the k-NN queries instead of about n²·d/(2k).
func rmdmGroups(ctx context.Context, z []float64, n, d, k int, md []float64, tree *mdavindex.Tree) ([]int32, error) {
	labels := make([]int32, n)
	var g int32
	if tree != nil {
		order := make([]int32, n)
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			if c := cmp.Compare(md[b], md[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		done := make([]bool, n)
		var near []int
		var qs mdavindex.Query
		next := 0
		for iter := 0; iter < n/k-1; iter++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for done[order[next]] {
				next++
			}
			s := int(order[next])
			near = tree.Nearest(&qs, near[:0], z[s*d:(s+1)*d], k)
			for _, i := range near {
				labels[i] = g
				done[i] = true
				tree.Delete(i)
			}
			g++
			// rebuilt over the live records once a quarter is deleted, as MDAV's index does
			// (mdavindex.Index): k-NN queries then stop visiting dead rows
			if tree.Built() >= rmdmCompactMin && 4*tree.Live() <= 3*tree.Built() {
				tree = tree.Compact(z)
			}
		}
		for i, dn := range done {
			if !dn {
				labels[i] = g
			}
		}
		return Canonical(labels), nil
	}
	R := newActiveSet(z, n, d)
	for iter := 0; iter < n/k-1; iter++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt := 0
		for t, i := range R.idx {
			if md[i] > md[R.idx[bt]] {
				bt = t
			}
		}
		R.distTo(R.row(R.idx[bt]))
		near := R.nearest(k)
		for _, t := range near {
			labels[R.idx[t]] = g
		}
		g++
		R.remove(near)
	}
	for _, i := range R.idx {
		labels[i] = g
	}
	return Canonical(labels), nil
}
