package keyfreq

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCodeRows: codeRows gives codeColumns' codes and levels, and rowKeys codeKeys' numbers,
// on random tables with missing values, −0 and +0, infinities, fractional, negative and large
// values; it declines more than 8 keys and more than 255 values in a column, and takes 255.
func TestCodeRows(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 6))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -3.5, 1e300, 4096, 4095, 2.5, -1}
	valueSets := map[string]func(k, c int) float64{
		"codes":   func(k, c int) float64 { return float64(c) },
		"special": func(k, c int) float64 { return special[(c+k)%len(special)] },
		"large":   func(k, c int) float64 { return 1e6*float64(c) + 0.25 },
	}
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(300)
		m := 1 + r.IntN(8)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(12)
		}
		na := []float64{0, 0, 0.05, 0.5, 1}[r.IntN(5)]
		for name, vals := range valueSets {
			d := randomTable(r, n, m, levels, vals, na)
			p := m + 1
			cols := r.Perm(m)[:1+r.IntN(m)]
			codes, lv := codeColumns(d, n, p, cols)
			buf, rlv, missing, ok := codeRows(d, n, p, cols, false)
			if !ok || !slices.Equal(lv, rlv) {
				t.Fatalf("trial %d %s: codeRows ok=%v levels %v, codeColumns %v", trial, name, ok, rlv, lv)
			}
			hasZero := false
			for i := range n {
				for k := range cols {
					c := codes[i*len(cols)+k]
					hasZero = hasZero || c == 0
					if got := rowCode(buf, i, k); got != uint64(c) {
						t.Fatalf("trial %d %s: record %d key %d: code %d, codeColumns %d", trial, name, i, k, got, c)
					}
				}
			}
			if missing != hasZero {
				t.Fatalf("trial %d %s: missing = %v, codes have a 0: %v", trial, name, missing, hasZero)
			}
			if cbuf, _, cmissing, cok := codeRows(d, n, p, cols, true); cok == hasZero || cmissing != hasZero || cok && !slices.Equal(cbuf, buf) {
				t.Fatalf("trial %d %s: complete keys only: ok=%v missing=%v, codes have a 0: %v", trial, name, cok, cmissing, hasZero)
			}
			keys, kok := rowKeys(buf, n, len(cols), rlv)
			ckeys, _, cok := codeKeys(d, n, p, cols)
			if kok != cok || !slices.Equal(keys, ckeys) {
				t.Fatalf("trial %d %s: rowKeys differ from codeKeys", trial, name)
			}
		}
	}
	// Limits: 9 keys; 256 and 255 distinct values in a column (whole and not).
	d := make([]float64, 300*9)
	if _, _, _, ok := codeRows(d, 300, 9, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, false); ok {
		t.Error("codeRows took 9 keys")
	}
	for _, c := range []struct {
		distinct int
		scale    float64
		ok       bool
	}{{255, 1, true}, {256, 1, false}, {255, 0.5, true}, {256, 0.5, false}} {
		d := make([]float64, 300)
		for i := range d {
			d[i] = c.scale * float64(i%c.distinct)
		}
		if _, lv, _, ok := codeRows(d, 300, 1, []int{0}, false); ok != c.ok || ok && lv[0] != c.distinct {
			t.Errorf("%d values ×%g: codeRows ok=%v levels %v, want ok=%v", c.distinct, c.scale, ok, lv, c.ok)
		}
	}
}

// TestCompleteTuples: without missing keys, completeTuples (with the split of the numbers
// forced to every width of its direct array) finds the tuples of distinctIndexed, numbered
// differently: each record's count and weight sum are bit for bit those of its tuple there,
// and two records share a tuple iff they do there. Where the split does not fit it declines
// and leaves its input unchanged. Frequencies with the weight column read in place and Count
// equal the pairwise reference.
func TestCompleteTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	vals := func(k, c int) float64 { return float64(2*c + k) }
	for trial := 0; trial < 150; trial++ {
		n := 1 + r.IntN(400)
		if trial%10 == 0 {
			n = 3000 + r.IntN(3000)
		}
		m := 1 + r.IntN(7)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN([]int{3, 12, 40}[r.IntN(3)])
		}
		d := randomTable(r, n, m, levels, vals, 0)
		p := m + 1
		cols := r.Perm(m)[:1+r.IntN(m)]
		w := column(d, n, p, m)
		codes, lv := codeColumns(d, n, p, cols)
		h := newHasher(lv)
		keys, _, _ := codeKeys(d, n, p, cols)
		for _, ww := range [][]float64{nil, w} {
			ref := distinctIndexed(keys, codes, n, len(cols), lv, ww, h, false)
			wt := weights{}
			if ww != nil {
				wt = weights{d: d, p: p, c: m}
			}
			for _, maxLow := range []int{0, 1, 3, 8, maxSplitBits} {
				buf, rlv, missing, ok := codeRows(d, n, p, cols, true)
				if !ok || missing {
					t.Fatalf("trial %d: codeRows ok=%v missing=%v", trial, ok, missing)
				}
				orig := slices.Clone(buf)
				of, cnt, wsum, ok := completeTuples(buf, n, len(cols), rlv, wt, maxLow)
				if !ok {
					if !slices.Equal(buf, orig) {
						t.Fatalf("trial %d maxLow %d: declined but changed its input", trial, maxLow)
					}
					if maxLow == maxSplitBits {
						t.Fatalf("trial %d: declined at maxLow %d (n=%d, levels %v)", trial, maxLow, n, rlv)
					}
					continue
				}
				if len(cnt) != len(ref.cnt) || ww == nil && &wsum[0] != &cnt[0] {
					t.Fatalf("trial %d maxLow %d: %d tuples, want %d", trial, maxLow, len(cnt), len(ref.cnt))
				}
				to := make([]int32, len(cnt)) // reference tuple + 1 of each tuple
				for i, tu := range of {
					rt := ref.of[i]
					switch {
					case to[tu] == 0:
						to[tu] = rt + 1
					case to[tu] != rt+1:
						t.Fatalf("trial %d maxLow %d: records of tuple %d are in reference tuples %d and %d", trial, maxLow, tu, to[tu]-1, rt)
					}
					if cnt[tu] != ref.cnt[rt] || math.Float64bits(wsum[tu]) != math.Float64bits(ref.wsum[rt]) {
						t.Fatalf("trial %d maxLow %d weighted=%v: record %d: count %v sum %v, want %v %v",
							trial, maxLow, ww != nil, i, cnt[tu], wsum[tu], ref.cnt[rt], ref.wsum[rt])
					}
				}
			}
			rf, rF := countPairwise(d, n, p, cols, ww)
			f, F := Count(d, n, p, cols, ww)
			wcol := -1
			if ww != nil {
				wcol = m
			}
			fr := Frequencies(d, n, p, cols, wcol)
			for i, tu := range fr.Of {
				if f[i] != rf[i] || fr.F[tu] != rf[i] || !bitsEqual([]float64{F[i], fr.FW[tu]}, []float64{rF[i], rF[i]}) {
					t.Fatalf("trial %d weighted=%v: record %d: Count %v %v, Frequencies %v %v, want %v %v",
						trial, ww != nil, i, f[i], F[i], fr.F[tu], fr.FW[tu], rf[i], rF[i])
				}
			}
		}
	}
}

// TestFrequenciesMissing: with missing keys Frequencies gives, through each record's tuple,
// Count's f and F (the joins of count), bit for bit, with the weights read in place.
func TestFrequenciesMissing(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 8))
	for trial := 0; trial < 100; trial++ {
		n := 1 + r.IntN(300)
		m := 1 + r.IntN(6)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = 1 + r.IntN(8)
		}
		d := randomTable(r, n, m, levels, func(k, c int) float64 { return float64(c) }, []float64{0.02, 0.2, 1}[r.IntN(3)])
		p := m + 1
		cols := r.Perm(m)[:1+r.IntN(m)]
		for _, wcol := range []int{-1, m} {
			var w []float64
			if wcol >= 0 {
				w = make([]float64, n)
				for i := range w {
					w[i] = d[i*p+wcol]
				}
			}
			rf, rF := countPairwise(d, n, p, cols, w)
			fr := Frequencies(d, n, p, cols, wcol)
			for i, tu := range fr.Of {
				if fr.F[tu] != rf[i] || math.Float64bits(fr.FW[tu]) != math.Float64bits(rF[i]) {
					t.Fatalf("trial %d wcol %d: record %d: %v %v, want %v %v", trial, wcol, i, fr.F[tu], fr.FW[tu], rf[i], rF[i])
				}
			}
		}
	}
	if fr := Frequencies(nil, 0, 3, []int{0}, 2); len(fr.Of) != 0 || len(fr.F) != 0 {
		t.Errorf("no records: %+v", fr)
	}
}
