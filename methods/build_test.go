package methods_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func TestNewParamsAndApply(t *testing.T) {
	m, _ := methods.Lookup("mdav")
	p, err := methods.NewParams(m, methods.Set{"k": 5, "standardize": "none"})
	if err != nil || p.Int("k") != 5 || p.String("standardize") != "none" {
		t.Errorf("NewParams = %v, %v", p, err)
	}
	d, _ := datasets.Load("census")
	for _, c := range []struct {
		name string
		set  methods.Set
		want string
	}{
		{"mdav", methods.Set{"k": 1}, "k="},
		{"mdav", methods.Set{"k": []int{3}}, "unsupported value"},
		{"mdav", methods.Set{"kk": 3}, `did you mean "k"`},
		{"mdva", nil, `did you mean "mdav"`},
		{"mdav", methods.Set{"k": 600}, "k"},
	} {
		if _, err := methods.Apply(context.Background(), c.name, d, c.set, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%s, %v): %v, want an error containing %q", c.name, c.set, err, c.want)
		}
	}
}
