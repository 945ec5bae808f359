package keyfreq

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDistinctPacked: on random tables with missing keys (1–8 keys, small whole codes, other
// values, −0, 0–100 % missing, duplicated records), distinctPacked finds the tuples of
// distinctKeys on the same codes exactly: the tuple of each record, and per tuple its codes,
// number, count and weight sum (bit for bit, weights read in place from a column in the middle
// of the table, with ties, ±Inf and NaN among them); where splitTuples cannot split the numbers
// it declines and leaves the codes as they were.
func TestDistinctPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 4))
	declined := 0
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(500)
		m := 1 + r.IntN(8)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN([]int{4, 30, 255}[r.IntN(3)])
		}
		na := []float64{0, 0.02, 0.1, 0.3, 1}[r.IntN(5)]
		d, wcol := weightedTable(r, n, m, levels, na)
		p := m + 2
		cols := r.Perm(m)[:1+r.IntN(m)]
		for _, wc := range []int{-1, wcol} {
			buf, lv, _, ok := codeRows(d, n, p, cols, false)
			if !ok {
				t.Fatalf("trial %d: codeRows declined", trial)
			}
			h := newHasher(lv)
			keys, ok := rowKeys(buf, n, len(cols), lv)
			if !ok {
				continue
			}
			var w weights
			if wc >= 0 {
				w = weights{d: d, p: p, c: wc}
			}
			want := distinctKeys(keys, n, len(cols), lv, w.slice(n), h)
			before := slices.Clone(buf)
			got, ok := distinctPacked(buf, n, len(cols), lv, w, h)
			if !ok {
				declined++
				if !slices.Equal(buf, before) {
					t.Fatalf("trial %d: distinctPacked declined but changed the codes", trial)
				}
				continue
			}
			if !slices.Equal(got.of, want.of) || !slices.Equal(got.codes, want.codes) ||
				!slices.Equal(got.hash, want.hash) || !slices.Equal(got.cnt, want.cnt) || !sameFloats(got.wsum, want.wsum) {
				t.Fatalf("trial %d wcol %d: distinctPacked differs from distinctKeys", trial, wc)
			}
		}
	}
	// Eight keys of 255 values: the numbers exceed 32 bits, so distinctPacked declines.
	n, m := 600, 8
	levels := slices.Repeat([]int{255}, m)
	d, _ := weightedTable(r, n, m, levels, 0.05)
	buf, lv, _, _ := codeRows(d, n, m+2, []int{0, 1, 2, 3, 4, 5, 6, 7}, false)
	before := slices.Clone(buf)
	if _, ok := distinctPacked(buf, n, m, lv, weights{}, newHasher(lv)); ok || !slices.Equal(buf, before) {
		t.Errorf("8 keys of 255 values: ok = %v, want a decline with the codes unchanged", ok)
	}
	if declined > 100 {
		t.Errorf("distinctPacked declined %d of the random cases", declined)
	}
}

// column returns column j of the row-major n × p table d (the weights, in these tests).
func column(d []float64, n, p, j int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = d[i*p+j]
	}
	return x
}

// firstCols returns the key columns 0, 1, …, m−1.
func firstCols(m int) []int {
	cols := make([]int, m)
	for k := range cols {
		cols[k] = k
	}
	return cols
}

// weightedTable returns an n×(m+2) table: m keys with levels[k] categories (whole codes, or
// for some keys −0 and other values), each cell missing with probability na, records
// duplicated at random; column m a weight (ties, fractions, wide magnitudes, and in a sixth
// of the tables a few ±Inf and NaN) and column m+1 filler. It returns the weight column.
func weightedTable(r *rand.Rand, n, m int, levels []int, na float64) ([]float64, int) {
	p := m + 2
	odd := []float64{math.Copysign(0, -1), 2.5, -7, 1e300, 4096, 1e-300}
	special := r.IntN(6) == 0
	d := make([]float64, n*p)
	for i := 0; i < n; i++ {
		if i > 0 && r.IntN(5) == 0 {
			copy(d[i*p:i*p+m], d[(i-1)*p:(i-1)*p+m])
		} else {
			for k := 0; k < m; k++ {
				c := r.IntN(levels[k])
				v := float64(c)
				if k%3 == 2 && c < len(odd) {
					v = odd[c]
				}
				if r.Float64() < na {
					v = math.NaN()
				}
				d[i*p+k] = v
			}
		}
		var w float64
		switch r.IntN(4) {
		case 0:
			w = 1
		case 1:
			w = 0.1 * float64(1+r.IntN(30))
		case 2:
			w = math.Exp(30 * (r.Float64() - 0.5))
		default:
			w = 5 + 15*r.ExpFloat64()
		}
		if special && r.IntN(50) == 0 {
			w = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(3)]
		}
		d[i*p+m] = w
		d[i*p+m+1] = float64(i)
	}
	return d, m
}

// TestFrequenciesManyPatterns: on random tables of 3–7 keys with 2–30 categories and 0–30 % of
// the cells missing (so tens of missingness patterns, both kinds of walk index, and the joins
// between incomparable patterns), Frequencies with the weights read in place and Count give
// the pairwise reference's f and F bit for bit (ties, ±Inf and NaN weights included); and on
// tables of up to 40 binary keys, where a walk's next key can lie beyond the 31 positions a
// fill records, Count still does.
func TestFrequenciesManyPatterns(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	lattice := 0
	for trial := 0; trial < 120; trial++ {
		n := 50 + r.IntN(1500)
		m := 3 + r.IntN(5)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 2 + r.IntN(29)
		}
		na := []float64{0, 0.02, 0.05, 0.1, 0.3}[r.IntN(5)]
		d, wcol := weightedTable(r, n, m, levels, na)
		p := m + 2
		cols := r.Perm(m)[:2+r.IntN(m-1)]
		w := make([]float64, n)
		for i := range w {
			w[i] = d[i*p+wcol]
		}
		for _, wc := range []int{-1, wcol} {
			var ww []float64
			if wc >= 0 {
				ww = w
			}
			rf, rF := countPairwise(d, n, p, cols, ww)
			fr := Frequencies(d, n, p, cols, wc)
			f, F := Count(d, n, p, cols, ww)
			for i, tu := range fr.Of {
				if fr.F[tu] != rf[i] || !sameFloat(fr.FW[tu], rF[i]) {
					t.Fatalf("trial %d wcol %d: Frequencies of record %d: %v %v, want %v %v", trial, wc, i, fr.F[tu], fr.FW[tu], rf[i], rF[i])
				}
				if f[i] != rf[i] || !sameFloat(F[i], rF[i]) {
					t.Fatalf("trial %d wcol %d: Count of record %d: %v %v, want %v %v", trial, wc, i, f[i], F[i], rf[i], rF[i])
				}
			}
		}
		codes, lv := codeColumns(d, n, p, cols)
		h := newHasher(lv)
		ts := distinct(codes, n, len(cols), lv, nil, h)
		if _, _, ok := countLattice(ts, h, false, patterns(ts), autoIndex); ok {
			lattice++
		}
	}
	if lattice < 60 {
		t.Errorf("countLattice ran in only %d of the tables", lattice)
	}
	for trial := 0; trial < 20; trial++ {
		n := 20 + r.IntN(300)
		m := 32 + r.IntN(9)
		levels := slices.Repeat([]int{2}, m)
		d := randomTable(r, n, m, levels, func(k, c int) float64 { return float64(c) }, []float64{0.02, 0.05, 0.1}[r.IntN(3)])
		p := m + 1
		// Few distinct values on most keys, so that tuples share them and walks go far.
		for i := 0; i < n; i++ {
			for k := 0; k < m-6; k++ {
				if d[i*p+k] == d[i*p+k] {
					d[i*p+k] = 0
				}
			}
		}
		cols := firstCols(m)
		w := column(d, n, p, m)
		for _, ww := range [][]float64{nil, w} {
			rf, rF := countPairwise(d, n, p, cols, ww)
			f, F := Count(d, n, p, cols, ww)
			if !slices.Equal(f, rf) || !sameFloats(F, rF) {
				t.Fatalf("trial %d (%d binary keys) weighted=%v: Count differs from the pairwise reference", trial, m, ww != nil)
			}
		}
	}
}

// sameFloat reports whether x and y have the same bits, or are both NaN: which NaN a sum with
// NaN terms gives depends on the operand order the compiler picks for each addition (it differs
// between the pairwise reference and the code of before this test, too), and no measure
// shows it.
func sameFloat(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
}

// sameFloats is sameFloat on every element of a and b (of equal length).
func sameFloats(a, b []float64) bool { return slices.EqualFunc(a, b, sameFloat) }

// TestDivideBy: the high word of x·divideBy(r) is ⌊x/r⌋ for radixes 2–300 and 2^16 ± 1, at the
// ends of the range of x, around the multiples of r and at random.
func TestDivideBy(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 6))
	radixes := []uint32{65535, 65536, 65537}
	for d := uint32(2); d <= 300; d++ {
		radixes = append(radixes, d)
	}
	for _, d := range radixes {
		xs := []uint32{0, 1, d - 1, d, d + 1, math.MaxUint32, math.MaxUint32 - 1, math.MaxUint32 / d * d, math.MaxUint32/d*d - 1}
		for i := 0; i < 2000; i++ {
			q := r.Uint32() / d
			xs = append(xs, q*d, q*d+d-1, r.Uint32())
		}
		M := divideBy(d)
		for _, x := range xs {
			if hi, _ := bits.Mul64(uint64(x), M); uint32(hi) != x/d {
				t.Fatalf("⌊%d/%d⌋: got %d, want %d", x, d, hi, x/d)
			}
		}
	}
	if divideBy(1) != 0 {
		t.Errorf("divideBy(1) = %d, want 0", divideBy(1))
	}
}
