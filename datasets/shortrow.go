package datasets

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

// The writer's numbers a chunk at a time (appendChunks): the decimals of the numbers from
// about 0.001 to 10 (shortFrameDigits), their digits as text (shortText), then their layout
// (appendFrames), phase after phase instead of number after number, so that the numbers'
// chains of dependent instructions overlap and eight decimals become text in a few vector
// instructions (docs/datapath.md, "What the writer does now", session 15). The bytes are
// appendFloatShortest's, whose frame layout (dp from −2 to 1) appendFrames writes.

// shortChunk is the number of values appendChunks takes through each phase at a time (a
// multiple of 8, the lanes of shortTextAVX512).
const shortChunk = 16

// shortWords holds the decimals of up to shortChunk values (shortFrameDigits) and their text
// (shortText).
type shortWords struct {
	d      [shortChunk]uint64 // the 16- or 17-digit decimal D (10^15 ≤ d < 10^17)
	x0, x1 [shortChunk]uint64 // D's 17 digits as text (a leading 0 when it has 16): the first eight
	x2     [shortChunk]uint64 // then the next eight, and the last one
	nd     [shortChunk]uint64 // the digits up to the last nonzero one
	dp     [shortChunk]int    // dp+2 of the frame layout (0 to 3), or −1: another value
}

// shortTextGo writes the text of every decimal w.d[i] into w.x0[i], w.x1[i], w.x2[i] and
// w.nd[i], as appendFloatShortest turns its decimal into text: D's 17 digits (a leading 0
// when d has 16) as bytes '0' to '9', the first in the lowest byte of x0, and nd, their
// number up to the last nonzero one.
func shortTextGo(w *shortWords) {
	for i, d := range &w.d {
		hi := d / 1e8
		top := d / 1e16
		w1 := digitBytes8(uint32(hi - top*1e8))
		w2 := digitBytes8(uint32(d - hi*1e8))
		last, nd := w2, 17
		if w2 == 0 {
			last, nd = w1, 9
		}
		nd -= bits.LeadingZeros64(last) / 8
		w1 |= asciiZeros
		w2 |= asciiZeros
		w.x0[i], w.x1[i], w.x2[i], w.nd[i] = top|'0'|w1<<8, w1>>56|w2<<8, w2>>56, uint64(nd)
	}
}

// shortFrameDigits is shortFrameDigitsGo, in assembly where the processor has BMI2.
func shortFrameDigits(w *shortWords, xs []float64) int {
	if useShortDigitsBMI2 {
		xs = xs[:min(len(xs), shortChunk)]
		return shortDigitsBMI2(w, &xs[0], len(xs))
	}
	return shortFrameDigitsGo(w, xs)
}

// shortText is shortTextGo, in AVX-512 assembly where the processor has it.
func shortText(w *shortWords) {
	if useShortTextAVX512 {
		shortTextAVX512(w, shortChunk/8)
		return
	}
	shortTextGo(w)
}

// shortFrameDigitsGo sets w.d[i], for every xs[i] (i < shortChunk) from about 0.001 to 10
// (dp from −2 to 1 in appendFloatShortest, known from the binary exponent alone), to the
// decimal of shortestDigits (16 or 17 digits: xs[i] is normal) and w.dp[i] to dp+2; for any
// other value w.dp[i] to −1 (and w.d[i] to 10^16). It returns how many values it found in
// that range. It is shortestDigits written out for regular values (c ≠ 2^52: a value whose
// lower neighbour is nearer goes the other way), without a call in the loop.
func shortFrameDigitsGo(w *shortWords, xs []float64) int {
	nf := 0
	for i, v := range xs[:min(len(xs), shortChunk)] {
		u := math.Float64bits(v)
		frac, exp := u&(1<<52-1), int(u>>52)&0x7ff
		q := exp - 1075
		k := (q * 315652) >> 20 // ⌊log10 2^q⌋
		dp := k + 17
		if uint(dp+2) > 3 || frac == 0 {
			w.dp[i] = -1
			w.d[i] = 1e16
			continue
		}
		nf++
		c := frac | 1<<52
		cb := c << 2
		g := &shortPows[(-k-shortPowMin)&1023]
		h := uint(q+((-k)*1741646)>>19+1) & 63
		vb := roundOdd(g, cb<<h)
		vbl := roundOdd(g, (cb-2)<<h)
		vbr := roundOdd(g, (cb+2)<<h)
		out := c & 1
		s := vb >> 2
		d := s
		if vb+s&1 > s<<2+2 {
			d = s + 1
		}
		if vbl+out > s<<2 {
			d = s + 1
		}
		if (s+1)<<2+out > vbr {
			d = s
		}
		sp := s / 10 * 10
		if vbl+out <= sp<<2 {
			d = sp
		}
		if (sp+10)<<2+out <= vbr {
			d = sp + 10
		}
		w.d[i], w.dp[i] = d, dp+2
	}
	return nf
}

// appendFrames appends xs[i], xs[i+1], … in appendFloatShortest's frame layout from their
// text in w, each followed by a comma, or by a newline when it is the last of a row (col is
// the column of xs[i] in rows of p values), as long as they are in that range and b has
// room; it returns b, the index of the first value it did not append, and that value's
// column.
func appendFrames(b []byte, w *shortWords, xs []float64, i, col, p int) ([]byte, int, int) {
	for ; i < len(xs) && i < shortChunk; i++ {
		n := len(b)
		if w.dp[i] < 0 || cap(b)-n < shortRoom {
			return b, i, col
		}
		t := (*[shortRoom]byte)(b[n : n+shortRoom])
		x0, x1, x2, nd := w.x0[i], w.x1[i], byte(w.x2[i]), int(w.nd[i]&31)
		f := &frameHeads[w.dp[i]&3]
		z := 4 - w.dp[i] // where D starts: 2 − dp
		head := f.prefix + x0&f.keep + (x0&^f.keep)*f.scale
		ln := z + nd
		if ln == 2 { // a single digit: no point
			ln = 1
		}
		s := int(math.Float64bits(xs[i])>>63) & 1
		t[0] = '-'
		o := (s + z) & 7
		binary.LittleEndian.PutUint64(t[o:], x0)
		binary.LittleEndian.PutUint64(t[o+8:], x1)
		t[o+16] = x2
		binary.LittleEndian.PutUint64(t[s&1:], head)
		sep := byte(',')
		col++
		if col == p {
			sep, col = '\n', 0
		}
		b = b[:n+s+ln+1]
		b[n+s+ln] = sep
	}
	return b, i, col
}

// frameProbe is the number of chunks appendNumberRows writes number by number after a chunk
// with few numbers in the frame range before it looks at a chunk's share again.
const frameProbe = 64

// appendChunk appends the numbers xs, whose decimals and text are in w (shortFrameDigits,
// shortText), each followed by a comma or, in column p−1 (col is the column of xs[0]), a
// newline: those in the frame range by appendFrames, the others by appendShortest. It
// returns b and the column of the next number.
func appendChunk(b []byte, w *shortWords, xs []float64, col, p int) ([]byte, int) {
	for i := 0; i < len(xs); i++ {
		if w.dp[i] >= 0 && cap(b)-len(b) >= shortRoom {
			b, i, col = appendFrames(b, w, xs, i, col, p)
			if i == len(xs) {
				break
			}
		}
		b = appendShortest(b, xs[i])
		if col++; col == p {
			b, col = append(b, '\n'), 0
		} else {
			b = append(b, ',')
		}
	}
	return b, col
}

// appendChunks is appendNumberRows: it takes the numbers shortChunk at a time, and a chunk
// of which at least a quarter are in the frame range goes through the phases
// (shortFrameDigits, shortText, appendChunk). A chunk with fewer is written number by number
// (appendShortest), and so are the next frameProbe−1 chunks, unless adaptive is false
// (the tests' way to take every chunk through the phases).
func appendChunks(b []byte, x []float64, p int, adaptive bool) []byte {
	x = x[:len(x)/p*p]
	var w shortWords
	col := 0   // the column of the next number
	probe := 0 // chunks to write number by number before the next look at the phases' share
	for len(x) > 0 {
		xs := x[:min(len(x), shortChunk)]
		x = x[len(xs):]
		if probe == 0 {
			if nf := shortFrameDigits(&w, xs); 4*nf >= len(xs) || !adaptive {
				shortText(&w)
				b, col = appendChunk(b, &w, xs, col, p)
				continue
			}
			// Fewer than a quarter of the numbers in the frame range (a release of other
			// magnitudes): the phases would cost more than they save.
			probe = frameProbe
		}
		probe--
		b, col = appendEach(b, xs, col, p)
	}
	return b
}

// appendEach appends the numbers xs one by one (appendShortest), each followed by a
// comma or, in column p−1 (col is the column of xs[0]), a newline, as the loop of
// appendNumberRows before the phases did; it returns b and the column of the next number.
// (A function of its own: in appendChunks the loop kept b and its counters on the stack.)
func appendEach(b []byte, xs []float64, col, p int) ([]byte, int) {
	for len(xs) > 0 { // a row's end at a time
		k := min(len(xs), p-col)
		for _, v := range xs[:k] {
			if t, ok := shortWhole(v); ok { // appendShortest written out: it is not inlined
				b = strconv.AppendInt(b, t, 10)
			} else {
				b = appendFloatShortest(b, v)
			}
			b = append(b, ',')
		}
		xs = xs[k:]
		if col += k; col == p {
			b[len(b)-1] = '\n'
			col = 0
		}
	}
	return b, col
}
