package methodtest

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// faulty is a method with one switchable fault per check.
type faulty struct{ fault string }

func (f faulty) Info() methods.Info {
	return methods.Info{Name: "faulty_" + f.fault, Description: "test", Partitions: f.fault == "labels" || f.fault == "small",
		Randomized: f.fault == "seed", Params: []methods.ParamSpec{{Name: "k", Kind: methods.Int, Default: "2"}}}
}

var calls int

func (f faulty) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if f.fault != "ctx" && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if f.fault != "neg" && p.Int("k") < 0 {
		return nil, methods.ErrBadParam
	}
	out := d.Clone()
	calls++
	switch f.fault {
	case "mutate":
		d.Data[0]++
	case "seed":
		out.Data[0] += float64(calls) // differs between calls with the same seed
	case "threads":
		out.Data[0] += float64(methods.Threads(ctx))
	case "rng":
		if rng == nil {
			return nil, context.Canceled
		}
	case "labels":
		return &methods.Release{Masked: out, Labels: make([]int32, d.N-1)}, nil
	case "small":
		l := make([]int32, d.N)
		for i := range l {
			l[i] = int32(i) // singletons, k = 2
		}
		return &methods.Release{Masked: out, Labels: l}, nil
	}
	return &methods.Release{Masked: out}, nil
}

func TestProblemsCatchFaults(t *testing.T) {
	d := datasets.New("d", []string{"a", "b"}, 4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	for fault, want := range map[string]string{
		"mutate":  "input dataset was modified",
		"seed":    "same seed differ",
		"threads": "thread budget",
		"rng":     "without a generator",
		"labels":  "3 labels for 4 records",
		"small":   "fewer than k = 2",
		"ctx":     "cancelled context",
		"neg":     "k = -1 was accepted",
	} {
		errs := Problems(faulty{fault}, nil, d.Clone())
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		if !strings.Contains(strings.Join(msgs, "; "), want) {
			t.Errorf("fault %s: problems %q, want one containing %q", fault, msgs, want)
		}
	}
	if errs := Problems(faulty{"none"}, nil, d); len(errs) != 0 {
		t.Errorf("a correct method has problems: %v", errs)
	}
}
