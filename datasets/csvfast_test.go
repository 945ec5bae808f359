package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fastOptions are the reader options the differential tests compare the two readers under.
var fastOptions = []ReadOptions{
	{},
	{AllowNonFinite: true},
	{Mixed: true},
	{Mixed: true, AllowNonFinite: true},
	{Mixed: true, NA: NewNA(".", "-99")},
	{AllowNonFinite: true, NA: NewNA("", "?")},
	{Columns: []string{"b", "a"}, Mixed: true},
	{Mixed: true, Categorical: []string{"a"}},
	{Columns: []string{"a"}},
}

// sameRead fails unless ReadCSV (the fast reader, falling back to encoding/csv) and
// readCSVStd give the same table or the same error on input s with opt.
// It reads s three ways: streamed (a seekable reader), streamed in pieces of 1 to 3 bytes
// (every line crosses a refill) and whole (a reader that cannot seek).
func sameRead(t *testing.T, s string, opt ReadOptions) {
	t.Helper()
	want, werr := readCSVStd(strings.NewReader(s), "in.csv", opt)
	for _, in := range []io.Reader{strings.NewReader(s), &pieces{Reader: strings.NewReader(s)}, struct{ io.Reader }{strings.NewReader(s)}} {
		got, gerr := ReadCSV(in, "in.csv", opt)
		sameResult(t, s, opt, got, gerr, want, werr)
	}
	// a chunk buffer of 4 bytes: lines longer than it grow it
	small := func() (*lineSource, error) { return newStreamSource(&pieces{Reader: strings.NewReader(s)}, 4), nil }
	if got, ok := readFast(small, 0, "in.csv", opt); ok {
		sameResult(t, s, opt, got, nil, want, werr)
	}
}

// pieces is a seekable reader that returns 1, 2 or 3 bytes per Read.
type pieces struct {
	*strings.Reader
	k int
}

func (p *pieces) Read(b []byte) (int, error) {
	p.k++
	return p.Reader.Read(b[:min(len(b), 1+p.k%3)])
}

func sameResult(t *testing.T, s string, opt ReadOptions, got *Dataset, gerr error, want *Dataset, werr error) {
	t.Helper()
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q %+v: fast error %v, standard error %v", s, opt, gerr, werr)
	}
	if werr != nil {
		if gerr.Error() != werr.Error() {
			t.Fatalf("%q %+v: errors differ:\nfast     %v\nstandard %v", s, opt, gerr, werr)
		}
		var gp, wp *ParseError
		if errors.As(werr, &wp) != errors.As(gerr, &gp) || (wp != nil && (wp.File != gp.File || wp.Row != gp.Row ||
			wp.Column != gp.Column || wp.Value != gp.Value)) {
			t.Fatalf("%q %+v: error values differ: %#v and %#v", s, opt, gerr, werr)
		}
		for _, sentinel := range []error{ErrEmpty, ErrNoRows, ErrRagged, ErrNotNumber, ErrOutOfRange, ErrNonFinite,
			ErrDuplicateName, ErrEmptyName, ErrCompressed, ErrTooLarge, csv.ErrBareQuote, csv.ErrQuote} {
			if errors.Is(gerr, sentinel) != errors.Is(werr, sentinel) {
				t.Fatalf("%q %+v: errors.Is(%v) differs: %v and %v", s, opt, sentinel, gerr, werr)
			}
		}
		return
	}
	if msg := diffDatasets(got, want); msg != "" {
		t.Fatalf("%q %+v: %s", s, opt, msg)
	}
}

// diffDatasets describes the first difference between a and b ("" if none): names, shape,
// every value bit for bit, the levels.
func diffDatasets(a, b *Dataset) string {
	switch {
	case a.Name != b.Name || !slices.Equal(a.Names, b.Names) || a.N != b.N || a.P != b.P:
		return "shapes differ: " + a.Name + strings.Join(a.Names, ",") + " / " + b.Name + strings.Join(b.Names, ",")
	case (a.Levels == nil) != (b.Levels == nil):
		return "one table has levels, the other not"
	}
	for i := range a.Data {
		if math.Float64bits(a.Data[i]) != math.Float64bits(b.Data[i]) && !(a.Data[i] != a.Data[i] && b.Data[i] != b.Data[i]) {
			return "value " + formatFloat(a.Data[i]) + " vs " + formatFloat(b.Data[i])
		}
	}
	for j := range a.Levels {
		if (a.Levels[j] == nil) != (b.Levels[j] == nil) || !slices.Equal(a.Levels[j], b.Levels[j]) {
			return "levels of column " + a.Names[j] + " differ: " + strings.Join(a.Levels[j], "|") + " / " + strings.Join(b.Levels[j], "|")
		}
	}
	return ""
}

// fastSeeds are inputs of every kind the readers meet: plain, quoted (R's write.csv), CRLF,
// blank lines, text after numbers, missing tokens, and the errors.
var fastSeeds = []string{
	"a,b\n1,2\n",
	"a,b\n1,2",
	"a,b\r\n1,2\r\n3,4\r",
	"\"a\",\"b\"\n\"x\",1\n\"y, z\",2\n",
	"a,b\n\n1,2\n\n3,4\n",
	"a,b\n1,x\n2,y\n3,1\n",
	"a,b\n1,2\n3,text\n4,NA\n",
	"a,b\nNA,2\n,x\n3,y\n",
	"a,b\n1,NaN\n2,Inf\n",
	"a,b\n1,nan\n2,word\n",
	"a,b\n1,inf\n",
	"a,b\n1e400,2\n",
	"a,b\n1e-400,2\n",
	"a,b\n 1 , 2 \n\t3\t,4\n",
	"a,b\n1,\"2\"\"\"\n",
	"a,b\n1,\"multi\nline\"\n",
	"a,b\n1,\"x\"y\n",
	"a,b\n1,x\"y\n",
	"a,b\n1\n",
	"a,b\n1,2,3\n",
	"a,b\n\"\"\n1,2\n",
	"a\n\"\"\n1\n",
	"a,a\n1,2\n",
	"a,\n1,2\n",
	"\ufeffa,b\n1,2\n",
	"",
	"\n\n",
	"a,b\n",
	"\x1f\x8b\x08\x00",
	"a,b\n.,-99\n?,1\n",
	"a,b\n1.0,1\n1,2\n01,3\n",
	"a,b\n-0,1\n0,2\n",
	"a,b\nx\u00a0,1\n\u00a0y,2\n",
	"a,b\n1,2\r\r\n",
	"a,b\n1,\"2\"\r\n",
	"a,b\n\"1\",\"\"\n",
	// the row loop's numeric paths: codes with leading zeros and a sign, numbers of 8 to 20
	// digits, a number ending in a space, a quote or text, a code equal to a missing token
	"a,b\n007,-99\n+5,99\n0,-0\n",
	"a,b\n123456789012345,1234567890123456\n12345678901234567890,0.1234567890123456789\n",
	"a,b\n1 ,2\n3,4 \n5,\"6\"\n7,8x\n",
	"a,b,c\n1,,2\n,3,\n4,5,6,\n",
	"a,b\n1.5e3,2E-2\n1e,2\n",
	"a,b\n\"L1\",\"L2\"\n\"L1\",\"L2\"\n\"a long label\",\"L2\"\n\"a long label\",x\n",
}

// TestReadFastMatchesStandard compares the two readers on fastSeeds under every option set.
func TestReadFastMatchesStandard(t *testing.T) {
	for _, s := range fastSeeds {
		for _, opt := range fastOptions {
			sameRead(t, s, opt)
		}
	}
}

// TestReadFastHandles checks that the fast reader itself (not the fallback) reads the inputs
// real files are made of, so that the speed of ReadCSV is not lost to the fallback unnoticed.
func TestReadFastHandles(t *testing.T) {
	cases := []struct {
		in  string
		opt ReadOptions
		ok  bool
	}{
		{"a,b\n1,2\n", ReadOptions{}, true},
		{"\"a\",\"b\"\r\n\"x\",1.5\r\n\"y\",NA\r\n", ReadOptions{Mixed: true}, true},
		{"a,b\n1,x\n2,y\n", ReadOptions{Mixed: true}, true}, // text after a number: two passes
		{"a,b\nNA,1\n", ReadOptions{AllowNonFinite: true}, true},
		{"a,b\n1,\"x\"\"\"\n", ReadOptions{Mixed: true}, false}, // escaped quote
		{"a,b\n1,x\n", ReadOptions{}, false},                    // an error
	}
	for _, c := range cases {
		_, ok := readFast(func() (*lineSource, error) { return newBytesSource([]byte(c.in)), nil }, int64(len(c.in)), "in.csv", c.opt)
		_, okStream := readFast(func() (*lineSource, error) { return newStreamSource(strings.NewReader(c.in), 3), nil }, 0, "in.csv", c.opt)
		if ok != okStream {
			t.Errorf("readFast(%q, %+v): from bytes %v, streamed %v", c.in, c.opt, ok, okStream)
		}
		if ok != c.ok {
			t.Errorf("readFast(%q, %+v) handled = %v, want %v", c.in, c.opt, ok, c.ok)
		}
		sameRead(t, c.in, c.opt)
	}
}

// TestReadCSVReadError checks that a read error after some rows is reported as the standard
// reader reports it (the bytes before it are replayed).
func TestReadCSVReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := func() io.Reader { return io.MultiReader(strings.NewReader("a,b\n1,2\n"), errReader{boom}) }
	_, gerr := ReadCSV(in(), "in.csv", ReadOptions{})
	_, werr := readCSVStd(in(), "in.csv", ReadOptions{})
	if gerr == nil || werr == nil || gerr.Error() != werr.Error() || !errors.Is(gerr, boom) {
		t.Fatalf("read error: fast %v, standard %v", gerr, werr)
	}
}

// FuzzReadCSVFast is the differential fuzz test of the fast reader: on any input and every
// option set, ReadCSV equals readCSVStd (encoding/csv): the same table bit for bit, or the
// same error (message and *ParseError fields).
func FuzzReadCSVFast(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, opt := range fastOptions {
			sameRead(t, s, opt)
		}
	})
}

// TestWriteFastMatchesStandard compares writeCSV with the encoding/csv writer it replaced
// (writeCSVStd below) on tables of every kind: numeric with NaN, categorical labels that need
// quoting, codes outside the levels, a custom missing token.
func TestWriteFastMatchesStandard(t *testing.T) {
	num := New("n", []string{"x", "y z"}, 3, 2, []float64{1.5, math.NaN(), math.Copysign(0, -1), 1e300, math.Inf(1), 3})
	mixed := New("m", []string{"a", "b,c", "\"q\""}, 4, 3, []float64{
		0, 1.5, 1, 1, math.NaN(), 2, math.NaN(), 3, 0, 2.7, -1, 5})
	mixed.Levels = [][]string{{"x", " lead", "a,b"}, nil, {"", "q\"q", "\\.", "line\nbreak", "ok"}}
	for _, d := range []*Dataset{num, mixed} {
		for _, tok := range []struct {
			tok    string
			custom bool
		}{{"", false}, {".", true}, {"a b", true}, {" x", true}, {"\"", true}} {
			var got, want bytes.Buffer
			if err := writeCSV(&got, d, tok.tok, tok.custom); err != nil {
				t.Fatal(err)
			}
			if err := writeCSVStd(&want, d, tok.tok, tok.custom); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, token %q: writers differ:\nfast     %q\nstandard %q", d.Name, tok.tok, got.String(), want.String())
			}
		}
	}
}

// TestParseFloat compares parseFloat with strconv.ParseFloat bit for bit on hand-picked
// decimals (the fast path's edges: 2^53, 10^±22, signed zeros, exponents) and on random
// numbers written with 1 to 19 significant digits.
func TestParseFloat(t *testing.T) {
	cases := []string{"0", "-0", "+0", "0.0", "-0.000", "1", "-1", "1.5", ".5", "5.", "-.5", "9007199254740992",
		"9007199254740993", "900719925474099.3", "1e22", "1e23", "1e-22", "1e-23", "123456789e-22", "4.9e-324",
		"1.7976931348623157e308", "1e400", "1e-400", "0e999", "1E5", "1e+05", "1e-05", "1e", "1e+", "e5", ".", "-",
		"", "+", "1..2", "1.2.3", "0x1p3", "1_000", "Inf", "-inf", "NaN", "nan", "00012.3400", "3.141592653589793",
		"47.739038352168954", "0.1", "0.2", "0.3", "123456789012345678", "1 ", " 1",
		// runs of eight digits read as one word (eightDigits), leading zeros, 19 and 20 digits
		"1234567890123456789", "12345678901234567890", "-9999999999999999999", "00000000123456789012",
		"0.000000001234567890123456789", "00000000.0000000012345678", "12345678.12345678", "1234567.812345678",
		"1234567/", "1234567:", "12345678/9", "1.2345678:9", "1234567812345678e-8", "99999999999999999999e-300"}
	rng := rand.New(rand.NewPCG(30, 1))
	for range 20000 {
		v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
		cases = append(cases, strconv.FormatFloat(v, 'g', 1+rng.IntN(19), 64), strconv.FormatFloat(v, 'f', rng.IntN(12), 64))
		// any float64 in shortest form; 15 to 20 random digits with a power of ten in [−80, 80]
		cases = append(cases, strconv.FormatFloat(math.Float64frombits(rng.Uint64()), 'g', -1, 64))
		digits := make([]byte, 15+rng.IntN(6))
		for i := range digits {
			digits[i] = byte('0' + rng.IntN(10))
		}
		cases = append(cases, string(digits)+"e"+strconv.Itoa(rng.IntN(161)-80), "0."+string(digits))
	}
	// halfway between two float64s: the shortest forms of a value and its successor, and their
	// midpoint written with 17 to 19 digits
	for range 5000 {
		v := 50 + 10*rng.NormFloat64()
		mid := new(big.Float).SetPrec(200).SetFloat64(v)
		mid.Add(mid, new(big.Float).SetPrec(200).SetFloat64(math.Nextafter(v, math.Inf(1))))
		mid.Quo(mid, big.NewFloat(2))
		cases = append(cases, mid.Text('e', 16+rng.IntN(3)))
	}
	for _, s := range cases {
		got, gerr := parseFloat([]byte(s))
		want, werr := strconv.ParseFloat(s, 64)
		if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) || (gerr == nil) != (werr == nil) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv %v, %v", s, got, gerr, want, werr)
		}
	}
}

// TestParseDecimalPrefix checks that the reader's prefix parse of a field followed by more
// bytes (a comma and another field, a quote, a space, digits of the next field beyond the
// field's slice) gives the field's value and length exactly when parseDecimal takes the field.
func TestParseDecimalPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 5))
	for range 50000 {
		var f string
		switch rng.IntN(4) {
		case 0:
			f = strconv.Itoa(rng.IntN(1000))
		case 1:
			f = strconv.FormatFloat(5+15*rng.ExpFloat64(), 'g', -1, 64)
		case 2:
			f = strconv.FormatFloat(math.Float64frombits(rng.Uint64()), 'g', -1, 64)
		default:
			f = strconv.FormatFloat(rng.NormFloat64(), 'f', rng.IntN(25), 64)
		}
		want, wok := parseDecimal([]byte(f))
		for _, tail := range []string{"", ",", ",12345678", "\"", " ", "x"} {
			line := []byte(f + tail)
			v, n, ok := parseDecimalPrefix(line)
			if wok && (!ok || n != len(f) || math.Float64bits(v) != math.Float64bits(want)) {
				t.Fatalf("parseDecimalPrefix(%q) = %v, %d, %v; parseDecimal(%q) = %v", line, v, n, ok, f, want)
			}
			if !wok && ok && n == len(f) {
				t.Fatalf("parseDecimalPrefix(%q) took %q, which parseDecimal declines", line, f)
			}
			// the field's slice ends before more digits
			if v, n, ok := parseDecimalPrefix([]byte(f + "12345678")[:len(f)]); ok != wok || (ok && (n != len(f) || math.Float64bits(v) != math.Float64bits(want))) {
				t.Fatalf("parseDecimalPrefix(%q with digits beyond it) = %v, %d, %v; parseDecimal %v, %v", f, v, n, ok, want, wok)
			}
		}
	}
}

// TestEightDigits checks the word-at-a-time digit test and value against the byte-by-byte
// ones: on every byte value at every position among digits, and on random digit strings.
func TestEightDigits(t *testing.T) {
	word := func(b []byte) uint64 {
		var w uint64
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		return w
	}
	rng := rand.New(rand.NewPCG(30, 6))
	for trial := range 8*256 + 2000 {
		b := make([]byte, 8)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if trial < 8*256 {
			b[trial/256] = byte(trial % 256)
		}
		want := true
		for _, c := range b {
			want = want && c >= '0' && c <= '9'
		}
		if got := isEightDigits(word(b)); got != want {
			t.Fatalf("isEightDigits(%q) = %v", b, got)
		}
		if want {
			v, _ := strconv.ParseUint(string(b), 10, 64)
			if got := eightDigits(word(b)); got != v {
				t.Fatalf("eightDigits(%q) = %d", b, got)
			}
		}
	}
	for x := range 1 << 16 { // the four-digit versions: every digit string, every byte at every position
		b := []byte(fmt.Sprintf("%04d", x%10000))
		if x >= 10000 {
			b[(x>>8)%4] = byte(x)
		}
		want := true
		for _, c := range b {
			want = want && c >= '0' && c <= '9'
		}
		w := uint32(word(b))
		if got := isFourDigits(w); got != want {
			t.Fatalf("isFourDigits(%q) = %v", b, got)
		}
		if v, _ := strconv.ParseUint(string(b), 10, 32); want && fourDigits(w) != uint32(v) {
			t.Fatalf("fourDigits(%q) = %d", b, fourDigits(w))
		}
	}
	for range 100000 {
		w := rng.Uint64()
		want := true
		for i := range 8 {
			c := byte(w >> (8 * i))
			want = want && c >= '0' && c <= '9'
		}
		if isEightDigits(w) != want {
			t.Fatalf("isEightDigits(%#x) = %v", w, !want)
		}
	}
}

// TestCategorizeMatchesCells compares Categorize with what it did before it formatted each
// distinct value once: setCategorical on every cell's shortest formatting ("" for NaN), on
// random columns of small codes, −0 and 0, negative, fractional and large values and NaN,
// one column or two at once.
func TestCategorizeMatchesCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	pool := []float64{0, math.Copysign(0, -1), 1, 2, 7, 1023, 1024, 5000, -1, -3, 0.5, 2.25, 1e300, math.NaN(), math.SmallestNonzeroFloat64}
	for trial := range 200 {
		n := 1 + rng.IntN(60)
		data := make([]float64, 2*n)
		for i := range data {
			data[i] = pool[rng.IntN(len(pool))]
		}
		d := New("t", []string{"a", "b"}, n, 2, data)
		// one column, both (together, in two passes over the rows), a name repeated
		for _, cols := range [][]string{{"b"}, {"b", "a"}, {"a", "b", "a"}} {
			got, err := d.Categorize(cols)
			if err != nil {
				t.Fatal(err)
			}
			want := d.Clone()
			for _, name := range cols {
				j := d.ColIndex(name)
				cells := make([]string, n)
				for i := range cells {
					if v := d.Data[i*2+j]; v == v {
						cells[i] = formatFloat(v)
					}
				}
				setCategorical(want, j, cells, func(s string) bool { return s == "" })
			}
			if msg := diffDatasets(got, want); msg != "" {
				t.Fatalf("trial %d, %v: %s", trial, cols, msg)
			}
		}
	}
}

// TestReadFastManyLabels compares the two readers on categorical columns with thousands of
// distinct labels of 1 to 12 bytes (the fast reader's table of short labels grows; longer
// ones go to its map), including labels that differ only by trailing zero bytes.
func TestReadFastManyLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 4))
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 20000 {
		l := make([]byte, 1+rng.IntN(12))
		for j := range l {
			l[j] = "abcXYZ01\x00"[rng.IntN(9)]
		}
		if i%7 == 0 {
			l = append(l[:min(len(l), 3)], 0)
		}
		b.WriteString(strconv.Itoa(rng.IntN(5000)) + "x," + string(l) + "\n")
	}
	for _, opt := range []ReadOptions{{Mixed: true}, {Mixed: true, Categorical: []string{"a"}}} {
		sameRead(t, b.String(), opt)
	}
	d, err := ReadCSV(strings.NewReader(b.String()), "in.csv", ReadOptions{Mixed: true})
	if err != nil || len(d.Levels[0]) < 4000 || len(d.Levels[1]) < 10000 {
		t.Fatalf("levels %d and %d, error %v", len(d.Levels[0]), len(d.Levels[1]), err)
	}
}

// TestReadFastGrows compares the two readers on inputs whose first chunk has long lines and
// the rest short ones, so that the table sized from the first chunk must grow, and the
// reverse (the table has room to spare).
func TestReadFastGrows(t *testing.T) {
	long := "123456.78901234567,\"a long label, with a comma\",-0.000012345678901234\n"
	short := "1,b,2\n"
	for _, parts := range [][2]string{{long, short}, {short, long}} {
		var b strings.Builder
		b.WriteString("x,y,z\n")
		for b.Len() < 2*streamChunk {
			b.WriteString(parts[0])
		}
		for range 3 * streamChunk / len(parts[1]) {
			b.WriteString(parts[1])
		}
		sameRead(t, b.String(), ReadOptions{Mixed: true})
		d, err := ReadCSV(strings.NewReader(b.String()), "in.csv", ReadOptions{Mixed: true})
		if err != nil || d.N != strings.Count(b.String(), "\n")-1 {
			t.Fatalf("read %v, error %v", d, err)
		}
	}
}
