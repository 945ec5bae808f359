package keyfreq

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkExact reports whether c are the exact key tuples of the n×p table d on cols by their
// definition: records share a tuple iff their AppendKey bytes are equal, each tuple's count is
// its records, and (with codes) a tuple's code of key k is 0 iff the value is missing, lies in
// 1..Levels[k], and codes and values of a column correspond one to one.
func checkExact(t *testing.T, what string, c Classes, d []float64, n, p int, cols []int, codes bool) {
	t.Helper()
	m := len(cols)
	if len(c.Of) != n {
		t.Fatalf("%s: %d records' tuples, want %d", what, len(c.Of), n)
	}
	byKey := map[string]int32{}
	cnt := make([]float64, len(c.Count))
	for i, tu := range c.Of {
		if tu < 0 || int(tu) >= len(c.Count) {
			t.Fatalf("%s: record %d has tuple %d of %d", what, i, tu, len(c.Count))
		}
		k := string(AppendKey(nil, d, p, i, cols))
		if prev, ok := byKey[k]; ok && prev != tu {
			t.Fatalf("%s: record %d (key %q) in tuple %d, an equal record in %d", what, i, k, tu, prev)
		}
		byKey[k] = tu
		cnt[tu]++
	}
	if len(byKey) != len(c.Count) {
		t.Fatalf("%s: %d tuples, want %d distinct keys", what, len(c.Count), len(byKey))
	}
	for tu, x := range cnt {
		if c.Count[tu] != x {
			t.Fatalf("%s: tuple %d counts %v records, has %v", what, tu, c.Count[tu], x)
		}
	}
	if !codes {
		return
	}
	if len(c.Codes) != len(c.Count)*m || len(c.Levels) != m {
		t.Fatalf("%s: %d codes and %d levels for %d tuples of %d keys", what, len(c.Codes), len(c.Levels), len(c.Count), m)
	}
	for k, l := range cols {
		valOf := map[uint32]uint64{}
		codeOf := map[uint64]uint32{}
		for i, tu := range c.Of {
			v, code := d[i*p+l], c.Codes[k*len(c.Count)+int(tu)]
			if (code == 0) != math.IsNaN(v) || int(code) > c.Levels[k] {
				t.Fatalf("%s: record %d key %d: value %v has code %d (levels %d)", what, i, k, v, code, c.Levels[k])
			}
			b := Bits(v)
			if x, ok := valOf[code]; ok && x != b {
				t.Fatalf("%s: key %d: code %d for values %x and %x", what, k, code, x, b)
			}
			if x, ok := codeOf[b]; ok && x != code {
				t.Fatalf("%s: key %d: value %v has codes %d and %d", what, k, v, x, code)
			}
			valOf[code], codeOf[b] = b, code
		}
	}
}

// TestExactMatchesDefinition: on random tables (1–10 keys, few to a thousand categories, small
// whole codes, −0 and +0, infinities, large and fractional values, several NaN payloads, 0 to
// every cell missing, duplicated records) Exact's tuples, counts and codes are those of the
// definition (checkExact), on each of its paths: the split of packed codes with and without a
// missing value, rowKeys' numbers when the split does not fit, codeKeys beyond 8 keys or 255
// values, and codeColumns when the mixed-radix number overflows 64 bits.
func TestExactMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -3.5, 1e300, 4096, 4095, 2.5,
		math.Float64frombits(0x7ff8000000000123), math.Float64frombits(0xfff0000000000001)}
	valueSets := map[string]func(k, c int) float64{
		"codes":   func(k, c int) float64 { return float64(c + 1) },
		"special": func(k, c int) float64 { return special[(c+k)%len(special)] },
		"large":   func(k, c int) float64 { return 1e6*float64(c) + 0.25 },
	}
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(300)
		m := 1 + r.IntN(10)
		levels := make([]int, m)
		for k := range levels {
			levels[k] = []int{1, 2, 5, 30, 300, 1000}[r.IntN(6)]
		}
		na := []float64{0, 0, 0.02, 0.1, 0.5, 1}[r.IntN(6)]
		for name, vals := range valueSets {
			d := randomTable(r, n, m, levels, vals, na)
			p := m + 1
			for i := 1; i < n; i++ { // duplicates
				if r.IntN(4) == 0 {
					copy(d[i*p:i*p+m], d[(i-1)*p:(i-1)*p+m])
				}
			}
			cols := r.Perm(m)[:1+r.IntN(m)]
			for _, codes := range []bool{false, true} {
				c := Exact(d, n, p, cols, codes)
				checkExact(t, name, c, d, n, p, cols, codes)
			}
		}
	}
}

// TestExactPaths: tables built to take each path of Exact (a narrow split forced by many
// categories per key so that the packed numbers exceed 32 bits; more than 8 keys; a value
// count above 255; 12 keys of 60 categories, whose numbers overflow 64 bits) give the tuples
// of the definition, as do an empty table and no key column.
func TestExactPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 4))
	codes := func(k, c int) float64 { return float64(c) }
	cases := []struct {
		name   string
		n, m   int
		levels int
		na     float64
	}{
		{"split", 500, 4, 6, 0},
		{"split missing", 500, 4, 6, 0.1},
		{"rowKeys", 3000, 8, 200, 0},
		{"rowKeys missing", 3000, 8, 200, 0.05},
		{"codeKeys many keys", 400, 9, 3, 0.05},
		{"codeKeys many values", 2000, 3, 900, 0.02},
		{"codeColumns", 500, 12, 60, 0.05},
	}
	for _, tc := range cases {
		levels := make([]int, tc.m)
		for k := range levels {
			levels[k] = tc.levels
		}
		d := randomTable(r, tc.n, tc.m, levels, codes, tc.na)
		cols := firstCols(tc.m)
		for _, withCodes := range []bool{false, true} {
			checkExact(t, tc.name, Exact(d, tc.n, tc.m+1, cols, withCodes), d, tc.n, tc.m+1, cols, withCodes)
		}
	}
	if c := Exact(nil, 0, 3, []int{0, 1}, true); len(c.Of) != 0 || len(c.Count) != 0 {
		t.Errorf("empty table: %+v", c)
	}
	d := []float64{1, 2, 3, 4}
	if c := Exact(d, 2, 2, nil, true); len(c.Count) != 1 || c.Count[0] != 2 || c.Of[0] != 0 || c.Of[1] != 0 {
		t.Errorf("no key column: %+v", c)
	}
}
