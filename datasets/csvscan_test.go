package datasets

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// scanField returns a random numeric field of one of the shapes the reader meets: R's 15
// significant digits, sdcbench's shortest form, fixed notation with 0 to 24 decimals, leading
// zeros, signs, integers, 16 to 24 digits, zeros with long fractions, exponents; typical is
// true for the shapes numericLine must take itself (not leave to readRows).
func scanField(rng *rand.Rand) (f string, typical bool) {
	v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
	switch rng.IntN(12) {
	case 0, 1: // R's write.csv
		f = strconv.FormatFloat(rng.NormFloat64(), 'g', 15, 64)
		return f, !strings.ContainsRune(f, 'e') && strings.ContainsRune(f, '.') && len(strings.TrimLeft(f, "-0.")) >= 9
	case 2, 3: // a release
		f = strconv.FormatFloat(rng.NormFloat64(), 'g', -1, 64)
		return f, !strings.ContainsRune(f, 'e') && len(strings.TrimLeft(f, "-0.")) >= 14 && len(f) < 22
	case 4:
		return strconv.FormatFloat(v, 'f', rng.IntN(25), 64), false
	case 5:
		return strconv.FormatFloat(v, 'g', 1+rng.IntN(19), 64), false
	case 6: // codes and counts
		return strconv.Itoa(rng.IntN(2000) - 1000), true
	case 7: // leading zeros and signs around random digits: 1 to 26 of them
		var b strings.Builder
		b.WriteString([]string{"", "-", "+"}[rng.IntN(3)])
		b.WriteString(strings.Repeat("0", rng.IntN(3)))
		d := make([]byte, 1+rng.IntN(26))
		for i := range d {
			d[i] = byte('0' + rng.IntN(10))
		}
		if rng.IntN(4) > 0 {
			d[rng.IntN(len(d))] = '.'
		}
		b.Write(d)
		return b.String(), false
	case 8: // zeros with long fractions, and 2^53 and 10^22 neighbours
		return []string{"0.00000000000000000000000", "-0.00000000000000000000000", "0.000000000000000000000000",
			"0.0000000000000000000001", "-0.000000000000000", "9007199254740992", "9007199254740993",
			"0.9007199254740993", "900719925474099.3", "0.90071992547409921", "1.8446744073709551615",
			"1.9999999999999999999", "0.99999999999999999999", "0.00000001234567890123456",
			// rounding up to the next power of two (the mantissa carries into a 54th bit)
			"0.99999999999999999", "1.99999999999999999", "-7.9999999999999999", "3.99999999999999999",
			"0.0999999999999999999", "-0.00999999999999999999", "0.5000000000000000001"}[rng.IntN(21)], false
	case 9: // the midpoint of two doubles, 17 to 20 digits
		return strconv.FormatFloat(v, 'f', -1, 64) + strconv.Itoa(rng.IntN(10)), false
	case 10: // exponents, and not numbers
		return []string{"1e5", "9.43406554599346e-05", "1E-7", "1e", "-", "+", ".", "-.", "", "NA", "NaN", " 1.5",
			"1.5 ", "1..5", "1.5.", "\"1.5\"", "Inf", "0x10", "1_0", "1.5x"}[rng.IntN(20)], false
	}
	return strconv.FormatFloat(v, 'g', -1, 64), false
}

// TestNumericLine compares numericLine with parsing each field alone by parseDecimal (itself
// strconv.ParseFloat bit for bit, TestParseFloat) on random lines of 1 to 12 fields of every
// shape (scanField), followed by '\n', '\r' or another byte and seven bytes of digits, commas
// or points: when numericLine takes a line every value is bit for bit parseDecimal's and
// every field is one that parseDecimal takes whole, no longer than short; a line of typical
// fields with '\n' or '\r' after it must be taken.
func TestNumericLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 13))
	for iter := range 300000 {
		p := 1 + rng.IntN(12)
		fields := make([]string, p)
		typical := true
		for c := range fields {
			var ty bool
			fields[c], ty = scanField(rng)
			if iter%2 == 0 { // half the lines of typical fields only
				for !ty {
					fields[c], ty = scanField(rng)
				}
			}
			typical = typical && ty
		}
		line := strings.Join(fields, ",")
		switch rng.IntN(20) { // a wrong number of fields
		case 0:
			line += ","
		case 1:
			line += "," + fields[0]
		case 2:
			p++
		case 3:
			if p > 1 {
				p--
			}
		}
		term := []byte{'\n', '\r', '\n', '\r', ',', '5', '.', 0}[rng.IntN(8)]
		short := []int{-1, -1, -1, 3, 4, 17}[rng.IntN(6)]
		b := append([]byte(line), term)
		for range scanSlack - 1 {
			b = append(b, "0123456789,.-e"[rng.IntN(14)])
		}
		row := make([]float64, p)
		taken, pos := numericLine(b, row, short)
		checkNumericLine(t, b, line, term, row, short, taken, pos)
		if taken < p && typical && len(fields) == p && line == strings.Join(fields, ",") && short < 0 && (term == '\n' || term == '\r') {
			t.Fatalf("numericLine(%q) left a line of typical fields to the general way from field %d", b, taken)
		}
	}
}

// checkNumericLine fails unless numericLine(b, row, short) = taken, pos is right for line:
// nothing taken unless term is '\n' or '\r'; every field taken one that parseDecimal takes
// whole, longer than short, with its value bit for bit, followed by a comma or, for the last
// cell, by the end of the line; pos the start of the first field not taken.
func checkNumericLine(t *testing.T, b []byte, line string, term byte, row []float64, short, taken, pos int) {
	t.Helper()
	if term != '\n' && term != '\r' && taken != 0 {
		t.Fatalf("numericLine(%q) took %d fields of a line followed by %q", b, taken, term)
	}
	lf := strings.Split(line, ",")
	off := 0
	for c := range taken {
		if c >= len(lf) {
			t.Fatalf("numericLine(%q) took %d fields of %d", b, taken, len(lf))
		}
		want, ok := parseDecimal([]byte(lf[c]))
		if !ok || len(lf[c]) <= short || math.Float64bits(row[c]) != math.Float64bits(want) {
			t.Fatalf("numericLine(%q, short %d): field %d (%q) = %v (%x), parseDecimal %v (%x), %v", b, short, c, lf[c],
				row[c], math.Float64bits(row[c]), want, math.Float64bits(want), ok)
		}
		off += len(lf[c]) + 1
	}
	if taken == len(row) {
		if len(lf) != len(row) {
			t.Fatalf("numericLine(%q) took all %d cells of a line of %d fields", b, taken, len(lf))
		}
	} else if pos != off {
		t.Fatalf("numericLine(%q) took %d fields and stopped at %d, not %d", b, taken, pos, off)
	}
}

// TestScanDecimal compares scanDecimal, on a field followed by a comma or by the end of its
// line and bytes that may continue a number, with parseDecimalPrefix of the field alone.
func TestScanDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 14))
	for range 300000 {
		f, _ := scanField(rng)
		for _, tail := range []string{",", ",12345678", "", "\r"} {
			b := []byte(f + tail)
			end := len(b)
			if tail == "" { // the line ends with the field; digits follow in the buffer
				b = append(b, "12345678"...)
			} else {
				b = append(b, "12345678"...)
				end = len(f) + len(tail)
			}
			v, k, ok := scanDecimal(b, 0, end)
			wv, wn, wok := parseDecimalPrefix([]byte(f))
			if ok && (k < end && b[k] == ',' || k == end) {
				if !wok || k != wn || k != len(f) || math.Float64bits(v) != math.Float64bits(wv) {
					t.Fatalf("scanDecimal(%q, end %d) = %v, %d, %v; parseDecimalPrefix(%q) = %v, %d, %v", b, end, v, k, ok, f, wv, wn, wok)
				}
			}
			// a plain decimal parseDecimal takes, of at most 19 digits, is taken (the same
			// Clinger and Eisel–Lemire paths decide)
			if pv, pok := parseDecimal([]byte(f)); pok && !strings.ContainsAny(f, "eE") && len(strings.Trim(f, "+-.")) <= 19 &&
				!(ok && k == len(f) && math.Float64bits(v) == math.Float64bits(pv)) {
				t.Fatalf("scanDecimal(%q, end %d) = %v, %d, %v; parseDecimal %v", b, end, v, k, ok, pv)
			}
		}
	}
}

// TestDigitRun checks digitRun and nonDigits against a byte loop: every byte value at every
// position of a word among digits, and random mixes of digits and other bytes, with every
// end.
func TestDigitRun(t *testing.T) {
	check := func(b []byte, i, end int) {
		t.Helper()
		var wm uint64
		wi := i
		for wi < end && b[wi]-'0' < 10 {
			wm = wm*10 + uint64(b[wi]-'0')
			wi++
		}
		m, k := digitRun(b, i, end, 0) // m wraps as wm does beyond 19 digits
		if m != wm || k != wi {
			t.Fatalf("digitRun(%q, %d, end %d) = %d, %d; want %d, %d", b, i, end, m, k, wm, wi)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := []byte("1234567890123456789012345")
			b[pos] = byte(c)
			b[pos+9] = byte(c)
			for end := 0; end <= 16; end++ {
				check(b, 0, end)
			}
			x := bytesWord(b[:8]) ^ 0x3030303030303030
			if want := bytes.IndexFunc(b[:8], func(r rune) bool { return r < '0' || r > '9' }); want >= 0 && bits.TrailingZeros64(nonDigits(x))>>3 != want {
				t.Fatalf("nonDigits(%q) counts %d digits, want %d", b[:8], bits.TrailingZeros64(nonDigits(x))>>3, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(30, 15))
	for range 100000 {
		b := make([]byte, 40)
		for i := range b {
			if rng.IntN(6) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = byte('0' + rng.IntN(10))
			}
		}
		i := rng.IntN(24)
		check(b, i, i+rng.IntN(40-8-i+1))
	}
}

// bytesWord loads eight bytes little-endian.
func bytesWord(b []byte) uint64 {
	var w uint64
	for i := 7; i >= 0; i-- {
		w = w<<8 | uint64(b[i])
	}
	return w
}

// FuzzNumericLine is TestNumericLine's comparison (checkNumericLine) on any line.
func FuzzNumericLine(f *testing.F) {
	for _, s := range []string{"-0.626453810742332,1.59528080213779", "0.0039048493379949534,1", "1.5,,2",
		"9.43406554599346e-05", "0.99999999999999999,-0.00000000000000000000000", "+.5,5.,-0"} {
		f.Add([]byte(s), uint8(3), byte('\n'))
	}
	f.Fuzz(func(t *testing.T, line []byte, p uint8, term byte) {
		if bytes.IndexByte(line, '\n') >= 0 || p == 0 || p > 64 {
			return
		}
		b := append(append(bytes.Clone(line), term), strings.Repeat("1234567", 5)[:scanSlack-1]...)
		row := make([]float64, p)
		taken, pos := numericLine(b, row, -1)
		checkNumericLine(t, b, string(line), term, row, -1, taken, pos)
	})
}

// TestReadNumericLinesMatchStandard compares ReadCSV with the encoding/csv reader on numeric
// tables whose lines numericLine takes whole, in part (a missing token, a number with an
// exponent or of more than 19 digits, spaces, quotes, text, a line with a field too many or
// too few: readRows reads on from where it stopped) or not at all, under every option set, in
// whole inputs and streamed ones of every chunk size (sameRead).
func TestReadNumericLinesMatchStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 16))
	odd := []string{"NA", "", "NaN", "-99", ".", "?", " 1.5", "\"2.25\"", "1e-05", "x", "Inf",
		"0.000000000000123456789012345", "12345678901234567890.5"}
	// a column missing, then a number (a line numericLine takes whole), then text: the column
	// turns text after a number, so the number's text must be read again
	for _, s := range []string{"a,b\n1.5,NA\n2.5,3.25\n3.5,x\n", "a,b\n1.5,NA\n2.5,3\n3.5,x\n",
		"a,b\nNA,1.5\n2.25,1.5\nx,1.5\n", "a,b\n1.5,\n0.123456789012345,2\n3.5,x\n"} {
		for _, opt := range fastOptions {
			sameRead(t, s, opt)
		}
	}
	for iter := range 300 {
		var b strings.Builder
		b.WriteString("a,b,c,d\n")
		rows := 1 + rng.IntN(40)
		for r := range rows {
			nf := 4
			if rng.IntN(50) == 0 {
				nf = 3 + 2*rng.IntN(2) // a field too few or too many
			}
			for c := range nf {
				if c > 0 {
					b.WriteByte(',')
				}
				f, _ := scanField(rng)
				if iter%3 == 0 && strings.ContainsAny(f, "\" ") || iter%3 == 1 && rng.IntN(8) == 0 {
					f = odd[rng.IntN(len(odd))]
				}
				if iter%3 == 2 { // typical numbers only
					for ty := false; !ty; {
						f, ty = scanField(rng)
					}
				}
				b.WriteString(f)
			}
			if r < rows-1 || rng.IntN(2) == 0 {
				b.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)])
			}
		}
		for _, opt := range fastOptions {
			sameRead(t, b.String(), opt)
		}
	}
}

// TestFirstNonDigits checks firstNonDigits against nonDigits (exact in every byte) where
// numericLine relies on it: the first flagged byte, and, when that is a point, whether it is
// the only one. Every pair of byte values at every pair of positions among digits, and random
// words of digits, points and any bytes.
func TestFirstNonDigits(t *testing.T) {
	check := func(w []byte) {
		x := bytesWord(w) ^ 0x3030303030303030
		nd, fnd := nonDigits(x), firstNonDigits(x)
		first := bits.TrailingZeros64(nd)
		if first != bits.TrailingZeros64(fnd) || first < 64 && w[first>>3] == '.' && (nd&(nd-1) == 0) != (fnd&(fnd-1) == 0) {
			t.Fatalf("firstNonDigits(%q) = %#x, nonDigits %#x", w, fnd, nd)
		}
	}
	w := []byte("31415926")
	for p1 := range 8 {
		for p2 := p1 + 1; p2 < 8; p2++ {
			for c1 := range 256 {
				for c2 := range 256 {
					copy(w, "31415926")
					w[p1], w[p2] = byte(c1), byte(c2)
					check(w)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(30, 17))
	for range 1000000 {
		for i := range w {
			switch rng.IntN(4) {
			case 0:
				w[i] = byte(rng.IntN(256))
			case 1:
				w[i] = '.'
			default:
				w[i] = byte('0' + rng.IntN(10))
			}
		}
		check(w)
	}
}
