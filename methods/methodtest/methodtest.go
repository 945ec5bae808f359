// Package methodtest checks that a protection method keeps the contract of methods.Method, so
// that a new method can be tested in one line:
//
//	func TestConformance(t *testing.T) {
//		methodtest.Check(t, MyMethod{}, map[string]string{"k": "3"}, data)
//	}
//
// Check verifies that the method leaves its input untouched, gives the same release for the
// same seed, gives the same release whatever the thread budget (methods.WithThreads), returns
// a valid partition when it declares one (Info.Partitions: canonical labels, groups of at least
// k records when it has a parameter k, one released row per group), returns an error for a
// cancelled context, rejects negative values of its numeric parameters with an error (never a
// panic), and — when it is not randomized — needs no random generator. docs/extending.md shows
// it in use.
package methodtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// Check runs every conformance check of m with the raw parameters on d, reporting failures
// through t. raw may be nil (defaults).
func Check(t testing.TB, m methods.Method, raw map[string]string, d *datasets.Dataset) {
	t.Helper()
	for _, err := range Problems(m, raw, d) {
		t.Errorf("%s: %v", m.Info().Name, err)
	}
}

// Problems returns what Check would report, one error per failed check.
func Problems(m methods.Method, raw map[string]string, d *datasets.Dataset) (errs []error) {
	in := m.Info()
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	p, err := in.Resolve(raw)
	if err != nil {
		return []error{fmt.Errorf("parameters %v: %w", raw, err)}
	}
	if v, ok := m.(methods.Validator); ok {
		if err := v.Validate(d, p); err != nil {
			return []error{fmt.Errorf("validate on %s: %w (choose a dataset the method accepts)", d.Name, err)}
		}
	}
	ctx := context.Background()
	before := d.Clone()
	r1, err := protect(m, methods.WithThreads(ctx, 1), d, p, 42)
	if err != nil {
		return []error{fmt.Errorf("protect: %w", err)}
	}
	if !slices.Equal(d.Data, before.Data) || !slices.Equal(d.Names, before.Names) || d.N != before.N || d.P != before.P {
		bad("the input dataset was modified")
	}
	if r1.Masked == nil || r1.Masked.N != d.N || r1.Masked.P != d.P || !slices.Equal(r1.Masked.Names, d.Names) {
		bad("the release does not have the input's shape and column names")
		return errs
	}
	if r2, err := protect(m, methods.WithThreads(ctx, 1), d, p, 42); err != nil || !same(r1, r2) {
		bad("two runs with the same seed differ (err %v)", err)
	}
	if r4, err := protect(m, methods.WithThreads(ctx, 4), d, p, 42); err != nil || !same(r1, r4) {
		bad("the release depends on the thread budget (1 vs 4 goroutines; err %v)", err)
	}
	if !in.Randomized {
		rel, err := safeProtect(m, ctx, d, p, nil)
		if err != nil || !same(r1, rel) {
			bad("Randomized is false but Protect without a generator fails or differs: %v", err)
		}
	}
	if in.Partitions {
		errs = append(errs, partitionProblems(r1, d, p)...)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := protect(m, cctx, d, p, 42); err == nil {
		bad("Protect with a cancelled context returned no error")
	}
	for _, ps := range in.Params {
		if ps.Kind != methods.Int && ps.Kind != methods.Float {
			continue
		}
		r := map[string]string{}
		for k, v := range raw {
			r[k] = v
		}
		r[ps.Name] = "-1"
		q, err := in.Resolve(r)
		if err != nil {
			continue // rejected by the declared range
		}
		if v, ok := m.(methods.Validator); ok {
			if err := v.Validate(d, q); err != nil {
				continue
			}
		}
		if _, err := protect(m, ctx, d, q, 42); err == nil {
			bad("parameter %s = -1 was accepted (give it a range or reject it in Validate)", ps.Name)
		}
	}
	return errs
}

// protect runs m with a generator seeded by seed, turning a panic into an error.
func protect(m methods.Method, ctx context.Context, d *datasets.Dataset, p methods.Params, seed uint64) (*methods.Release, error) {
	return safeProtect(m, ctx, d, p, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
}

func safeProtect(m methods.Method, ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (rel *methods.Release, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rel, err = m.Protect(ctx, d, p, rng)
	if err == nil && (rel == nil || rel.Masked == nil) {
		err = fmt.Errorf("nil release")
	}
	return rel, err
}

// same reports whether two releases have identical values (NaN equal to NaN) and labels.
func same(a, b *methods.Release) bool {
	if a == nil || b == nil || a.Masked == nil || b.Masked == nil || len(a.Masked.Data) != len(b.Masked.Data) {
		return false
	}
	for i, v := range a.Masked.Data {
		w := b.Masked.Data[i]
		if v != w && !(v != v && w != w) {
			return false
		}
	}
	return slices.Equal(a.Labels, b.Labels)
}

// partitionProblems checks the labels of a partitioning method.
func partitionProblems(rel *methods.Release, d *datasets.Dataset, p methods.Params) (errs []error) {
	l := rel.Labels
	if len(l) != d.N {
		return []error{fmt.Errorf("partitions is true but there are %d labels for %d records", len(l), d.N)}
	}
	next := int32(0)
	size := map[int32]int{}
	first := map[int32]int{}
	for i, g := range l {
		if g < 0 || g > next {
			return []error{fmt.Errorf("labels are not canonical (record %d has group %d; groups must be numbered 0, 1, … by first member)", i, g)}
		}
		if g == next {
			next++
			first[g] = i
		}
		size[g]++
		fr := rel.Masked.Row(first[g])
		if !slices.Equal(rel.Masked.Row(i), fr) {
			errs = append(errs, fmt.Errorf("records %d and %d are in group %d but are released differently", first[g], i, g))
			break
		}
	}
	if slices.Contains(p.Names(), "k") {
		k := p.Int("k")
		for g, s := range size {
			if s < k {
				errs = append(errs, fmt.Errorf("group %d has %d records, fewer than k = %d", g, s, k))
				break
			}
		}
	}
	return errs
}
