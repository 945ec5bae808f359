package datasets

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

// parseFloat is strconv.ParseFloat(s, 64) on bytes. A plain decimal ([+-]digits[.digits]
// [e[+-]digits]) with at most 19 significant digits is m·10^e for an integer m < 10^19:
//   - with m ≤ 2^53 and |e| ≤ 22, one correctly rounded multiplication or division of two exact
//     float64s (Clinger's fast path, W. D. Clinger, "How to read floating point numbers
//     accurately", PLDI 1990);
//   - otherwise, for |e| ≤ 64, the Eisel–Lemire algorithm (D. Lemire, "Number parsing at a
//     gigabyte per second", Software: Practice and Experience 51(8), 2021), which gives the
//     correctly rounded result or declines when it cannot be sure.
//
// strconv takes the same two paths first, so the result is strconv's bit for bit (TestParseFloat);
// anything else, and what Eisel–Lemire declines, is strconv's.
func parseFloat(s []byte) (float64, error) {
	if v, ok := parseDecimal(s); ok {
		return v, nil
	}
	return strconv.ParseFloat(bytesString(s), 64)
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal is the fast path of parseFloat; ok is false when s is not such a decimal or
// Eisel–Lemire declines.
func parseDecimal(s []byte) (v float64, ok bool) {
	v, n, ok := parseDecimalPrefix(s)
	return v, ok && n == len(s)
}

// parseDecimalPrefix is parseDecimal on the longest prefix of s that has the form of a plain
// decimal: it returns the value of s[:n] and its length n (the reader parses a field this way
// as it looks for the comma that ends it). ok is false when the prefix is not a decimal
// parseDecimal takes (no digits, more than 19 significant digits, an exponent without digits)
// or Eisel–Lemire declines; then s[:n] is whatever parseFloat makes of it.
func parseDecimalPrefix(s []byte) (v float64, n int, ok bool) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i++
	}
	var m uint64
	digits, sig, e := 0, 0, 0 // digits read, significant digits (from the first non-zero)
	// Once a non-zero digit is read every digit is significant, and eight at a time are
	// read as one word (eightDigits).
	for i < len(s) && s[i]-'0' < 10 {
		if m != 0 && len(s)-i >= 8 {
			if w := binary.LittleEndian.Uint64(s[i:]); isEightDigits(w) {
				m = m*1e8 + eightDigits(w)
				digits += 8
				sig += 8
				i += 8
				continue
			}
		}
		m = m*10 + uint64(s[i]-'0')
		digits++
		if m != 0 {
			sig++
		}
		i++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i]-'0' < 10; {
			if m != 0 && len(s)-i >= 8 {
				if w := binary.LittleEndian.Uint64(s[i:]); isEightDigits(w) {
					m = m*1e8 + eightDigits(w)
					digits += 8
					sig += 8
					e -= 8
					i += 8
					continue
				}
			}
			if m != 0 && len(s)-i >= 4 { // the rest of a long fraction: four at a time
				if w := binary.LittleEndian.Uint32(s[i:]); isFourDigits(w) {
					m = m*1e4 + uint64(fourDigits(w))
					digits += 4
					sig += 4
					e -= 4
					i += 4
					continue
				}
			}
			m = m*10 + uint64(s[i]-'0')
			digits++
			if m != 0 {
				sig++
			}
			e--
			i++
		}
	}
	if digits == 0 || sig > 19 { // more than 19 digits may have wrapped m
		return 0, 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		x, xd := 0, 0
		for ; i < len(s) && s[i]-'0' < 10; i++ {
			if x < 1000 {
				x = x*10 + int(s[i]-'0')
			}
			xd++
		}
		if xd == 0 {
			return 0, 0, false
		}
		if eneg {
			x = -x
		}
		e += x
	}
	if m <= 1<<53 && e >= -22 && e <= 22 {
		v = float64(m)
		if e < 0 {
			v /= pow10[-e]
		} else if e > 0 {
			v *= pow10[e]
		}
		if neg {
			v = -v
		}
		return v, i, true
	}
	v, ok = eiselLemire(m, e, neg)
	return v, i, ok
}

// isEightDigits reports whether the eight bytes of w (loaded little-endian) are all ASCII
// digits: each byte's high nibble is 3 and adding 6 to it does not carry into the high
// nibble. The trick, and eightDigits, are those of Lemire's fast_float
// (github.com/fastfloat/fast_float, is_made_of_eight_digits_fast and
// parse_eight_digits_unrolled).
func isEightDigits(w uint64) bool {
	return (w&0xF0F0F0F0F0F0F0F0)|(((w+0x0606060606060606)&0xF0F0F0F0F0F0F0F0)>>4) == 0x3333333333333333
}

// eightDigits returns the number written by the eight ASCII digits of w, the first in the
// lowest byte: pairs, then groups of four, then the eight are combined by multiplications.
func eightDigits(w uint64) uint64 {
	const mask = 0x000000FF000000FF
	const mul1 = 100 + 1000000<<32
	const mul2 = 1 + 10000<<32
	w -= 0x3030303030303030
	w = w*10 + w>>8
	return ((w&mask)*mul1 + ((w>>16)&mask)*mul2) >> 32
}

// isFourDigits is isEightDigits for the four bytes of w.
func isFourDigits(w uint32) bool {
	return (w&0xF0F0F0F0)|(((w+0x06060606)&0xF0F0F0F0)>>4) == 0x33333333
}

// fourDigits is eightDigits for the four ASCII digits of w: pairs, then the two pairs.
func fourDigits(w uint32) uint32 {
	w -= 0x30303030
	w = w*10 + w>>8
	return ((w & 0x00FF00FF) * (1 + 100<<16)) >> 16
}

// eiselMin and eiselMax bound the powers of ten eiselLemire handles.
const eiselMin, eiselMax = -64, 64

// eiselPow is 10^q as a 128-bit mantissa rounded down, top bit set, and a binary exponent:
// 10^q ≈ (hi·2^64 + lo)·2^(exp−128).
type eiselPow struct {
	hi, lo uint64
	exp    int
}

// eiselLemire returns the float64 nearest to m·10^e (m > 0 or the signed zero) as Go's
// strconv.eiselLemire64 computes it, or false when it cannot decide (then strconv's slower
// algorithms decide).
func eiselLemire(m uint64, e int, neg bool) (float64, bool) {
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if e < eiselMin || e > eiselMax {
		return 0, false
	}
	pow := eiselPows[e-eiselMin]
	const bias = -1023
	clz := bits.LeadingZeros64(m)
	m <<= uint(clz)
	retExp2 := uint64(pow.exp+63-bias) - uint64(clz)
	xHi, xLo := bits.Mul64(m, pow.hi)
	if xHi&0x1FF == 0x1FF && xLo+m < m { // wider approximation
		yHi, yLo := bits.Mul64(m, pow.lo)
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+m < m {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63 // shift to 54 bits
	mant := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && mant&3 == 1 { // half-way ambiguity
		return 0, false
	}
	mant += mant & 1 // from 54 to 53 bits
	mant >>= 1
	if mant>>53 > 0 {
		mant >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 { // subnormal, infinite or NaN: strconv's
		return 0, false
	}
	b := retExp2<<52 | mant&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

// eiselNegPows holds the mantissas and binary exponents of 10^−f for f < 24, eiselPows[−f −
// eiselMin]'s hi and exp, as two arrays the vector kernel of numericLine (csvscan_amd64.s)
// looks up as vectors. Derived from shortPows as eiselPows is (eiselpows.go), which a
// package-level variable cannot read (it is filled by an init function); TestEiselNegPows
// compares the two. Read-only.
var eiselNegPows = func() (t [2][24]uint64) {
	for f := range 24 {
		g := shortPows[-f-shortPowMin]
		t[0][f] = g[0]
		if g[1] == 0 {
			t[0][f]--
		}
		t[1][f] = uint64((-f*217706)>>16 + 1)
	}
	return t
}()
