package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// lDiversitySets is the definition lDiversity implements (and its implementation until session
// 15): per class of records with the same key bytes (keyfreq.AppendKey), the set of the
// sensitive values' keyfreq.Bits.
func lDiversitySets(d []float64, n, p int, cols []int, sc int) []float64 {
	class := map[string]map[uint64]bool{}
	keys := make([]string, n)
	var buf []byte
	for i := 0; i < n; i++ {
		buf = keyfreq.AppendKey(buf[:0], d, p, i, cols)
		k := string(buf)
		keys[i] = k
		if class[k] == nil {
			class[k] = map[uint64]bool{}
		}
		class[k][keyfreq.Bits(d[i*p+sc])] = true
	}
	l := make([]float64, n)
	for i, k := range keys {
		l[i] = float64(len(class[k]))
	}
	return l
}

// TestLDiversityMatchesSets compares lDiversity with lDiversitySets on random tables: keys
// with missing values, −0 beside 0 and several NaN payloads; sensitive columns with few values
// (the bit set of classes × values) and with about one value a record (the sorted pairs),
// missing sensitive values included.
func TestLDiversityMatchesSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 30))
	nans := []float64{math.NaN(), math.Float64frombits(0x7ff8000000000005), math.Float64frombits(0xfff8000000000000)}
	for it := 0; it < 60; it++ {
		n := 1 + rng.IntN(3000)
		keys := 1 + rng.IntN(4)
		p := keys + 1
		levels := 1 + rng.IntN(12)
		values := 1 + rng.IntN(8)
		if it%3 == 0 {
			values = 4 * n // about one value a record: the sorted pairs
		}
		pMiss := []float64{0, 0.02, 0.3}[it%3]
		d := make([]float64, n*p)
		for i := 0; i < n; i++ {
			for j := 0; j < keys; j++ {
				v := float64(rng.IntN(levels))
				switch {
				case rng.Float64() < pMiss:
					v = nans[rng.IntN(len(nans))]
				case v == 0 && rng.IntN(2) == 0:
					v = math.Copysign(0, -1)
				}
				d[i*p+j] = v
			}
			s := float64(rng.IntN(values)) / 4
			if rng.Float64() < pMiss {
				s = nans[rng.IntN(len(nans))]
			}
			d[i*p+keys] = s
		}
		names := make([]string, p)
		cols := make([]int, keys)
		for j := range names {
			names[j] = string(rune('a' + j))
			if j < keys {
				cols[j] = j
			}
		}
		ds := &datasets.Dataset{Name: "ldiv", Names: names, N: n, P: p, Data: d}
		in := &Input{Orig: ds, Masked: ds, Opt: Options{Keys: names[:keys], Sensitive: names[keys]}}
		got, note := lDiversity(in)
		if note != "" {
			t.Fatalf("case %d: note %q", it, note)
		}
		want := lDiversitySets(d, n, p, cols, keys)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("case %d (n %d, %d keys, %d levels, %d values, missing %g): l[%d] = %g, want %g",
					it, n, keys, levels, values, pMiss, i, got[i], want[i])
			}
		}
	}
}
