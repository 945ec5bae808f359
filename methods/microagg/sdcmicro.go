package microagg

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/internal/robust"
	"github.com/sdcbench/sdcbench/methods"
)

// The sdcMicro microaggregation variants of docs/perturbative.md: the calls
// microaggregation(method = "mdav" | "rmd" | "pca" | "onedims") as the perturbative study
// (Morais 2022, Universidade do Minho) used them. Each takes only k, computes in z-scores
// (sample SD) and releases group means in raw units; they share their code with mdav, rmdm,
// pca and onedims and differ from them only in the fixed settings below.

// sdcMCDStarts is the number of FAST-MCD starts of ma_rmd_sdc (robustbase's nsamp default).
const sdcMCDStarts = 500

func init() {
	methods.Register(sdcVariant{partitionMethod{
		info: methods.Info{
			Name:        "ma_mdav",
			Description: "sdcMicro microaggregation(method=\"mdav\"): MDAV on z-scores, fixed groups of k",
			Params:      []methods.ParamSpec{kParam},
			Partitions:  true,
			Missing:     missingMDAV,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			labels, err := mdavOwned(ctx, z, n, d, k, methods.Threads(ctx)) // z: Protect's own (partitioner)
			return labels, nil, err
		},
	}})
	methods.Register(sdcVariant{partitionMethod{
		info: methods.Info{
			Name: "ma_rmd_sdc",
			Description: "sdcMicro microaggregation(method=\"rmd\"): seeds by robust Mahalanobis distance " +
				"(robustbase-scaled FAST-MCD), Euclidean k-NN groups",
			Params:     []methods.ParamSpec{kParam},
			Randomized: true,
			Partitions: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, _ methods.Params, rng *rand.Rand) ([]int32, map[string]any, error) {
			opt := robust.MCDOptions{Starts: sdcMCDStarts, Workers: methods.Threads(ctx), Robustbase: true}
			labels, mcd, err := rmdm(ctx, z, n, d, k, opt, rng)
			if err != nil {
				return nil, nil, err
			}
			return labels, map[string]any{"mcd_dropped_dims": mcd.DroppedDims, "mcd_ridge": mcd.Ridge}, nil
		},
	}})
	methods.Register(sdcVariant{partitionMethod{
		info: methods.Info{
			Name:        "ma_pca_sdc",
			Description: "sdcMicro microaggregation(method=\"pca\"): blocks of k along the first principal component of the z-scores",
			Params:      []methods.ParamSpec{kParam},
			Partitions:  true,
		},
		part: func(_ context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			v, deg := PC1(z, n, d)
			var info map[string]any
			if deg {
				info = map[string]any{"pc1_degenerate": true}
			}
			return FixedGroups(sortedBy(Project(nil, z, covariance.Means(z, n, d), v)), k), info, nil
		},
	}})
	methods.Register(onedimsSDC{})
}

// sdcVariant is a partitionMethod that declares only k and always computes in z-scores.
type sdcVariant struct{ partitionMethod }

// zscored returns p (holding k) resolved against k and standardize = zscore.
func (m sdcVariant) zscored(p methods.Params) (methods.Params, error) {
	in := methods.Info{Name: m.info.Name, Params: []methods.ParamSpec{kParam, standardizeParam}}
	return in.Resolve(map[string]string{"k": p.Get("k"), "standardize": "zscore"})
}

func (m sdcVariant) Validate(d *datasets.Dataset, p methods.Params) error {
	q, err := m.zscored(p)
	if err != nil {
		return err
	}
	if m.info.Missing != "" {
		return validateKMissing(m.info.Name, d, q, 2, true)
	}
	return m.partitionMethod.Validate(d, q)
}

func (m sdcVariant) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	q, err := m.zscored(p)
	if err != nil {
		return nil, err
	}
	fin := finiteNumeric(d) // one pass, shared with the checks of partitionMethod
	if m.info.Missing != "" && !fin && d.HasMissing() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := m.Validate(d, p); err != nil {
			return nil, err
		}
		return protectMissing(ctx, m.info.Name, d, q)
	}
	return m.partitionMethod.protect(ctx, d, q, rng, fin)
}

// onedimsSDC is ma_onedims_sdc: individual ranking with fixed blocks of k per column.
type onedimsSDC struct{}

func (onedimsSDC) Info() methods.Info {
	return methods.Info{
		Name:        "ma_onedims_sdc",
		Description: "sdcMicro microaggregation(method=\"onedims\"): each column in blocks of k of its sorted values (not jointly k-anonymous)",
		Params:      []methods.ParamSpec{kParam},
	}
}

func (m onedimsSDC) Validate(d *datasets.Dataset, p methods.Params) error {
	q, err := methods.Info{Name: "ma_onedims_sdc", Params: []methods.ParamSpec{kParam, standardizeParam}}.
		Resolve(map[string]string{"k": p.Get("k"), "standardize": "none"})
	if err != nil {
		return err
	}
	return validateK("ma_onedims_sdc", d, q, 2)
}

func (m onedimsSDC) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	out, err := OneDims(d, p.Int("k"), false)
	if err != nil {
		return nil, fmt.Errorf("ma_onedims_sdc: %w", err)
	}
	return &methods.Release{Masked: out, Info: map[string]any{}}, nil
}
