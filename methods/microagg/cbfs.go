package microagg

import (
	"context"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
	"github.com/sdcbench/sdcbench/methods"
)

// centroidParam selects the reference point of the MDAV-like methods.
func centroidParam(def string) methods.ParamSpec {
	return methods.ParamSpec{Name: "centroid", Kind: methods.String, Default: def,
		Choices: []string{"global", "remaining"},
		Doc:     "reference point: the mean of all records, or of the records not yet grouped"}
}

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "cbfs",
			Description:   "centroid-based fixed-size microaggregation (groups of k around the record farthest from the centroid)",
			Params:        []methods.ParamSpec{kParam, standardizeParam, centroidParam("global")},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, p methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			labels, err := CBFS(ctx, z, n, d, k, p.String("centroid") == "global")
			return labels, nil, err
		},
	})
}

// CBFS returns the canonical labels of centroid-based fixed-size microaggregation of the n×d
// row-major table z (docs/microaggregation.md §3.10, MAGGA study L1128-1140):
//
//	while |R| ≥ 2k:
//	    c = mean of all records (global) or of R (otherwise)
//	    r = argmax_{i∈R} ‖z_i − c‖²        (ties: lowest index)
//	    emit the k nearest to z_r within R (ordered by squared distance, then index)
//	emit R                                 (k ≤ |R| ≤ 2k−1)
//
// Every group has k records except the last (k..2k−1). With a global centroid the seed
// records are taken in one precomputed order. ctx is checked once per group. z is not
// modified; it panics if k < 1, n < k or len(z) != n·d. Cost about n²·d/(2k) multiply-adds,
// O(n) extra memory. From indexMinRows rows (and up to indexMaxDims columns) the farthest
// record and the k nearest come from MDAV's exact indexes instead (same labels,
// docs/scaling.md); the remaining centroid is still a pass over R, O(n²·d/k) additions in all.
func CBFS(ctx context.Context, z []float64, n, d, k int, global bool) ([]int32, error) {
	return cbfs(ctx, z, n, d, k, global, useIndex(n, d))
}

// cbfs is CBFS; with indexed, the queries come from an mdavindex.Index.
func cbfs(ctx context.Context, z []float64, n, d, k int, global, indexed bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: CBFS: bad shape or k")
	}
	R := newActiveSet(z, n, d)
	labels := make([]int32, n)
	c := make([]float64, d)
	var seeds []int // global: records by decreasing distance to the centroid, ties by index
	if global {
		R.mean(c)
		R.distTo(c)
		neg := make([]float64, n)
		for i, v := range R.dist[:n] {
			neg[i] = -v
		}
		seeds = sortedBy(neg)
	}
	if indexed {
		return cbfsIndexed(ctx, R, k, global, seeds)
	}
	grouped := make([]bool, n)
	var g int32
	for R.len() >= 2*k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var r int
		if global {
			for grouped[seeds[0]] {
				seeds = seeds[1:]
			}
			r = seeds[0]
		} else {
			R.mean(c)
			R.distTo(c)
			r = R.idx[R.farthest()]
		}
		R.distTo(R.row(r))
		near := R.nearest(k)
		for _, t := range near {
			labels[R.idx[t]] = g
			grouped[R.idx[t]] = true
		}
		g++
		R.remove(near)
	}
	for _, i := range R.idx {
		labels[i] = g
	}
	return Canonical(labels), nil
}

// cbfsIndexed is CBFS's loop with the farthest-from-centroid query (remaining centroid) and
// the k-NN query answered by an mdavindex.Index over the live records. The centroid is R.mean over
// the live records in ascending order, as in the scan; seeds is the global seed order.
func cbfsIndexed(ctx context.Context, R *activeSet, k int, global bool, seeds []int) ([]int32, error) {
	n, d := len(R.idx), R.d
	ix := mdavindex.New(R.z, n, d, indexOptions)
	live := newLiveRows(R.z, n, d)
	labels := make([]int32, n)
	c := make([]float64, d)
	var near []int
	var g int32
	for ix.Alive() >= 2*k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := nextSeed(global, &seeds, live, ix, c)
		near = append(near[:0], ix.Nearest(r, k)...)
		for _, i := range near {
			labels[i] = g
			live.kill(i)
			ix.Delete(i)
		}
		g++
	}
	for _, i := range live.records() {
		labels[i] = g
	}
	return Canonical(labels), nil
}
