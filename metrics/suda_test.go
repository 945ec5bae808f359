package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// sudaTable returns an n×(m+1) table of m keys with levels[k] categories each (whole codes,
// −0 for some zeros, three NaN payloads for missing cells at rate na, a run of duplicated
// records now and then) and a weight column, named k0…, w.
func sudaTable(r *rand.Rand, n, m int, levels []int, na float64) *datasets.Dataset {
	nans := []float64{math.NaN(), math.Float64frombits(0x7ff8000000000005), math.Float64frombits(0xfff8000000000000)}
	p := m + 1
	d := make([]float64, n*p)
	for i := 0; i < n; i++ {
		if i > 0 && r.IntN(6) == 0 {
			copy(d[i*p:(i+1)*p], d[(i-1)*p:i*p])
			continue
		}
		for k := 0; k < m; k++ {
			v := float64(r.IntN(levels[k]))
			switch {
			case r.Float64() < na:
				v = nans[r.IntN(len(nans))]
			case v == 0 && r.IntN(2) == 0:
				v = math.Copysign(0, -1)
			case levels[k] > 100:
				v = v*1e5 + 0.5 // beyond the small-code table
			}
			d[i*p+k] = v
		}
		d[i*p+m] = 1 + float64(r.IntN(50))
	}
	names := make([]string, p)
	for k := range m {
		names[k] = "k" + itoa(k)
	}
	names[m] = "w"
	return &datasets.Dataset{Name: "suda", Names: names, N: n, P: p, Data: d}
}

// randomKeyCase draws case it of the random key tables of the SUDA and risky-cells tests:
// 1–8 keys of 1 to 2000 categories and minN to 1499+minN records (the first four cases: 8
// keys of 2000 categories and 1500 records, whose mixed-radix tuple numbers overflow 64
// bits), with 0–40 % of the key cells missing (sudaTable).
func randomKeyCase(r *rand.Rand, it, minN int) (ds *datasets.Dataset, m, n int, levels []int, na float64) {
	m = 1 + r.IntN(8)
	n = minN + r.IntN(1500)
	levels = make([]int, m)
	for k := range levels {
		levels[k] = []int{1, 2, 3, 6, 20, 300, 2000}[r.IntN(7)]
	}
	if it < 4 {
		m, n = 8, 1500
		levels = []int{2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000}
	}
	na = []float64{0, 0, 0.02, 0.1, 0.4}[r.IntN(5)]
	return sudaTable(r, n, m, levels, na), m, n, levels, na
}

// TestSUDAMatchesDefinition: on random tables (1–8 keys of 1 to 2000 categories, 0–40 % of the
// key cells missing with several NaN payloads and −0, duplicated records, so that the counts
// go to direct counters, to the hash map, and, with 8 keys of many values, to tuples whose
// mixed-radix numbers overflow 64 bits), under both rules for missing values and both kinds
// of score, sudaOf's scores, DIS values and per-record contributions, the suda_contrib_max
// contributions and the dis_suda measures equal those of sudaReference (the former
// implementation: every subset counted over all records) bit for bit.
func TestSUDAMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 29))
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	for it := 0; it < 150; it++ {
		ds, m, n, levels, na := randomKeyCase(r, it, 1)
		opt := Options{Keys: ds.Names[:m], Weight: "w"}
		if r.IntN(3) == 0 {
			opt.SUDAMissing = "category"
		}
		if r.IntN(3) == 0 {
			opt.SUDAScores = "normalized"
		}
		in := &Input{Orig: ds, Masked: ds, Opt: opt}
		got, want := sudaOf(in), sudaReference(&Input{Orig: ds, Masked: ds, Opt: opt})
		what := func() string {
			return fmt.Sprintf("case %d (n %d, levels %v, missing %g, %+v)", it, n, levels, na, opt)
		}
		if got.note != want.note {
			t.Fatalf("%s: note %q, want %q", what(), got.note, want.note)
		}
		if !same(got.score, want.score) || !same(got.dis, want.dis) || !same(got.contribRecords(), want.contrib) {
			t.Fatalf("%s: scores, DIS or contributions differ:\nscore %v\nwant  %v\ndis %v\nwant %v",
				what(), got.score, want.score, got.dis, want.dis)
		}
		// The measures over the shared result, against the reference's sums.
		_, pct, err := SUDAContributions(in)
		if err != nil {
			t.Fatalf("%s: %v", what(), err)
		}
		wpct := make([]float64, m)
		for i, sc := range want.score {
			for c := range wpct {
				wpct[c] += want.contrib[i*m+c] * sc
			}
		}
		total := sum(want.score)
		for c := range wpct {
			wpct[c] = 100 * wpct[c] / total
		}
		if !same(pct, wpct) {
			t.Fatalf("%s: contributions %v, want %v", what(), pct, wpct)
		}
		if v, w := disSUDA(in, false).Value, sum(want.dis)/float64(n); math.Float64bits(v) != math.Float64bits(w) {
			t.Fatalf("%s: dis_suda_mean %v, want %v", what(), v, w)
		}
	}
}

// TestSUDATooManyKeys: the bound on n·2^m and on the keys is that of the definition.
func TestSUDATooManyKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 30))
	levels := make([]int, 12)
	for k := range levels {
		levels[k] = 2
	}
	ds := sudaTable(r, 1<<16, 12, levels, 0)
	in := &Input{Orig: ds, Masked: ds, Opt: Options{Keys: ds.Names[:12]}}
	if s := sudaOf(in); s.note != "dis_suda: too many key columns" {
		t.Errorf("2^16 records, 12 keys: note %q", s.note)
	}
}
