package datasets

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

//go:generate go run shortpowgen.go

// appendFloatShortest appends v as strconv.AppendFloat(b, v, 'g', -1, 64) does, byte for
// byte, for every float64: the shortest decimal that reads back as v (the one nearest to v
// when several are that short, the even one of two equally near), in the 'e' form
// (d.ddde±dd, an exponent of at least two digits) when its decimal exponent is below −4 or
// 6 and more, else in the 'f' form; "NaN", "+Inf", "-Inf"; "0" and "-0".
//
// The digits come from the Schubfach algorithm (R. Giulietti, "The Schubfach way to render
// doubles", 2020; shortestDigits). The text is built in machine words (the 17 digit bytes
// of digitBytes8 and the point, zeros and sign around them) and stored straight into b's
// spare capacity at offsets known from v's sign and exponent before its digits are: no
// bytes are read back from a scratch buffer (a store-to-load forwarding stall) and later
// loads need not wait for a store's address (docs/datapath.md, "What the writer does
// now"). With fewer than shortRoom bytes of room in b it calls strconv. It does not
// allocate when b has that room. TestAppendFloatShortest, TestAppendFloatShortestBits and
// FuzzAppendShortest compare it with strconv.
func appendFloatShortest(b []byte, v float64) []byte {
	n := len(b)
	if cap(b)-n < shortRoom {
		// Without room for the word stores: strconv itself (the same bytes by definition),
		// which grows b only when the text does not fit.
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	t := (*[shortRoom]byte)(b[n : n+shortRoom])
	u := math.Float64bits(v)
	frac, exp := u&(1<<52-1), int(u>>52)&0x7ff
	c, q := frac|1<<52, exp-1075
	if uint(exp-1) >= 0x7fe {
		if exp != 0 || frac == 0 {
			return b[:n+formatSpecial(t, u)]
		}
		c, q = frac, -1074 // subnormal
	}
	d, k := shortestDigits(c, q, frac == 0 && exp > 1)
	for d < 1e15 { // a subnormal's d has 1 to 17 digits, a normal one's 16 or 17
		d, k = d*10, k-1
	}
	t[0] = '-'
	s := int(u>>63) & 1 // the sign is kept for a negative v

	// v = 0.D·10^dp for D the 17 digits of d, a leading zero included when d has 16.
	// From about 0.001 to 10 (dp = k+17 from −2 to 1, known from v's exponent alone), the
	// text is "0.", −dp zeros and D (a leading zero of D is one more zero after the point),
	// or with dp = 1 D's first digit, the point and the rest (0.ddd when that digit is 0):
	// no conditional move on d delays its digits. Elsewhere D is made to start with a
	// nonzero digit (behind a branch: the same for most numbers of a column).
	dp := k + 17
	frame := uint(dp+2) <= 3 // −2 ≤ dp ≤ 1
	dn := dp                 // the point's place for D without a leading zero
	if !frame {
		d10 := d * 10
		if d < 1e16 {
			d, dn = d10, dp-1
		}
	}

	// The 17 digits as text: the first eight in x0 (the first digit in the lowest byte), the
	// next eight in x1 and the last in x2; nd of them without the trailing zeros.
	hi := d / 1e8
	top := d / 1e16 // from d, not hi: one multiplication less on the way to w1
	w1 := digitBytes8(uint32(hi - top*1e8))
	w2 := digitBytes8(uint32(d - hi*1e8))
	last, nd := w2, 17 // the last word with a nonzero digit, and the digits up to its end
	if w2 == 0 {
		last, nd = w1, 9
	}
	nd -= bits.LeadingZeros64(last) / 8
	w1 |= asciiZeros
	w2 |= asciiZeros
	x0, x1, x2 := top|'0'|w1<<8, w1>>56|w2<<8, byte(w2>>56)

	if frame {
		z := 2 - dp // where D starts
		// The first word: "0.", −dp zeros and the start of D, or D's first digit, the point
		// and more of D; from constants of the layout, without branches (dp is random).
		f := &frameHeads[dp+2]
		head := f.prefix + x0&f.keep + (x0&^f.keep)*f.scale
		ln := z + nd
		if ln == 2 { // a single digit d: no point
			ln = 1
		}
		o := (s + z) & 7 // ≤ 5 (the mask spares the bounds checks)
		binary.LittleEndian.PutUint64(t[o:], x0)
		binary.LittleEndian.PutUint64(t[o+8:], x1)
		t[o+16] = x2
		binary.LittleEndian.PutUint64(t[s&1:], head)
		return b[:n+s+ln]
	}

	// D at t[s+1:], and in its place its first word with a point inserted: the stores'
	// addresses do not wait for the digits.
	binary.LittleEndian.PutUint64(t[s+1:], x0)
	binary.LittleEndian.PutUint64(t[s+9:], x1)
	t[s+17] = x2
	if uint(dn-1) < 6 { // the 'f' form, 1 ≤ dn ≤ 6: ddd.ddd or ddd000
		ps := uint(8*dn) & 63
		m := uint64(1)<<ps - 1
		binary.LittleEndian.PutUint64(t[s:], x0&m|'.'<<ps|(x0&^m)<<8)
		if nd > dn {
			return b[:n+s+nd+1]
		}
		return b[:n+s+dn]
	}
	if uint(dn+3) < 4 { // the 'f' form, −3 ≤ dn ≤ 0 (here only dn = −3): 0.000ddd
		z := 2 - dn
		o := (s + z) & 7 // ≤ 6
		binary.LittleEndian.PutUint64(t[s:], zeroPoint)
		binary.LittleEndian.PutUint64(t[o:], x0)
		binary.LittleEndian.PutUint64(t[o+8:], x1)
		t[o+16] = x2
		return b[:n+s+z+nd]
	}

	// The 'e' form: d.ddde±dd, the point dropped after a single digit.
	binary.LittleEndian.PutUint64(t[s:], x0&0xff|'.'<<8|(x0&^0xff)<<8)
	ln := nd + 1
	if nd == 1 {
		ln = 1
	}
	e, es := dn-1, uint64('+')
	if e < 0 {
		e, es = -e, '-'
	}
	eh := uint64(e) * 5243 >> 19 // ⌊e/100⌋ for e < 10^4
	er := uint64(e) - eh*100
	et := er * 103 >> 10 // ⌊er/10⌋ for er < 100
	ew := 'e' | es<<8 | (et+'0')<<16 | (er-et*10+'0')<<24
	el := 4
	if eh != 0 {
		ew = 'e' | es<<8 | (eh+'0')<<16 | (et+'0')<<24 | (er-et*10+'0')<<32
		el = 5
	}
	binary.LittleEndian.PutUint64(t[s+ln:], ew)
	return b[:n+s+ln+el]
}

// zeroPoint is "0.000000" as a word: the start of a number below 1 in the 'f' form.
const zeroPoint = 0x303030303030_2e30

// frameHeads[dp+2], for −2 ≤ dp ≤ 1, builds the first word of the text of v = 0.D·10^dp from
// the first word x0 of D: prefix + x0&keep + (x0&^keep)·scale.
var frameHeads = [4]struct{ prefix, keep, scale uint64 }{
	{zeroPoint & (1<<32 - 1), 0, 1 << 32}, // dp = −2: 0.00D
	{zeroPoint & (1<<24 - 1), 0, 1 << 24}, // dp = −1: 0.0D
	{zeroPoint & (1<<16 - 1), 0, 1 << 16}, // dp = 0: 0.D
	{'.' << 8, 0xff, 1 << 8},              // dp = 1: D₀.D₁D₂…
}

// shortRoom is the room appendFloatShortest writes in: the longest text, 24 bytes
// ("-2.2250738585072014e-308"), and the spill of its last word store.
const shortRoom = 32

// formatSpecial writes the text of ±0, ±Inf and NaN (the bits u) into t and returns its
// length.
func formatSpecial(t *[shortRoom]byte, u uint64) int {
	var s string
	switch {
	case u&(1<<63-1) == 0:
		s = "0"
		if u>>63 != 0 {
			s = "-0"
		}
	case u&(1<<52-1) != 0:
		s = "NaN"
	case u>>63 != 0:
		s = "-Inf"
	default:
		s = "+Inf"
	}
	return copy(t[:], s)
}

// asciiZeros is eight '0' bytes as a word.
const asciiZeros = 0x3030303030303030

// digitBytes8 returns the eight decimal digits of x < 10^8, leading zeros included, as byte
// values 0 to 9 of a little-endian word: the first digit in the lowest byte. It divides all
// lanes of the word at once (by 10^4, then 100 in two 32-bit lanes, then 10 in four 16-bit
// lanes) with multiplications by reciprocals that are exact in those ranges. Each step puts
// the quotient q of a lane's value y in its lower half and the remainder in its upper half,
// y·2^w − q·(c·2^w − 1) for the divisor c and the half's width w: one multiplication after
// the quotient's, not two.
func digitBytes8(x uint32) uint64 {
	q := uint64(x / 10000)
	v := uint64(x)<<32 - q*(10000<<32-1)
	q = (v * 5243 >> 19) & 0x0000007f_0000007f // ⌊y/100⌋ = ⌊y·5243/2^19⌋ for y < 10^4
	v = v<<16 - q*(100<<16-1)
	q = (v * 103 >> 10) & 0x000f000f_000f000f // ⌊y/10⌋ = ⌊y·103/2^10⌋ for y < 100
	return v<<8 - q*(10<<8-1)
}

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
