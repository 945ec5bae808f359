package datasets

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// scanSlack is how many bytes scanDecimal (8) and numericLine (25) may load beyond the end of
// the field's line: the line must lie inside a slice that extends at least this far (the
// reader's buffer).
const scanSlack = 32

// scanDecimal is the reader's parse of the usual numeric field: a plain decimal
// [+-]digits[.digits] with at most 19 digits in all, written from b[i] on and ending before
// end (the end of the line). It returns the value and the index k just after the decimal; ok
// is false when b[i:end] does not start with such a decimal (no digits, more than 19 digits;
// the caller then takes the general way). When ok, v is exactly parseDecimalPrefix's value
// of b[i:k] and k its length from i, unless the decimal goes on with an exponent — the
// caller accepts the field only when k is end or b[k] is a comma, where parseDecimalPrefix
// stops too (TestScanDecimal).
//
// b must have scanSlack readable bytes beyond end: the digits are read eight at a time as one
// little-endian word whatever follows them, the bytes at and after end are ignored. A run of
// digits costs one step per eight digits, with no branch on the digits themselves (the
// number of leading digit bytes of a word is counted from a mask; the leading-digit test and
// value of Lemire's fast_float, here for any count of digits, see digitRun), and the sign is
// read without a branch: the signs of a column of normal numbers are as unpredictable as a
// coin. Leading zeros are counted as digits (so "0.0001234" is 8 digits), which keeps m below
// 10^19 without tracking where the significant digits start; longer numbers are left to
// parseDecimalPrefix.
func scanDecimal(b []byte, i, end int) (v float64, k int, ok bool) {
	if i >= end {
		return 0, i, false
	}
	c := b[i]
	neg := c == '-'
	i += b2i((c-'+')&^2 == 0) // '+' or '-' (0x2B, 0x2D)
	start := i
	m, i := digitRun(b, i, end, 0)
	digits, frac := i-start, 0
	if i < end && b[i] == '.' {
		var j int
		m, j = digitRun(b, i+1, end, m)
		frac = j - i - 1
		digits += frac
		i = j
	}
	if digits == 0 || digits > 19 {
		return 0, i, false
	}
	if m <= 1<<53 { // Clinger's fast path (frac ≤ 19 < 22): exactly parseDecimalPrefix's division
		v = float64(int64(m)) / pow10[frac]
		return math.Float64frombits(math.Float64bits(v) | uint64(b2i(neg))<<63), i, true
	}
	v, ok = eiselLemire(m, -frac, neg)
	return v, i, ok
}

// digitRun reads the ASCII digits from b[i] up to end, adding them to the digits of m (m·10^n
// plus their value, wrapping beyond 2^64), and returns m and the index after the last digit.
// Each step loads eight bytes and counts the digits they start with: with x the bytes XOR
// '0', a byte is a digit when its x is below 10, which (x&0x7F)+0x76 tells in its high bit
// without carrying into the next byte; the first byte flagged ends the run. Those digits,
// moved to the top of the word (the bytes below them zero, as leading zeros), are combined
// in three multiplications as in eightDigits.
func digitRun(b []byte, i, end int, m uint64) (uint64, int) {
	for {
		x := binary.LittleEndian.Uint64(b[i:]) ^ 0x3030303030303030
		nd := ((x & 0x7F7F7F7F7F7F7F7F) + 0x7676767676767676 | x) & 0x8080808080808080
		n := min(bits.TrailingZeros64(nd)>>3, end-i)
		m = m*pow10u[n&15] + digitsValue(x<<(64-8*uint(n)))
		i += n
		if n < 8 {
			return m, i
		}
	}
}

// pow10u holds 10^n as integers for n < 16 (digitRun indexes it with at most 8).
var pow10u = [16]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// digitsValue is eightDigits for a word whose bytes are digit values 0–9 (not ASCII), the
// first in the lowest byte.
func digitsValue(w uint64) uint64 {
	const mask = 0x000000FF000000FF
	const mul1 = 100 + 1000000<<32
	const mul2 = 1 + 10000<<32
	w = w*10 + w>>8
	return ((w&mask)*mul1 + ((w>>16)&mask)*mul2) >> 32
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// numericLine parses the fields of a line of the usual numeric table, b[:len(b)-scanSlack]
// (b extends scanSlack bytes beyond the line), into row, from the first: plain decimals of at
// most 19 significant digits, none of at most short bytes (a number that may be a missing
// token), each followed by a comma, the last cell's by the end of the line. It returns how many
// cells it took, and where the first field it did not take starts: readRows reads the rest of
// the line field by field (a missing token, text, a number with an exponent, a line with more
// or fewer fields), as it would have read the whole line without this path.
//
// The line must be followed by '\n' or '\r' (the line source's terminator; otherwise it takes
// nothing), so that no run of digits or fraction goes past the line's end. A field of the
// usual shape — an integer part of at most seven digits, a point and 8 to 23 fraction digits,
// as R and sdcbench write numbers — is read from words of eight bytes with no loop and no
// branch on its digits or sign; an integer of one to seven digits (a code) has a path of its
// own, and any other field goes to scanDecimal. Both give exactly parseDecimalPrefix's value
// (TestNumericLine).
//
// Where a field ends is found first, from the word after the sign and the two after it alone
// (the first byte from the ninth on that is not a digit), and the next field starts there:
// the next field's loads wait for these three words, not for this field's digits, so the
// processor parses several fields at once (the fields of a line are independent; only their
// positions are a chain). The same three words validate the field: its first word has the
// point as its only non-digit, and the bytes from there to the end are digits by
// construction. The digits are then read from words aligned to the fraction's start and to
// the field's end (digitsValue, with tailMask for the part of the last word not read yet), so
// no digit is read twice. Clinger's division (m < 10^15: exact) or Eisel–Lemire gives the
// value; the branch between them is on m, regular within a column (R's 15 digits always take
// the division).
//
// The words are loaded without bounds checks (load64): every load starts at most 25 bytes
// after a position at or before the line's end, within the scanSlack bytes that follow it.
//
// Where the processor has AVX-512, numericGroups (csvscan_amd64.go) first parses up to
// sixteen fields a call in vector registers, and this loop (numericLineFrom) reads on from the
// first field it did not take: the result is the loop's alone (TestNumericLineKernel).
func numericLine(b []byte, row []float64, short int) (taken, pos int) {
	end := len(b) - scanSlack
	if end < 0 || b[end] != '\n' && b[end] != '\r' {
		return 0, 0
	}
	c, pos := numericGroups(b, end, row, short)
	if c == len(row) && c > 0 {
		return c, end
	}
	return numericLineFrom(b, end, row, short, c, pos)
}

// numericLineFrom is numericLine's loop from cell c0, whose field starts at pos0 (the cells
// before it taken already).
func numericLineFrom(b []byte, end int, row []float64, short, c0, pos0 int) (taken, pos int) {
	p := unsafe.Pointer(unsafe.SliceData(b))
	const zeros = 0x3030303030303030
	pos = pos0
	for c := c0; c < len(row); c++ {
		ch := byteAt(p, pos)
		i := pos + b2i((ch-'+')&^2 == 0)
		x := load64(p, i) ^ zeros
		nd := firstNonDigits(x)
		nda := firstNonDigits(load64(p, i+8) ^ zeros)
		ndb := firstNonDigits(load64(p, i+16) ^ zeros)
		off := 16 + bits.TrailingZeros64(ndb)>>3
		if nda != 0 {
			off = 8 + bits.TrailingZeros64(nda)>>3
		}
		e := i + off
		n := bits.TrailingZeros64(nd) >> 3
		f := i + n + 1
		frac := e - f
		var v float64
		if nd&(nd-1) == 0 && n < 8 && byteAt(p, i+n) == '.' && uint(frac-8) <= 15 {
			x1 := load64(p, f) ^ zeros
			xe := load64(p, e-8) ^ zeros
			var mi uint64
			if n == 1 {
				mi = x & 0xFF
			} else {
				mi = digitsValue(x << 8 << ((56 - 8*uint(n)) & 63))
			}
			m := mi*1e8 + digitsValue(x1)
			r := frac - 8
			if r > 8 {
				m = m*1e8 + digitsValue(load64(p, f+8)^zeros)
				r -= 8
			}
			m = m*pow10u[r&15] + digitsValue(xe&tailMask[r&15])
			if n+frac > 19 { // more than 19 significant digits, unless leading zeros
				lz := (n + bits.TrailingZeros64(x1)>>3) & -b2i(mi == 0)
				if n+frac-lz > 19 {
					goto general
				}
			}
			neg := uint64(b2i(ch == '-')) << 63
			if m < 1e15 {
				// Clinger's fast path (m < 2^53), as parseDecimalPrefix takes it
				if frac > 22 {
					goto general // a zero or leading zeros and 23 fraction digits
				}
				v = float64(int64(m)) / clingerPow10[frac&31]
				v = math.Float64frombits(math.Float64bits(v) | neg)
			} else {
				// Eisel–Lemire, as eiselLemire computes it. It gives the correctly rounded
				// value or declines, as Clinger's path does where parseDecimalPrefix takes
				// that (m ≤ 2^53), so the two agree. The branch is on m, not on
				// m ≤ 2^53, which tells half of a release's 16-digit numbers apart at random:
				// R's 15 digits always take the division, a release's 16 and 17 mostly this.
				// For 10^15 ≤ m < 10^19 and 8 ≤ frac ≤ 23 the result is a normal number; the
				// rare cases where it needs the wider product or may decline go to
				// eiselLemire, and what that declines to Clinger's path or the general way.
				pw := &eiselPows[(-frac-eiselMin)&127]
				clz := bits.LeadingZeros64(m)
				mm := m << uint(clz&63)
				xHi, xLo := bits.Mul64(mm, pw.hi)
				msb := xHi >> 63
				mant := xHi >> (msb + 9)
				exp := uint64(pw.exp+63+1023) - uint64(clz) - (1 ^ msb)
				if xHi&0x1FF == 0x1FF && xLo+mm < mm || xLo == 0 && xHi&0x1FF == 0 && mant&3 == 1 {
					var ok bool
					if v, ok = eiselLemire(m, -frac, neg != 0); !ok {
						if m > 1<<53 || frac > 22 {
							goto general
						}
						v = float64(int64(m)) / clingerPow10[frac&31]
						v = math.Float64frombits(math.Float64bits(v) | neg)
					}
				} else {
					mant += mant & 1 // from 54 to 53 bits
					ov := mant >> 54
					mant >>= 1 + ov
					exp += ov
					v = math.Float64frombits(exp<<52 | mant&(1<<52-1) | neg)
				}
			}
			goto field
		}
	general:
		if t := byteAt(p, i+n); uint(n-1) < 7 && (t == ',' || i+n == end) {
			// an integer of one to seven digits
			var m uint64
			if n == 1 {
				m = x & 0xFF
			} else {
				m = digitsValue(x << 8 << ((56 - 8*uint(n)) & 63))
			}
			v = math.Float64frombits(math.Float64bits(float64(int64(m))) | uint64(b2i(ch == '-'))<<63)
			e = i + n
		} else {
			var ok bool
			if v, e, ok = scanDecimal(b, pos, end); !ok {
				return c, pos
			}
		}
	field:
		if e-pos <= short {
			return c, pos
		}
		if byteAt(p, e) != ',' {
			if e == end && c == len(row)-1 {
				row[c] = v
				return c + 1, end
			}
			return c, pos
		}
		if c == len(row)-1 {
			return c, pos // more fields than cells
		}
		row[c] = v
		pos = e + 1
	}
	return 0, 0 // no cells
}

// clingerPow10 is pow10 in an array of 32, so that numericLine indexes it with frac&31
// without a bounds check (it uses the entries up to 10^22 only).
var clingerPow10 = [32]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// tailMask[r] keeps the top r bytes of a word (r ≤ 8): the digits of the field's last word
// that the words before it did not cover.
var tailMask = [16]uint64{0, 0xFF << 56, 0xFFFF << 48, 0xFFFFFF << 40, 0xFFFFFFFF << 32,
	0xFFFFFFFFFF << 24, 0xFFFFFFFFFFFF << 16, 0xFFFFFFFFFFFFFF << 8, 0xFFFFFFFFFFFFFFFF}

// load64 returns the eight bytes at p+i as a little-endian word, without a bounds check: the
// caller guarantees they lie within its slice.
func load64(p unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
}

// byteAt returns the byte at p+i, without a bounds check (as load64).
func byteAt(p unsafe.Pointer, i int) byte {
	return *(*byte)(unsafe.Add(p, i))
}

// firstNonDigits is nonDigits without its mask of the low seven bits, two instructions fewer:
// exact up to and including the first byte it flags, which is what numericLine uses (where a
// run of digits ends; whether a point is the only non-digit of a word). Only a byte of x from
// 0x8A on, a non-digit other than the point, carries into the next byte, so no byte up to the
// first non-digit is wrong, and a word whose first non-digit is a point gains a flag only
// where it has another non-digit already (TestFirstNonDigits).
func firstNonDigits(x uint64) uint64 {
	return (x + 0x7676767676767676 | x) & 0x8080808080808080
}

// nonDigits flags, in the high bit of each byte, the bytes of x (ASCII bytes XOR '0') that
// are not digits: x ≥ 10, told by (x&0x7F)+0x76 reaching 0x80 without carrying into the next
// byte, or x's own high bit.
func nonDigits(x uint64) uint64 {
	return ((x & 0x7F7F7F7F7F7F7F7F) + 0x7676767676767676 | x) & 0x8080808080808080
}
