package datasets

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// shortestChecker compares appendFloatShortest and appendShortest with
// strconv.AppendFloat(…, 'g', -1, 64), byte for byte. They format into room (a buffer with
// more than shortRoom bytes to spare after one byte, so the word stores are what is
// tested); every 16th number is also formatted into a buffer without room. The numbers are
// also written in rows by appendNumberRows (rowsChecker), whose phases format a chunk of
// numbers at a time.
type shortestChecker struct {
	t    testing.TB
	room [64]byte
	want []byte
	n    int // numbers compared
	rows rowsChecker
}

func (c *shortestChecker) check(v float64) {
	c.n++
	c.want = strconv.AppendFloat(append(c.want[:0], 'x'), v, 'g', -1, 64)
	got := appendFloatShortest(append(c.room[:0], 'x'), v)
	if !bytes.Equal(got, c.want) || &got[0] != &c.room[0] {
		c.t.Fatalf("appendFloatShortest(%v) (bits %#016x) = %q, strconv %q", v, math.Float64bits(v), got[1:], c.want[1:])
	}
	if c.n%16 == 0 { // without room: the path that grows b
		if got := appendFloatShortest(c.want[:1:1], v); !bytes.Equal(got, c.want) {
			c.t.Fatalf("appendFloatShortest(%v) (bits %#016x) into a full buffer = %q, strconv %q", v, math.Float64bits(v), got[1:], c.want[1:])
		}
	}
	got = appendShortest(append(c.room[:0], 'x'), v)
	if !bytes.Equal(got, c.want) {
		c.t.Fatalf("appendShortest(%v) (bits %#016x) = %q, strconv %q", v, math.Float64bits(v), got[1:], c.want[1:])
	}
	c.rows.add(c.t, v)
}

// rowsChecker compares appendNumberRows with strconv: it collects numbers and writes each 53
// of them (not a multiple of shortChunk: chunks straddle the rows) as rows of 1 to 7 values,
// into a buffer with room, and compares the bytes with strconv's numbers joined by commas and
// newlines (with shortWhole's numbers as strconv.AppendInt writes them, the same bytes); it
// also writes them with every chunk through the phases, whatever its share of numbers in
// their range (appendChunks without adaptive).
type rowsChecker struct {
	x         []float64
	got, want []byte
	n         int
}

func (r *rowsChecker) add(t testing.TB, v float64) {
	if r.x = append(r.x, v); len(r.x) == 53 {
		r.flush(t)
	}
}

// flush compares the numbers collected so far.
func (r *rowsChecker) flush(t testing.TB) {
	p := 1 + r.n%7
	r.n++
	x := r.x[:len(r.x)/p*p]
	r.x = r.x[:0]
	r.want = r.want[:0]
	for i, v := range x {
		r.want = strconv.AppendFloat(r.want, v, 'g', -1, 64)
		if (i+1)%p == 0 {
			r.want = append(r.want, '\n')
		} else {
			r.want = append(r.want, ',')
		}
	}
	if cap(r.got) < len(r.want)+shortRoom {
		r.got = make([]byte, 0, 2*len(r.want)+shortRoom)
	}
	if got := appendNumberRows(r.got[:0], x, p); !bytes.Equal(got, r.want) {
		t.Fatalf("appendNumberRows(%v) in rows of %d = %q, strconv %q", x, p, got, r.want)
	}
	if got := appendChunks(r.got[:0], x, p, false); !bytes.Equal(got, r.want) {
		t.Fatalf("appendChunks(%v) in rows of %d, every chunk through the phases, = %q, strconv %q", x, p, got, r.want)
	}
}

// checkBoth checks v and −v.
func (c *shortestChecker) checkBoth(v float64) {
	c.check(v)
	c.check(-v)
}

// checkULPs checks v, −v and their neighbours up to m units in the last place either side.
func (c *shortestChecker) checkULPs(v float64, m int) {
	c.checkBoth(v)
	up, down := v, v
	for range m {
		up = math.Nextafter(up, math.Inf(1))
		down = math.Nextafter(down, math.Inf(-1))
		c.checkBoth(up)
		c.checkBoth(down)
	}
}

// TestAppendFloatShortest compares the shortest formatter with strconv on more than 10^7
// numbers (10^9 with SDCBENCH_LONG=1): uniform random bit patterns over all doubles, random
// normals at scales 1e−300 to 1e300, whole numbers, halves, quarters and eighths, every power
// of two and of ten with its neighbours, subnormals, the smallest and largest doubles and the
// specials, the neighbourhoods where 'g' switches between its 'e' and 'f' forms, decimals
// of 1 to 17 significant digits read back as doubles (so shortest forms of every length),
// and the doubles with exponents near 2^0…2^70 (whole numbers and small fractions, where the
// scaled value can be exact and ties occur).
func TestAppendFloatShortest(t *testing.T) {
	scale := 1
	if os.Getenv("SDCBENCH_LONG") == "1" {
		scale = 100
	}
	c := &shortestChecker{t: t}
	r := rand.New(rand.NewPCG(30, 1))

	// Specials, extremes and the powers of two (c = 2^52: the irregular spacing) and ten.
	for _, v := range []float64{0, math.Inf(1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64,
		0x1p-1022, 0x1p-1022 - 0x1p-1074, 1, 0.1, 0.3, 2.0 / 3, 1e23, 9007199254740993, 5e-324, 1e-323} {
		c.checkULPs(v, 3)
	}
	for e := -1074; e <= 1023; e++ {
		c.checkULPs(math.Ldexp(1, e), 2)
	}
	for e := -323; e <= 308; e++ {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		c.checkULPs(v, 2)
		for _, m := range []float64{2, 5, 9.5, 9.999999, 9.9999999999999999} {
			c.checkULPs(v*m, 1)
		}
	}
	// Where 'g' switches form (decimal exponent −5/−4 and 5/6) and the 'f' form's widths:
	// every 10^j for j in [−8, 22] and the doubles just below and above it, densely.
	for j := -8; j <= 22; j++ {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(j), 64)
		c.checkULPs(v, 300)
		for range 2000 * scale {
			c.checkBoth(v * (1 + (r.Float64()-0.5)*1e-3))
			c.checkBoth(v * (0.9 + r.Float64()*0.2))
		}
	}

	for range 3_000_000 * scale { // uniform bit patterns: every class, mostly huge and tiny
		c.check(math.Float64frombits(r.Uint64()))
	}
	for range 500_000 * scale { // subnormals
		c.check(math.Float64frombits(r.Uint64() & (1<<63 | 1<<52 - 1)))
	}
	for range 1_500_000 * scale { // exponents near 2^0…2^70 and a little below
		b := r.Uint64()&(1<<63|1<<52-1) | uint64(1023-12+r.IntN(84))<<52
		c.check(math.Float64frombits(b))
	}
	for range 2_000_000 * scale { // normals at scales 1e−300…1e300
		c.check(r.NormFloat64() * math.Pow(10, float64(r.IntN(601)-300)))
	}
	for range 1_000_000 * scale { // whole numbers of every size, halves, quarters, eighths
		n := r.Int64() >> r.IntN(64)
		c.check(float64(n))
		c.check(float64(n>>10) / float64(int(1)<<r.IntN(4)))
	}
	var digits []byte
	for range 1_000_000 * scale { // decimals of 1…17 significant digits, read back
		nd := 1 + r.IntN(17)
		digits = digits[:0]
		digits = append(digits, byte('1'+r.IntN(9)))
		for range nd - 1 {
			digits = append(digits, byte('0'+r.IntN(10)))
		}
		digits = append(digits, 'e')
		digits = strconv.AppendInt(digits, int64(r.IntN(640)-330), 10)
		v, err := strconv.ParseFloat(string(digits), 64)
		if err != nil && v == 0 {
			continue // below the smallest subnormal
		}
		c.checkBoth(v)
	}
	if c.n < 10_000_000*scale {
		t.Fatalf("compared %d numbers, want at least %d", c.n, 10_000_000*scale)
	}
	t.Logf("%d numbers identical to strconv", c.n)
}

// TestAppendFloatShortestBits compares appendFloatShortest with strconv on 10^6 random bit
// patterns (10^8 with SDCBENCH_LONG=1; skipped with -short): a quarter uniform over all doubles (mostly the 'e' form),
// a quarter with binary exponents from 2^−30 to 2^30 (the 'f' forms: 0.000ddd to ddddd.d,
// the layouts of v below 1 and from 1 to 10, whole numbers), a quarter from 2^−12 to 2^4
// (the values of a standardized column, 16 and 17 digits), and a quarter of subnormals,
// of the smallest and largest exponents and of mantissas with few bits set (short
// decimals, ties). Every 64th number is also formatted into a buffer without room.
func TestAppendFloatShortestBits(t *testing.T) {
	if testing.Short() {
		t.Skip("10^6 numbers")
	}
	n := 1_000_000 // make test; 10^8 (a minute or more) with SDCBENCH_LONG=1
	if os.Getenv("SDCBENCH_LONG") == "1" {
		n = 100_000_000
	}
	r := rand.New(rand.NewPCG(30, 14))
	var rows rowsChecker
	defer rows.flush(t)
	var want []byte
	room := make([]byte, 0, 64) // room for the word stores
	for i := range n {
		b := r.Uint64()
		switch i & 3 {
		case 1:
			b = b&(1<<63|1<<52-1) | uint64(1023-30+r.IntN(61))<<52
		case 2:
			b = b&(1<<63|1<<52-1) | uint64(1023-12+r.IntN(17))<<52
		case 3:
			var e uint64
			switch r.IntN(4) {
			case 0:
				e = 0 // subnormal
			case 1:
				e = uint64(1 + r.IntN(40))
			case 2:
				e = uint64(0x7fe - r.IntN(40))
			default:
				e = uint64(1023 - 70 + r.IntN(140))
			}
			frac := b & (1<<52 - 1)
			if r.IntN(2) == 0 { // few bits set: short decimals and exact halves
				frac &= frac >> uint(r.IntN(52))
				frac &^= 1<<uint(r.IntN(52)) - 1
			}
			b = b&(1<<63) | e<<52 | frac
		}
		v := math.Float64frombits(b)
		want = strconv.AppendFloat(want[:0], v, 'g', -1, 64)
		got := appendFloatShortest(room, v)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendFloatShortest(%v) (bits %#016x) = %q, strconv %q", v, b, got, want)
		}
		if i&63 == 0 {
			if got := appendFloatShortest(make([]byte, 0, 1), v); !bytes.Equal(got, want) {
				t.Fatalf("appendFloatShortest(%v) (bits %#016x) without room = %q, strconv %q", v, b, got, want)
			}
		}
		rows.add(t, v)
	}
}

// TestAppendFloatShortestAllocs: formatting into a buffer with room does not allocate.
func TestAppendFloatShortestAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	vals := []float64{0.1, -1.2345678901234567e-300, 123456, 1e21, 5e-324, math.NaN()}
	if a := testing.AllocsPerRun(100, func() {
		for _, v := range vals {
			buf = appendFloatShortest(buf[:0], v)
		}
	}); a != 0 {
		t.Errorf("%v allocations a run, want 0", a)
	}
}

// TestShortPows checks the generated powers of ten against math/big: for every e, with
// f = ⌊log2 10^e⌋ (the formula of shortestDigits), g − 1 ≤ 10^e·2^(127−f) < g and
// 2^127 < g < 2^128. It also checks the formulas for ⌊log10 2^q⌋ and ⌊log10 ¾·2^q⌋ of
// shortestDigits over every binary exponent of a double.
func TestShortPows(t *testing.T) {
	one := big.NewInt(1)
	pow := func(b int64, e int) *big.Rat { // b^e, exactly
		var p big.Int
		if b == 2 {
			p.Lsh(one, uint(max(e, -e)))
		} else {
			p.Exp(big.NewInt(b), big.NewInt(int64(max(e, -e))), nil)
		}
		if e < 0 {
			return new(big.Rat).SetFrac(one, &p)
		}
		return new(big.Rat).SetInt(&p)
	}
	const ten, two = 10, 2
	lo127, hi128 := pow(two, 127), pow(two, 128)
	for i, p := range shortPows {
		e := i + shortPowMin
		f := (e * 1741646) >> 19
		if pow(two, f).Cmp(pow(ten, e)) > 0 || pow(two, f+1).Cmp(pow(ten, e)) <= 0 {
			t.Fatalf("⌊log2 10^%d⌋ = %d is wrong", e, f)
		}
		g := new(big.Int).Lsh(new(big.Int).SetUint64(p[0]), 64)
		g.Or(g, new(big.Int).SetUint64(p[1]))
		gr := new(big.Rat).SetInt(g)
		x := new(big.Rat).Mul(pow(ten, e), pow(two, 127-f))
		if gr.Cmp(lo127) <= 0 || gr.Cmp(hi128) >= 0 {
			t.Fatalf("10^%d: g = %v not in (2^127, 2^128)", e, g)
		}
		if x.Cmp(gr) >= 0 || x.Cmp(new(big.Rat).Sub(gr, big.NewRat(1, 1))) < 0 {
			t.Fatalf("10^%d: g = %v is not ⌊10^e·2^(127−f)⌋ + 1", e, g)
		}
	}
	// ⌊log10 x⌋ = the largest k with 10^k ≤ x.
	flog10 := func(x *big.Rat, k int) bool {
		return pow(ten, k).Cmp(x) <= 0 && pow(ten, k+1).Cmp(x) > 0
	}
	for q := -1074; q <= 971; q++ {
		if k := (q * 315652) >> 20; !flog10(pow(two, q), k) {
			t.Fatalf("⌊log10 2^%d⌋ = %d is wrong", q, k)
		}
		x := new(big.Rat).Mul(big.NewRat(3, 4), pow(two, q))
		k := (q*157827 - 65501) >> 19
		if !flog10(x, k) {
			t.Fatalf("⌊log10 ¾·2^%d⌋ = %d is wrong", q, k)
		}
		if k+shortPowMin > 0 || -k-shortPowMin >= len(shortPows) {
			t.Fatalf("10^%d is outside the table", -k)
		}
	}
}

// FuzzAppendShortest compares appendFloatShortest and appendShortest with strconv on the
// double of any bit pattern.
func FuzzAppendShortest(f *testing.F) {
	for _, v := range []float64{0, 1, 0.1, 1e21, 1e-5, 123456, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(-1)} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, b uint64) {
		c := &shortestChecker{t: t}
		c.check(math.Float64frombits(b))
		c.rows.flush(t)
	})
}

// BenchmarkAppendShortest formats 10^5 numbers with strconv and with appendFloatShortest:
// normal numbers (mostly 16 and 17 significant digits, as a noisy release), numbers of 1 to 17
// digits, and uniform bit patterns; it reports the time and the process's CPU time per number.
func BenchmarkAppendShortest(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	sets := map[string][]float64{}
	norm := make([]float64, 100_000)
	unit := make([]float64, len(norm))
	short := make([]float64, len(norm))
	bitsv := make([]float64, len(norm))
	for i := range norm {
		norm[i] = r.NormFloat64() * 100
		unit[i] = r.NormFloat64()
		short[i], _ = strconv.ParseFloat(strconv.FormatFloat(r.NormFloat64(), 'g', 1+r.IntN(17), 64), 64)
		bitsv[i] = math.Float64frombits(r.Uint64() &^ (1 << 62)) // finite
	}
	sets["normal"], sets["unit"], sets["digits1to17"], sets["bits"] = norm, unit, short, bitsv
	for _, name := range []string{"normal", "unit", "digits1to17", "bits"} {
		vals := sets[name]
		buf := make([]byte, 0, 32)
		for _, f := range []struct {
			name string
			fn   func([]byte, float64) []byte
		}{
			{"strconv", func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', -1, 64) }},
			{"schubfach", appendFloatShortest},
		} {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				cpu0 := processCPUNanos()
				for b.Loop() {
					for _, v := range vals {
						buf = f.fn(buf[:0], v)
					}
				}
				nums := float64(b.N * len(vals))
				if cpu1 := processCPUNanos(); cpu0 >= 0 && cpu1 >= 0 {
					b.ReportMetric(float64(cpu1-cpu0)/nums, "cpu-ns/number")
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/nums, "ns/number")
			})
		}
	}
}
