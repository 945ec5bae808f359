package keyfreq

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// countPairwise is Count as it was before the pattern join (commit 11c70d7): every distinct
// tuple with a missing key compared with every distinct tuple, O(u·c·m). It is the reference
// of TestCountEqualsPairwise.
func countPairwise(d []float64, n, p int, cols []int, w []float64) (f, F []float64) {
	type tuple struct {
		row       int // first record with this tuple
		cnt, wsum float64
		missing   bool
	}
	idx := map[string]int{}
	var tuples []tuple
	of := make([]int, n)
	var buf []byte
	for i := 0; i < n; i++ {
		buf = AppendKey(buf[:0], d, p, i, cols)
		t, ok := idx[string(buf)]
		if !ok {
			t = len(tuples)
			idx[string(buf)] = t
			miss := false
			for _, l := range cols {
				miss = miss || math.IsNaN(d[i*p+l])
			}
			tuples = append(tuples, tuple{row: i, missing: miss})
		}
		of[i] = t
		tuples[t].cnt++
		if w != nil {
			tuples[t].wsum += w[i]
		} else {
			tuples[t].wsum++
		}
	}
	compatible := func(a, b int) bool {
		ra, rb := d[a*p:(a+1)*p], d[b*p:(b+1)*p]
		for _, l := range cols {
			x, y := ra[l], rb[l]
			if x != y && x == x && y == y {
				return false
			}
		}
		return true
	}
	tf, tF := make([]float64, len(tuples)), make([]float64, len(tuples))
	for t, tu := range tuples {
		tf[t], tF[t] = tu.cnt, tu.wsum
	}
	for t, tu := range tuples {
		if !tu.missing {
			continue
		}
		tf[t], tF[t] = 0, 0 // recount everything compatible, itself included
		for s, su := range tuples {
			if compatible(tu.row, su.row) {
				tf[t] += su.cnt
				tF[t] += su.wsum
				if !su.missing && s != t {
					tf[s] += tu.cnt
					tF[s] += tu.wsum
				}
			}
		}
	}
	f, F = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		f[i], F[i] = tf[of[i]], tF[of[i]]
	}
	return f, F
}

// randomTable returns an n×p table whose first m columns are keys with levels[k] categories
// drawn from vals (a value per category), each cell missing with probability na, and whose
// last column is a weight (with some exact duplicates and a wide range, so that the order of
// the weighted sums shows).
func randomTable(r *rand.Rand, n, m int, levels []int, vals func(k, c int) float64, na float64) []float64 {
	p := m + 1
	d := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for k := 0; k < m; k++ {
			d[i*p+k] = vals(k, r.IntN(levels[k]))
			if r.Float64() < na {
				d[i*p+k] = math.NaN()
			}
		}
		switch r.IntN(3) {
		case 0:
			d[i*p+m] = 1
		case 1:
			d[i*p+m] = 0.1 * float64(1+r.IntN(30))
		default:
			d[i*p+m] = math.Exp(20 * r.Float64())
		}
	}
	return d
}

// TestCountEqualsPairwise: on random tables with missing values (few and many keys, few and
// many categories, small whole codes, −0 and +0, infinities, fractional and large values, up
// to every cell missing), Count's f and F, unweighted and weighted, equal the pairwise
// reference bit for bit.
func TestCountEqualsPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 2))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -3.5, 1e300, 4096, 4095, 2.5}
	valueSets := map[string]func(k, c int) float64{
		"codes":   func(k, c int) float64 { return float64(c + 1) },
		"special": func(k, c int) float64 { return special[(c+k)%len(special)] },
		"large":   func(k, c int) float64 { return 1e6*float64(c) + 0.25 },
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(200)
		m := 1 + r.IntN(6)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(6)
		}
		na := []float64{0, 0.02, 0.1, 0.3, 0.7, 1}[r.IntN(6)]
		for name, vals := range valueSets {
			d := randomTable(r, n, m, levels, vals, na)
			p := m + 1
			cols := r.Perm(m)[:1+r.IntN(m)]
			w := column(d, n, p, m)
			for _, ww := range [][]float64{nil, w} {
				f, F := Count(d, n, p, cols, ww)
				rf, rF := countPairwise(d, n, p, cols, ww)
				if !slices.Equal(f, rf) || !bitsEqual(F, rF) {
					t.Fatalf("trial %d %s n=%d cols=%v na=%g weighted=%v:\nf = %v\nwant %v\nF = %v\nwant %v",
						trial, name, n, cols, na, ww != nil, f, rf, F, rF)
				}
				// Each kind of join alone gives the same.
				codes, lv := codeColumns(d, n, p, cols)
				h := newHasher(lv)
				ts := distinct(codes, n, len(cols), lv, ww, h)
				for _, how := range []int{streamJoin, enumJoin} {
					tf, tF := countJoin(ts, h, ww != nil, how)
					for i, tu := range ts.of {
						if tf[tu] != rf[i] || math.Float64bits(tF[tu]) != math.Float64bits(rF[i]) {
							t.Fatalf("trial %d %s join %d weighted=%v: record %d: f, F = %v, %v, want %v, %v",
								trial, name, how, ww != nil, i, tf[tu], tF[tu], rf[i], rF[i])
						}
					}
				}
			}
		}
	}
}

// TestCountVerifiedHash: the verified hasher (taken when the exact packed hash would
// overflow 64 bits), and a degenerate one under which every tuple collides, give the counts
// of the exact one; and Count takes it for 12 keys of 60 categories, equal to the pairwise
// reference there.
func TestCountVerifiedHash(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	const n, m = 300, 12
	levels := make([]int, m)
	for k := range levels {
		levels[k] = 60
	}
	d := randomTable(r, n, m, levels, func(k, c int) float64 { return float64(c) }, 0.2)
	cols := []int{0, 1, 2, 3}
	codes, lv := codeColumns(d, n, m+1, cols)
	exact := newHasher(lv)
	if !exact.exact {
		t.Fatal("4 keys of 60 categories must pack into 64 bits")
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = d[i*(m+1)+m]
	}
	ets := distinct(codes, n, len(cols), lv, w, exact)
	ef, eF := count(ets, exact, true)
	for name, h := range map[string]hasher{"mix": mixHasher(len(cols)), "degenerate": {mult: make([]uint64, len(cols))}} {
		ts := distinct(codes, n, len(cols), lv, w, h)
		for _, how := range []int{streamJoin, enumJoin} {
			f, F := countJoin(ts, h, true, how)
			if !slices.Equal(ts.of, ets.of) || !slices.Equal(f, ef) || !bitsEqual(F, eF) {
				t.Errorf("%s hasher, join %d: counts differ from the exact hasher's", name, how)
			}
		}
	}
	all := make([]int, m)
	for k := range all {
		all[k] = k
	}
	if _, lv := codeColumns(d, n, m+1, all); newHasher(lv).exact {
		t.Fatal("12 keys of about 60 categories must not pack into 64 bits")
	}
	for _, ww := range [][]float64{nil, w} {
		f, F := Count(d, n, m+1, all, ww)
		rf, rF := countPairwise(d, n, m+1, all, ww)
		if !slices.Equal(f, rf) || !bitsEqual(F, rF) {
			t.Fatalf("weighted=%v: Count with the verified hasher differs from the pairwise reference", ww != nil)
		}
	}
}

func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestDistinctIndexes: on random tables with and without missing values, the tuples found
// through the direct array and through the hash table, from the row-major codes and from the
// column-by-column mixed-radix keys (codeKeys, codes read off the keys), and by radix sorting
// the keys (distinctSorted), are the same tuples
// in the same order with the same counts and weight sums, and Count over every index kind
// gives f and F bit for bit equal to the pairwise reference.
func TestDistinctIndexes(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	vals := func(k, c int) float64 { return float64(3*c + k) }
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(300)
		m := 1 + r.IntN(6)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(12)
		}
		na := []float64{0, 0, 0.02, 0.2}[r.IntN(4)]
		d := randomTable(r, n, m, levels, vals, na)
		p := m + 1
		cols := r.Perm(m)[:1+r.IntN(m)]
		w := column(d, n, p, m)
		codes, lv := codeColumns(d, n, p, cols)
		h := newHasher(lv)
		keys, klv, ok := codeKeys(d, n, p, cols)
		if !ok || !h.exact || !slices.Equal(lv, klv) {
			t.Fatalf("trial %d: codeKeys ok=%v levels %v, codeColumns levels %v exact=%v", trial, ok, klv, lv, h.exact)
		}
		for i := range keys {
			if keys[i] != h.hash(codes[i*len(cols):(i+1)*len(cols)]) {
				t.Fatalf("trial %d: record %d: codeKeys %d, hash of codes %d", trial, i, keys[i], h.hash(codes[i*len(cols):(i+1)*len(cols)]))
			}
		}
		for _, ww := range [][]float64{nil, w} {
			rf, rF := countPairwise(d, n, p, cols, ww)
			ref := distinctIndexed(keys, codes, n, len(cols), lv, ww, h, false)
			for _, kind := range []struct {
				name  string
				codes []uint32
				dense bool
			}{{"table/keys", nil, false}, {"dense/codes", codes, true}, {"dense/keys", nil, true}, {"sorted", nil, false}} {
				ts := distinctIndexed(keys, kind.codes, n, len(cols), lv, ww, h, kind.dense)
				if kind.name == "sorted" {
					ts = distinctSorted(keys, n, len(cols), lv, ww, h)
				}
				if !slices.Equal(ts.codes, ref.codes) || !slices.Equal(ts.hash, ref.hash) || !slices.Equal(ts.of, ref.of) ||
					!slices.Equal(ts.cnt, ref.cnt) || !bitsEqual(ts.wsum, ref.wsum) {
					t.Fatalf("trial %d %s weighted=%v: tuples differ from the hash table's on the codes", trial, kind.name, ww != nil)
				}
				tf, tF := count(ts, h, ww != nil)
				for i, tu := range ts.of {
					if tf[tu] != rf[i] || math.Float64bits(tF[tu]) != math.Float64bits(rF[i]) {
						t.Fatalf("trial %d %s weighted=%v: record %d: f, F = %v, %v, want %v, %v",
							trial, kind.name, ww != nil, i, tf[tu], tF[tu], rf[i], rF[i])
					}
				}
			}
		}
	}
}
