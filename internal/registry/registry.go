// Package registry is the name → value table behind methods.Register and metrics.Register:
// safe for concurrent use, filled from init functions, listed in name order.
package registry

import (
	"fmt"
	"slices"
	"sync"
)

// Registry maps names to values of type T. The zero value is empty and ready to use.
type Registry[T any] struct {
	mu sync.RWMutex
	m  map[string]T
}

// Add registers v under name. It panics on an empty or duplicate name: registration happens in
// init functions, where a clash is a programming error.
func (r *Registry[T]) Add(kind, name string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == "" {
		panic(fmt.Sprintf("%s: empty name", kind))
	}
	if _, dup := r.m[name]; dup {
		panic(fmt.Sprintf("%s: duplicate name %q", kind, name))
	}
	if r.m == nil {
		r.m = map[string]T{}
	}
	r.m[name] = v
}

// Get returns the value registered under name.
func (r *Registry[T]) Get(name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.m[name]
	return v, ok
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.m))
	for n := range r.m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Values returns the registered values in name order.
func (r *Registry[T]) Values() []T {
	names := r.Names()
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]T, len(names))
	for i, n := range names {
		out[i] = r.m[n]
	}
	return out
}
