package registry

import (
	"slices"
	"testing"
)

func TestRegistry(t *testing.T) {
	var r Registry[int]
	r.Add("test", "b", 2)
	r.Add("test", "a", 1)
	if v, ok := r.Get("a"); !ok || v != 1 {
		t.Errorf("Get(a) = %v, %v", v, ok)
	}
	if _, ok := r.Get("z"); ok {
		t.Error("Get(z) found something")
	}
	if !slices.Equal(r.Names(), []string{"a", "b"}) || !slices.Equal(r.Values(), []int{1, 2}) {
		t.Errorf("Names %v, Values %v", r.Names(), r.Values())
	}
	for _, name := range []string{"a", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Add(%q) did not panic", name)
				}
			}()
			r.Add("test", name, 9)
		}()
	}
}
