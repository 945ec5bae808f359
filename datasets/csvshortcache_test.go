package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestShortCacheEqualsAppendShortest: the cached formatting is appendShortest's byte for byte,
// on sequences drawn from pools of 1 to 100,000 values (so from all hits, through colliding
// slots, to the cache turning itself off), with special values, subnormals, huge and whole
// numbers, and two values that share a slot written alternately.
func TestShortCacheEqualsAppendShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.MaxFloat64, 2.2250738585072014e-308, 1e21, 1e-7,
		123456, 999999, 1e6, -1e6 + 1, 0.1, 1.0 / 3}
	random := func() float64 {
		switch r.IntN(4) {
		case 0:
			return math.Float64frombits(r.Uint64())
		case 1:
			return float64(r.IntN(3_000_000) - 1_500_000)
		case 2:
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
	}
	for _, size := range []int{1, 10, 500, 5000, 100_000} {
		pool := make([]float64, size)
		for i := range pool {
			pool[i] = random()
		}
		var c shortCache
		var got, want []byte
		for i := 0; i < 20_000; i++ {
			v := pool[r.IntN(size)]
			got = c.append(got[:0], v)
			want = appendShortest(want[:0], v)
			if string(got) != string(want) {
				t.Fatalf("pool of %d, value %d (bits %#x): cached %q, appendShortest %q", size, i, math.Float64bits(v), got, want)
			}
		}
		if size <= 500 && c.off {
			t.Errorf("pool of %d: the cache turned off after %d lookups with %d hits", size, c.lookups, c.hits)
		}
	}
	// Distinct values: the cache turns itself off after shortProbe lookups.
	var d shortCache
	for range 2 * shortProbe {
		d.append(nil, r.NormFloat64())
	}
	if !d.off || d.lookups != shortProbe {
		t.Errorf("distinct values: off = %v after %d lookups with %d hits; want off after %d", d.off, d.lookups, d.hits, shortProbe)
	}
	// Two values in one slot, alternately: every lookup misses and rewrites the slot.
	var c shortCache
	a := 0.1
	slot := func(v float64) uint64 { return (math.Float64bits(v) * 0x9e3779b97f4a7c15) >> (64 - shortSlotBits) }
	b := a
	for bits := math.Float64bits(a) + 1; ; bits++ {
		if v := math.Float64frombits(bits); slot(v) == slot(a) {
			b = v
			break
		}
	}
	for i := range 10 {
		v := []float64{a, b}[i%2]
		if got, want := string(c.append(nil, v)), string(appendShortest(nil, v)); got != want {
			t.Fatalf("colliding values, step %d: cached %q, want %q", i, got, want)
		}
	}
}

// BenchmarkShortCache formats 10^5 numbers: a pool of 100 values (a microaggregated column) and
// distinct values, with and without the cache (a cache turned off formats with appendShortest).
func BenchmarkShortCache(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := make([]float64, 100)
	for i := range pool {
		pool[i] = r.NormFloat64()
	}
	repeated, distinct := make([]float64, 100_000), make([]float64, 100_000)
	for i := range repeated {
		repeated[i] = pool[r.IntN(len(pool))]
		distinct[i] = r.NormFloat64()
	}
	for _, in := range []struct {
		name string
		v    []float64
	}{{"repeated", repeated}, {"distinct", distinct}} {
		for _, cached := range []bool{true, false} {
			name := in.name + "/cache"
			if !cached {
				name = in.name + "/nocache" // appendShortest
			}
			b.Run(name, func(b *testing.B) {
				buf := make([]byte, 0, 32)
				cpu0 := processCPUNanos()
				for b.Loop() {
					var c shortCache
					c.off = !cached
					for _, v := range in.v {
						buf = c.append(buf[:0], v)
					}
				}
				if cpu1 := processCPUNanos(); cpu0 >= 0 && cpu1 >= 0 {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N*len(in.v)), "cpu-ns/number")
				}
			})
		}
	}
}
