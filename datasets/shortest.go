package datasets

import (
	"encoding/binary"
	"math"
	"math/bits"
)

//go:generate go run shortpowgen.go

// appendFloatShortest appends v as strconv.AppendFloat(b, v, 'g', -1, 64) does, byte for
// byte, for every float64: the shortest decimal that reads back as v (the one nearest to v
// when several are that short, the even one of two equally near), in the 'e' form
// (d.ddde±dd, an exponent of at least two digits) when its decimal exponent is below −4 or
// 6 and more, else in the 'f' form; "NaN", "+Inf", "-Inf"; "0" and "-0".
//
// The digits come from the Schubfach algorithm (R. Giulietti, "The Schubfach way to render
// doubles", 2020; shortestDigits); the text is assembled from a two-digit table
// (docs/datapath.md, "What the writer does now"). TestAppendFloatShortest and
// FuzzAppendShortest compare it with strconv; it does not allocate when b has room for 24
// more bytes.
func appendFloatShortest(b []byte, v float64) []byte {
	u := math.Float64bits(v)
	frac, exp := u&(1<<52-1), int(u>>52)&0x7ff
	var c uint64
	var q int
	switch {
	case exp == 0x7ff:
		if frac != 0 {
			return append(b, "NaN"...)
		}
		if u>>63 != 0 {
			return append(b, "-Inf"...)
		}
		return append(b, "+Inf"...)
	case exp == 0:
		if frac == 0 {
			if u>>63 != 0 {
				return append(b, "-0"...)
			}
			return append(b, '0')
		}
		c, q = frac, -1074 // subnormal
	default:
		c, q = frac|1<<52, exp-1075
	}
	d, k := shortestDigits(c, q, frac == 0 && exp > 1)

	// The text is assembled in buf[start:end] and appended at once: the 17 digits of d (with
	// leading zeros) in buf[8:25], of which buf[i:end] are its digits without leading and
	// trailing zeros, then the sign, point, zeros and exponent around them.
	var buf [48]byte
	const first, last = 8, 25
	hi := d / 1e8
	top := hi / 1e8 // < 10: d < 10^17
	mid := digitBytes8(uint32(hi - top*1e8))
	low := digitBytes8(uint32(d - hi*1e8))
	buf[first] = byte('0' + top)
	binary.LittleEndian.PutUint64(buf[first+1:], mid|asciiZeros)
	binary.LittleEndian.PutUint64(buf[first+9:], low|asciiZeros)
	i, end := first, last
	switch { // leading zeros
	case top != 0:
	case mid != 0:
		i += 1 + bits.TrailingZeros64(mid)/8
	default:
		i += 9 + bits.TrailingZeros64(low)/8
	}
	switch { // trailing zeros
	case low != 0:
		end -= bits.LeadingZeros64(low) / 8
	case mid != 0:
		end -= 8 + bits.LeadingZeros64(mid)/8
	default:
		end -= 16
	}
	dp := last - i + k // the decimal point: v = 0.digits·10^dp
	nd := end - i
	start := i - 1
	switch {
	case dp < -3 || dp > 6: // 'e' form: decimal exponent dp−1 below −4, or 6 and more
		buf[start] = buf[i]
		if nd > 1 {
			buf[i] = '.'
		} else {
			end = i
		}
		e := dp - 1
		buf[end], buf[end+1] = 'e', '+'
		if e < 0 {
			buf[end+1], e = '-', -e
		}
		end += 2
		if e >= 100 {
			buf[end] = byte('0' + e/100)
			e %= 100
			end++
		}
		buf[end], buf[end+1] = twoDigits[2*e], twoDigits[2*e+1]
		end += 2
	case dp <= 0: // 0.000ddd
		binary.LittleEndian.PutUint64(buf[i-8:], asciiZeros)
		start = i - 2 + dp
		buf[start+1] = '.'
	case dp < nd: // ddd.ddd: the first dp ≤ 6 digits move one place left, the point follows
		w := binary.LittleEndian.Uint64(buf[i:])
		m := uint64(1)<<(8*dp) - 1
		binary.LittleEndian.PutUint64(buf[start:], w&m|'.'<<(8*dp)|(w&^m)<<8)
	default: // ddd000
		start = i
		binary.LittleEndian.PutUint64(buf[end:], asciiZeros)
		end += dp - nd
	}
	buf[start-1] = '-' // the sign, kept for a negative v (without a branch: signs are random)
	start -= int(u >> 63)
	n := len(b)
	if cap(b)-n < 24 {
		return append(b, buf[start:end]...)
	}
	// Three words, the most any text takes ("-2.2250738585072014e-308"), into b's spare
	// capacity, of which the text's length is kept: cheaper than a copy of a varying length.
	t := b[n : n+24]
	s := buf[start : start+24]
	binary.LittleEndian.PutUint64(t, binary.LittleEndian.Uint64(s))
	binary.LittleEndian.PutUint64(t[8:], binary.LittleEndian.Uint64(s[8:]))
	binary.LittleEndian.PutUint64(t[16:], binary.LittleEndian.Uint64(s[16:]))
	return b[:n+end-start]
}

// asciiZeros is eight '0' bytes as a word.
const asciiZeros = 0x3030303030303030

// digitBytes8 returns the eight decimal digits of x < 10^8, leading zeros included, as byte
// values 0 to 9 of a little-endian word: the first digit in the lowest byte. It divides all
// lanes of the word at once (by 10^4, then 100 in two 32-bit lanes, then 10 in four 16-bit
// lanes) with multiplications by reciprocals that are exact in those ranges.
func digitBytes8(x uint32) uint64 {
	v := uint64(x/10000) | uint64(x%10000)<<32
	q := (v * 5243 >> 19) & 0x0000007f_0000007f // ⌊y/100⌋ = ⌊y·5243/2^19⌋ for y < 10^4
	v = q | (v-q*100)<<16
	q = (v * 103 >> 10) & 0x000f000f_000f000f // ⌊y/10⌋ = ⌊y·103/2^10⌋ for y < 100
	return q | (v-q*10)<<8
}

// twoDigits holds "00" to "99".
const twoDigits = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// shortestDigits returns the decimal d·10^k (d > 0; d may end in zeros) that the Schubfach
// algorithm (R. Giulietti, "The Schubfach way to render doubles", 2020) finds for the
// positive double v = c·2^q: among the decimals in the rounding interval of v — the numbers
// that round to v, its ends included when c is even — one of fewest digits, the nearest to v
// among those, the even one of two equally near. irregular is true when c = 2^52 and v is
// not the smallest normal double: then v's lower neighbour is half as far as its upper one.
//
// With k = ⌊log10 2^q⌋ (⌊log10 ¾·2^q⌋ when irregular), the interval scaled by 10^−k is at
// least 1 and less than 10 wide: it holds s = ⌊v·10^−k⌋ or s+1, and at most one multiple of
// 10. The scaled value and ends are computed four times larger and rounded to odd (a sticky
// lowest bit: roundOdd) from 10^−k rounded up (shortPows); the paper proves that values
// computed so decide every comparison below as the exact ones would. This variant uses
// 128-bit powers and a 64-bit fraction for the sticky bit; TestAppendFloatShortest and
// FuzzAppendShortest check its outcome against strconv.
func shortestDigits(c uint64, q int, irregular bool) (d uint64, k int) {
	cb := c << 2 // 4v, 4·vl and 4·vr in units of 2^(q−2)
	cbl, cbr := cb-2, cb+2
	if irregular {
		cbl = cb - 1
		k = (q*157827 - 65501) >> 19 // ⌊log10 ¾·2^q⌋
	} else {
		k = (q * 315652) >> 20 // ⌊log10 2^q⌋
	}
	g := &shortPows[-k-shortPowMin]
	h := uint(q+((-k)*1741646)>>19+1) & 63 // q + ⌊log2 10^−k⌋ + 1, in [1, 4]
	vb := roundOdd(g, cb<<h)               // 4·v·10^−k
	vbl := roundOdd(g, cbl<<h)
	vbr := roundOdd(g, cbr<<h)
	out := c & 1 // an odd c leaves the ends of the interval out

	s := vb >> 2 // ⌊v·10^−k⌋
	// s or s+1, whichever is in the interval, or the nearer to v (the even one on a tie): the
	// interval is at least 1 wide, so it holds one of them. (Selections by conditional moves:
	// the choices are as unpredictable as the digits.)
	d = s
	if vb+s&1 > s<<2+2 { // 4v > 4·(s + ½), or equal with s odd
		d = s + 1
	}
	if vbl+out > s<<2 { // s is out
		d = s + 1
	}
	if (s+1)<<2+out > vbr { // s+1 is out
		d = s
	}
	// A multiple of 10 in the interval has fewer digits than both, and comes first; there is
	// at most one, the interval being narrower than 10.
	sp := s / 10 * 10
	lowIn := vbl+out <= sp<<2
	highIn := (sp+10)<<2+out <= vbr
	if lowIn {
		d = sp
	}
	if highIn {
		d = sp + 10
	}
	return d, k
}

// roundOdd returns ⌊g·x/2^128⌋ for g = {high, low} 64 bits, rounded to odd: its lowest bit
// is set when the product's bits from 2^64 to 2^127 are not all zero. The bits below 2^64 are
// left out, as the paper's rop leaves out the low product: there the +1 of the rounded-up
// power (at most x < 2^59) would otherwise mark exact products, such as 10·v for v a multiple
// of 1/8, as inexact.
func roundOdd(g *[2]uint64, x uint64) uint64 {
	hi1, lo1 := bits.Mul64(g[0], x)
	hi0, _ := bits.Mul64(g[1], x)
	mid, carry := bits.Add64(lo1, hi0, 0)
	top := hi1 + carry
	if mid != 0 {
		top |= 1
	}
	return top
}
