package microagg

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(mdavMethod{})
}

// mdavMethod is the registered `mdav` method.
type mdavMethod struct{}

var _ methods.Validator = mdavMethod{}

func (mdavMethod) Info() methods.Info {
	return methods.Info{
		Name:          "mdav",
		Description:   "Maximum Distance to Average Vector microaggregation (fixed-size groups of k)",
		Params:        []methods.ParamSpec{kParam, standardizeParam},
		Partitions:    true,
		BoundedGroups: true,
		Missing:       missingMDAV,
	}
}

func (mdavMethod) Validate(d *datasets.Dataset, p methods.Params) error {
	return validateKMissing("mdav", d, p, 2, true)
}

func (m mdavMethod) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Validate's checks; the z-scores' own (no constant column) is space's, which returns the
	// same error
	na, err := validateShape("mdav", d, p, 2, true)
	if err != nil {
		return nil, err
	}
	if na {
		return protectMissing(ctx, "mdav", d, p)
	}
	z, err := space(d, p)
	if err != nil {
		return nil, fmt.Errorf("mdav: %w", err)
	}
	labels, err := mdavOwned(ctx, z, d.N, d.P, p.Int("k"), methods.Threads(ctx)) // z: this call's own
	if err != nil {
		return nil, fmt.Errorf("mdav: %w", err)
	}
	return &methods.Release{
		Masked: aggregateInto(z, d, labels), // z is this call's own table, no longer needed
		Labels: labels,
		Diag:   partitionDiag(labels),
	}, nil
}
