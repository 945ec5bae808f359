package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestShortCacheEqualsAppendShortest: the cached formatting is appendShortest's byte for byte,
// on sequences drawn from pools of 1 to 100,000 values (so from all hits, through full sets,
// to the cache turning itself off), with special values, subnormals, huge and whole numbers,
// and values that share a set written in turn.
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
		if size <= 500 && (c.off || c.lookups-c.hits > size+size/5) {
			t.Errorf("pool of %d: %d hits in %d lookups (off: %v)", size, c.hits, c.lookups, c.off)
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
	// More values than ways in one set, in turn: every lookup misses and replaces an entry;
	// as many as the ways: all hit after the first round.
	a := 0.1
	same := []float64{a}
	for bits := math.Float64bits(a) + 1; len(same) < shortWays+1; bits++ {
		if v := math.Float64frombits(bits); shortSet(bits) == shortSet(math.Float64bits(a)) {
			same = append(same, v)
		}
	}
	for _, ways := range []int{shortWays + 1, shortWays} {
		var c shortCache
		for i := range 10 * ways {
			v := same[i%ways]
			if got, want := string(c.append(nil, v)), string(appendShortest(nil, v)); got != want {
				t.Fatalf("%d values in one set, step %d: cached %q, want %q", ways, i, got, want)
			}
		}
		if wantHits := 9 * ways; ways == shortWays && c.hits != wantHits || ways > shortWays && c.hits != 0 {
			t.Errorf("%d values in one set, in turn: %d hits in %d lookups", ways, c.hits, c.lookups)
		}
	}
}

// BenchmarkShortCache formats 10^5 numbers: pools of 100 and 500 values (a microaggregated
// column; the 500 values of ma_mdav's release of 10^5 × 5 at k = 1,000) and distinct values, with and without the cache (a cache turned off formats with appendShortest).
func BenchmarkShortCache(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := make([]float64, 500)
	for i := range pool {
		pool[i] = r.NormFloat64()
	}
	repeated, repeated500, distinct := make([]float64, 100_000), make([]float64, 100_000), make([]float64, 100_000)
	for i := range repeated {
		repeated[i] = pool[r.IntN(100)]
		repeated500[i] = pool[r.IntN(500)]
		distinct[i] = r.NormFloat64()
	}
	for _, in := range []struct {
		name string
		v    []float64
	}{{"repeated", repeated}, {"repeated500", repeated500}, {"distinct", distinct}} {
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
