package methods

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrPartition is wrapped by CheckPartition's errors.
var ErrPartition = errors.New("partition violates the method's promise")

// CheckPartition verifies the release of a method whose Info says it partitions: one label per
// record, every group with at least k records (k the method's "k" parameter, when it has one)
// and, for methods whose Info sets BoundedGroups, at most 2k−1. The runner and `sdcbench
// protect` call it after every Protect, so a method that breaks its promise fails the run
// instead of passing with status ok (docs/analysis.md "Partition checks").
func CheckPartition(in Info, p Params, n int, labels []int32) error {
	if !in.Partitions {
		return nil
	}
	if len(labels) != n {
		return fmt.Errorf("%s: %w: %d labels for %d records", in.Name, ErrPartition, len(labels), n)
	}
	hasK := false
	for _, ps := range in.Params {
		if ps.Name == "k" {
			hasK = true
		}
	}
	if !hasK {
		return nil
	}
	k := p.Int("k")
	groups, sizes := groupSizes(labels)
	for i, g := range groups {
		s := sizes[i]
		if s < k {
			return fmt.Errorf("%s: %w: group %d has %d records, fewer than k = %d", in.Name, ErrPartition, g, s, k)
		}
		if in.BoundedGroups && s > 2*k-1 {
			return fmt.Errorf("%s: %w: group %d has %d records, more than 2k−1 = %d", in.Name, ErrPartition, g, s, 2*k-1)
		}
	}
	return nil
}

// groupSizes returns the distinct labels in ascending order and the number of records of each:
// counted in a slice indexed by label when every label is in [0, len(labels)) (canonical
// labels are), in a map otherwise.
func groupSizes(labels []int32) (groups []int32, sizes []int) {
	lo, hi := int32(0), int32(-1)
	for _, l := range labels {
		lo, hi = min(lo, l), max(hi, l)
	}
	if lo >= 0 && int(hi) < len(labels) {
		count := make([]int, int(hi)+1)
		for _, l := range labels {
			count[l]++
		}
		for g, c := range count {
			if c > 0 {
				groups, sizes = append(groups, int32(g)), append(sizes, c)
			}
		}
		return groups, sizes
	}
	size := map[int32]int{}
	for _, l := range labels {
		size[l]++
	}
	groups = slices.Sorted(maps.Keys(size))
	for _, g := range groups {
		sizes = append(sizes, size[g])
	}
	return groups, sizes
}
