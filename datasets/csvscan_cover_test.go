package datasets

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// numericLineLine runs numericLine on the fields joined by commas and followed by '\n' and
// scanSlack−1 random bytes of digits, commas and points, checks it with checkNumericLine,
// and checks every field taken against strconv.ParseFloat bit for bit. It returns how many
// fields were taken.
func numericLineLine(t *testing.T, rng *rand.Rand, fields []string) int {
	t.Helper()
	line := strings.Join(fields, ",")
	b := append([]byte(line), '\n')
	for range scanSlack - 1 {
		b = append(b, "0123456789,.-"[rng.IntN(13)])
	}
	row := make([]float64, len(fields))
	taken, pos := numericLine(b, row, -1)
	checkNumericLine(t, b, line, '\n', row, -1, taken, pos)
	for c := range taken {
		want, err := strconv.ParseFloat(fields[c], 64)
		if err != nil || math.Float64bits(row[c]) != math.Float64bits(want) {
			t.Fatalf("numericLine(%q): field %d (%q) = %v (%x), strconv %v (%x), %v", b, c, fields[c],
				row[c], math.Float64bits(row[c]), want, math.Float64bits(want), err)
		}
	}
	return taken
}

// TestNumericLineBitPatterns reads lines of doubles from random bit patterns — any exponent,
// and exponents of ±40 around one, where the numbers are plain decimals — formatted as R and
// sdcbench write them (15 and 17 significant digits, shortest form) and in fixed notation
// with 0 to 20 decimals: every field numericLine takes is strconv.ParseFloat's bit for bit,
// and a line of fields in the usual form (an integer part of at most seven digits and 8 to
// 19 significant digits, no exponent) is taken whole.
func TestNumericLineBitPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 18))
	for iter := range 200000 {
		fields := make([]string, 1+rng.IntN(10))
		usual := true
		for c := range fields {
			bits := rng.Uint64()
			if iter%4 != 0 { // an exponent near zero: a plain decimal
				bits = bits&(1<<63|1<<52-1) | uint64(1023-40+rng.IntN(64))<<52
			}
			v := math.Float64frombits(bits)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = 0
			}
			var f string
			switch rng.IntN(4) {
			case 0:
				f = strconv.FormatFloat(v, 'g', 15, 64)
			case 1:
				f = strconv.FormatFloat(v, 'g', 17, 64)
			case 2:
				f = strconv.FormatFloat(v, 'g', -1, 64)
			default:
				f = strconv.FormatFloat(v, 'f', rng.IntN(21), 64)
			}
			fields[c] = f
			intPart, frac, dot := strings.Cut(strings.TrimPrefix(f, "-"), ".")
			sig := len(strings.TrimLeft(intPart+frac, "0"))
			usual = usual && dot && !strings.ContainsAny(f, "eE") && len(intPart) <= 7 &&
				len(frac) >= 8 && len(intPart)+len(frac) <= 19 && sig >= 8
		}
		if taken := numericLineLine(t, rng, fields); usual && taken < len(fields) {
			t.Fatalf("numericLine left field %d (%q) of a line of usual fields %q to the general way", taken, fields[taken], fields)
		}
	}
}

// TestNumericLineDigitCounts reads fields of every shape of count: no sign, '-' or '+'; 0 to
// 8 integer digits; no point, or a point and 0 to 25 fraction digits; random digits, with
// leading zeros in a quarter of the fields (a zero integer part, zeros after the point). Every
// field taken is strconv.ParseFloat's bit for bit, and a line of fields of at most 19 digits
// (leading zeros counted) is taken whole, by the fast path or scanDecimal, unless a field is
// one where Eisel–Lemire declines (m·10^e exactly or nearly halfway between two doubles, such
// as 0047006.000000000000: strconv's slower algorithm decides, through readRows).
func TestNumericLineDigitCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 19))
	digits := func(n int, zeros bool) string {
		d := make([]byte, n)
		for i := range d {
			d[i] = byte('0' + rng.IntN(10))
			if zeros && rng.IntN(2) == 0 {
				d[i] = '0'
			}
		}
		return string(d)
	}
	for _, sign := range []string{"", "-", "+"} {
		for ni := range 9 {
			for nf := -1; nf <= 25; nf++ { // −1: no point
				for range 300 {
					fields := make([]string, 1+rng.IntN(6))
					short := true
					for c := range fields {
						zeros := rng.IntN(4) == 0
						f := sign + digits(ni, zeros)
						if nf >= 0 {
							f += "." + digits(nf, zeros)
						}
						fields[c] = f
						_, ok := parseDecimal([]byte(f)) // false where Eisel–Lemire declines
						short = short && ni+max(nf, 0) <= 19 && ni+max(nf, 0) > 0 && ok
					}
					if taken := numericLineLine(t, rng, fields); short && taken < len(fields) {
						t.Fatalf("numericLine left field %d (%q) of %q to the general way", taken, fields[taken], fields)
					}
				}
			}
		}
	}
}
