package methods_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// unlabelled claims a partition but returns none: the partition check must refuse it, alone
// and wrapped.
type unlabelled struct{}

func (unlabelled) Info() methods.Info {
	return methods.Info{Name: "test_unlabelled", Description: "claims a partition, returns no labels", Partitions: true,
		Params: []methods.ParamSpec{{Name: "k", Kind: methods.Int, Default: "3"}}}
}

func (unlabelled) Protect(_ context.Context, d *datasets.Dataset, _ methods.Params, _ *rand.Rand) (*methods.Release, error) {
	return &methods.Release{Masked: d.Clone()}, nil
}

func init() { methods.Register(unlabelled{}) }

// A chain keeps every record in its row, so it passes the inner partition through: a wrapped
// microaggregation passes the partition check with the inner method's labels (before the fix
// the chain dropped them: "0 labels for 12 records"), and a wrapped method that claims a
// partition and returns no labels still fails it.
func TestChainPartition(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 12; i++ {
		b.WriteString(strings.Join([]string{itoa(i*i%17 - 3), itoa(i * 7 % 11)}, ","))
		b.WriteByte('\n')
	}
	d, err := datasets.ReadCSV(strings.NewReader(b.String()), "t.csv", datasets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	protect := func(name string) (methods.Info, methods.Params, *methods.Release) {
		t.Helper()
		m, err := methods.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		in := m.Info()
		p, err := in.Resolve(map[string]string{"k": "3"})
		if err != nil {
			t.Fatal(err)
		}
		rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return in, p, rel
	}
	innerInfo, _, inner := protect("ma_mdav")
	if len(inner.Labels) != d.N {
		t.Fatalf("ma_mdav: %d labels for %d records", len(inner.Labels), d.N)
	}
	for _, name := range []string{"revmap(ma_mdav)", "restrict(ma_mdav)", "restrict(revmap(ma_mdav))"} {
		in, p, rel := protect(name)
		if !in.Partitions || in.BoundedGroups != innerInfo.BoundedGroups {
			t.Errorf("%s: Info promises Partitions %v, BoundedGroups %v; want the inner method's true, %v", name, in.Partitions, in.BoundedGroups, innerInfo.BoundedGroups)
		}
		if !slices.Equal(rel.Labels, inner.Labels) {
			t.Errorf("%s: labels %v, want the inner method's %v", name, rel.Labels, inner.Labels)
		}
		if err := methods.CheckPartition(in, p, rel.Masked.N, rel.Labels); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if rel.Diag.Partition == nil || rel.Diag.Partition.Groups != 4 {
			t.Errorf("%s: Diag.Partition %+v, want 4 groups", name, rel.Diag.Partition)
		}
	}
	for _, name := range []string{"test_unlabelled", "revmap(test_unlabelled)"} {
		in, p, rel := protect(name)
		err := methods.CheckPartition(in, p, rel.Masked.N, rel.Labels)
		if err == nil || !errors.Is(err, methods.ErrPartition) || !strings.Contains(err.Error(), name+": partition violates the method's promise: 0 labels for 12 records") {
			t.Errorf("%s: %v, want the error \"0 labels for 12 records\"", name, err)
		}
	}
}
