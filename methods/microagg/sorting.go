package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/methods"
)

// The sorting methods of docs/microaggregation.md §3.4, §3.5, §3.8, §3.12 and §3.13:
// each orders the records along one direction and cuts the order into groups, with
// FixedGroups (simple, single, pca, pppca) or optimally with SegmentDP (mhm).

// varParam selects a column among the dataset's columns (0-based).
func varParam(doc string) methods.ParamSpec {
	return methods.ParamSpec{Name: "var", Kind: methods.Int, Default: "0", Min: 0, Max: math.Inf(1), Doc: doc}
}

// checkVar returns an error if column v does not exist.
func checkVar(v, d int) error {
	if v >= d {
		return fmt.Errorf("%w var=%d: the dataset has %d columns", methods.ErrBadParam, v, d)
	}
	return nil
}

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "simple",
			Description:   "fixed-size groups of k consecutive records in file order, no sorting (sdcMicro simple)",
			Params:        []methods.ParamSpec{kParam, standardizeParam},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(_ context.Context, _ []float64, n, _, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			return FixedGroups(order, k), nil, nil
		},
	})
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "single",
			Description:   "fixed-size groups of k after sorting by one variable (sdcMicro single)",
			Params:        []methods.ParamSpec{kParam, standardizeParam, varParam("the sort column")},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(_ context.Context, z []float64, _, d, k int, p methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			v := p.Int("var")
			if err := checkVar(v, d); err != nil {
				return nil, nil, err
			}
			return FixedGroups(sortedBy(column(z, d, v)), k), nil, nil
		},
	})
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "pca",
			Description:   "fixed-size groups of k after sorting by the first principal component (sdcMicro pca)",
			Params:        []methods.ParamSpec{kParam, standardizeParam},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(_ context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			if n < 2 {
				return make([]int32, n), nil, nil
			}
			v, deg := PC1(z, n, d)
			s := Project(nil, z, covariance.Means(z, n, d), v)
			var info map[string]any
			if deg {
				info = map[string]any{"pc1_degenerate": true}
			}
			return FixedGroups(sortedBy(s), k), info, nil
		},
	})
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "pppca",
			Description:   "fixed-size groups of k after sorting by the projection-pursuit first component (sdcMicro pppca)",
			Params:        []methods.ParamSpec{kParam, standardizeParam},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			v, m := PP1(z, n, d, methods.Threads(ctx))
			return FixedGroups(sortedBy(Project(nil, z, m, v)), k), nil, nil
		},
	})
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:        "mhm",
			Description: "Hansen–Mukherjee optimal segmentation of the records sorted by one variable (groups k..2k−1)",
			Params: []methods.ParamSpec{kParam, standardizeParam, varParam("the sort column"),
				{Name: "cost", Kind: methods.String, Default: "univariate", Choices: []string{"univariate", "multivariate"},
					Doc: "segment cost: SSE of the sort column (the seed's MHM) or of all columns"}},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(_ context.Context, z []float64, _, d, k int, p methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			v := p.Int("var")
			if err := checkVar(v, d); err != nil {
				return nil, nil, err
			}
			return MHM(z, d, k, v, p.String("cost") == "multivariate"), nil, nil
		},
	})
}

// MHM returns the canonical labels of Hansen and Mukherjee's optimal univariate
// microaggregation of the row-major table z with d columns (docs/microaggregation.md
// §3.8, MAGGA study L944-1017): the records are sorted by column v (stable) and cut by SegmentDP
// into consecutive groups of k..2k−1 records minimizing the SSE of column v, or of all columns
// when multivariate is true. The univariate result is optimal for the 1-D SSE of column v.
//
// It panics if k < 1, v is not a column or there are fewer than k rows. Cost O(n log n) for
// the sort plus O(n·k) (O(n·k·d) multivariate).
func MHM(z []float64, d, k, v int, multivariate bool) []int32 {
	if v < 0 || v >= d {
		panic("microagg: MHM: bad column")
	}
	order := sortedBy(column(z, d, v))
	cols := []int{v}
	if multivariate {
		cols = nil
	}
	ends, _ := SegmentDP(z, d, order, cols, k)
	return SegmentLabels(order, ends)
}
