package microagg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(onedimsMethod{})
}

// onedimsMethod is the registered `onedims` method (individual ranking).
type onedimsMethod struct{}

var (
	_ methods.Method    = onedimsMethod{}
	_ methods.Validator = onedimsMethod{}
)

func (onedimsMethod) Info() methods.Info {
	return methods.Info{
		Name:        "onedims",
		Description: "individual ranking: each column microaggregated on its own (sdcMicro onedims; no common partition)",
		Params: []methods.ParamSpec{kParam, standardizeParam,
			{Name: "grouping", Kind: methods.String, Default: "fixed", Choices: []string{"fixed", "optimal"},
				Doc: "per-column groups: FixedGroups of the sorted column, or its optimal segmentation (MHM)"}},
	}
}

func (onedimsMethod) Validate(d *datasets.Dataset, p methods.Params) error {
	return validateK("onedims", d, p, 2)
}

func (m onedimsMethod) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	out, err := OneDims(d, p.Int("k"), p.String("grouping") == "optimal")
	if err != nil {
		return nil, fmt.Errorf("onedims: %w", err)
	}
	return &methods.Release{Masked: out, Info: map[string]any{}}, nil
}

// OneDims returns the individual-ranking release of d (docs/microaggregation.md §3.7,
// sdcMicro onedims): every column j independently is sorted (stable), cut into groups of k
// with FixedGroups (or, when optimal, into the SegmentDP optimum on column j alone, i.e. MHM)
// and each value replaced by its group's mean of column j in raw units. There is no common
// partition: the release is not multivariate k-anonymous.
//
// Sorting raw values or z-scores gives the same order, so no standardization is needed. d is
// not modified. It returns an error if k < 1 or d has fewer than k rows. Cost O(d·n log n)
// (plus O(d·n·k) when optimal).
func OneDims(d *datasets.Dataset, k int, optimal bool) (*datasets.Dataset, error) {
	if k < 1 || d.N < k {
		return nil, fmt.Errorf("k = %d with %d rows", k, d.N)
	}
	out := make([]float64, len(d.Data))
	for j := 0; j < d.P; j++ {
		col := d.Col(j)
		order := sortedBy(col)
		var labels []int32
		if optimal {
			ends, _ := SegmentDP(datasets.PowerScaled(col), 1, order, nil, k) // a copy: cheap next to the DP
			labels = SegmentLabels(order, ends)
		} else {
			labels = FixedGroups(order, k)
		}
		sizes := GroupSizes(labels)
		mean := make([]float64, len(sizes))
		for i, l := range labels {
			mean[l] += col[i]
		}
		overflow := false
		for g, s := range sizes {
			mean[g] /= float64(s)
			overflow = overflow || math.IsInf(mean[g], 0)
		}
		if overflow {
			rescaledMeans(datasets.New(d.Name, []string{d.Names[j]}, d.N, 1, col), labels, mean, sizes)
		}
		for i, l := range labels {
			out[i*d.P+j] = mean[l]
		}
	}
	return datasets.New(d.Name, append([]string(nil), d.Names...), d.N, d.P, out), nil
}
