package microagg

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
)

// partitioner computes a partition of the n rows of the row-major n×d distance-space table
// z with minimum group size k. It returns canonical labels and optional diagnostics. z is
// the caller's own table, which it no longer needs afterwards: a partitioner may overwrite
// it (ma_mdav's MDAV makes it its lane buffer, mdavOwned).
type partitioner func(ctx context.Context, z []float64, n, d, k int, p methods.Params, rng *rand.Rand) ([]int32, map[string]any, error)

// partitionMethod adapts a partitioner to methods.Method: it validates the input, builds the
// distance space (standardize: zscore|none), partitions, checks the post-condition that every
// group has k..2k−1 records (one group when n < 2k) and releases the group means in raw units.
type partitionMethod struct {
	info methods.Info
	part partitioner
}

var (
	_ methods.Method    = partitionMethod{}
	_ methods.Validator = partitionMethod{}
)

func (m partitionMethod) Info() methods.Info { return m.info }

// Validate rejects what every microaggregation rejects: k < 1, n < k, non-finite values and,
// when standardizing, constant columns.
func (m partitionMethod) Validate(d *datasets.Dataset, p methods.Params) error {
	return validateK(m.info.Name, d, p, 2)
}

func (m partitionMethod) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	return m.protect(ctx, d, p, rng, finiteNumeric(d))
}

// protect is Protect with finiteNumeric(d) known (fin).
func (m partitionMethod) protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand, fin bool) (*methods.Release, error) {
	name := m.info.Name
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Validate's checks; the z-scores' own (no constant column) is space's, which returns the
	// same error
	if _, err := validateShapeOf(name, d, p, 2, false, fin); err != nil {
		return nil, err
	}
	z, err := space(d, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.info.Randomized && rng == nil {
		return nil, fmt.Errorf("%s: nil *rand.Rand", name)
	}
	k := p.Int("k")
	labels, info, err := m.part(ctx, z, d.N, d.P, k, p, rng)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkPartition(labels, d.N, k); err != nil {
		return nil, fmt.Errorf("%s: internal error: %w", name, err)
	}
	// z is this call's own table, no longer needed: the release takes its memory
	return &methods.Release{Masked: aggregateInto(z, d, labels), Labels: labels, Diag: partitionDiag(labels), Info: info}, nil
}

// partitionDiag returns the typed diagnostics of a released partition: its number of groups.
// K is left 0 (not reported), as methods.Prepared.Protect's default for a release with labels
// has it: metrics' sse_sst_lb then keeps taking k from the smallest group, and the K of a
// stratified run's strata, which diag.Diagnostics.Merge adds up, stays 0.
func partitionDiag(labels []int32) diag.Diagnostics {
	return diag.Diagnostics{Partition: &diag.Partition{Groups: len(GroupSizes(labels))}}
}

// checkPartition verifies the feasibility post-condition of docs/microaggregation.md
// §0: n canonical labels whose groups have k..2k−1 members (so a single group when n < 2k).
func checkPartition(labels []int32, n, k int) error {
	if len(labels) != n {
		return fmt.Errorf("%d labels for %d records", len(labels), n)
	}
	next := int32(0)
	for i, l := range labels {
		if l > next || l < 0 {
			return fmt.Errorf("labels not canonical at record %d (label %d, next new %d)", i, l, next)
		}
		if l == next {
			next++
		}
	}
	for g, s := range GroupSizes(labels) {
		if s < k || s > 2*k-1 {
			return fmt.Errorf("group %d has %d records, want %d..%d", g, s, k, 2*k-1)
		}
	}
	return nil
}
