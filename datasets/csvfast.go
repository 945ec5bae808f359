package datasets

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The fast reader (docs/datapath.md) parses an input line by line — a seekable input in
// chunks as it is read, any other held whole in memory — with no allocation per row or per
// numeric cell: fields are sub-slices of the
// input, numbers are parsed in place, and a categorical cell costs a map lookup (an allocation
// only for a label not seen before). It handles the inputs that real files are made of —
// unquoted fields, and quoted fields without an escaped quote ("") or a line break, as R's
// write.csv writes them — and reports false for everything else: any error, a compressed file,
// an escaped quote, a quoted field spanning lines. ReadCSV then reads the input again with
// readCSVStd, so that the result and the error of every input are exactly encoding/csv's
// (FuzzReadCSVFast checks the two agree).

// readAll reads r to the end. On an error it returns the bytes read before it.
func readAll(r io.Reader) ([]byte, error) {
	b := make([]byte, 0, 512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// errReader returns its error on every Read: it replays a read error after the bytes read
// before it (io.MultiReader).
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// lineSource yields the lines of a CSV input as encoding/csv reads them: a line ends at
// '\n'; a "\r\n" ends it too, and a '\r' just before the end of the input is dropped; empty
// lines are skipped. It reads r in chunks into buf (or, with r nil, buf is the whole input),
// so a line it returns is valid until the next call.
type lineSource struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	err      error // the read error that ended the input early (not io.EOF)
	consumed int64 // bytes before buf[pos]
	max      int   // a longer line ends the input with errLongLine (MaxRecordBytes)
}

// errLongLine stops a lineSource at a line longer than MaxRecordBytes: readCSVStd, through
// LimitRecords, reports it.
var errLongLine = errors.New("line longer than the record limit")

// streamChunk is the size of the chunks a lineSource reads: small enough that a chunk is
// still in the processor's cache when its lines are parsed.
const streamChunk = 256 << 10

// newStreamSource reads r in chunks of size bytes (streamChunk; tests use a few bytes).
// A streamed input is not passed through LimitRecords: the source stops at a line longer
// than the limit itself, and never holds much more than the limit.
func newStreamSource(r io.Reader, size int) *lineSource {
	return &lineSource{r: r, buf: make([]byte, size), max: int(min(MaxRecordBytes, 1<<40))}
}

// newBytesSource returns the lines of b, an input LimitRecords has already checked.
func newBytesSource(b []byte) *lineSource {
	return &lineSource{buf: b, end: len(b), eof: true, max: len(b)}
}

// next returns the next non-empty line without its terminator, or false at the end of the
// input or at a read error (then err is set).
func (s *lineSource) next() ([]byte, bool) {
	for {
		if e := bytes.IndexByte(s.buf[s.pos:s.end], '\n'); e >= 0 {
			if e > s.max {
				s.err = errLongLine
				return nil, false
			}
			line := s.buf[s.pos : s.pos+e]
			s.pos += e + 1
			s.consumed += int64(e + 1)
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			if len(line) > 0 {
				return line, true
			}
			continue
		}
		if s.eof || s.err != nil {
			if s.pos == s.end {
				return nil, false
			}
			if s.end-s.pos > s.max {
				s.err = errLongLine
				return nil, false
			}
			line := s.buf[s.pos:s.end]
			s.consumed += int64(s.end - s.pos)
			s.pos = s.end
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			if len(line) > 0 {
				return line, true
			}
			return nil, false
		}
		s.fill()
	}
}

// fill moves the partial line to the front of buf (growing it when the line fills it) and
// reads once.
func (s *lineSource) fill() {
	s.end = copy(s.buf, s.buf[s.pos:s.end])
	s.pos = 0
	if s.end > s.max {
		s.err = errLongLine
		return
	}
	if s.end == len(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	n, err := s.r.Read(s.buf[s.end:])
	s.end += n
	if err == io.EOF {
		s.eof = true
	} else if err != nil {
		s.err = err
	}
}

// splitFields appends the fields of line to dst as encoding/csv splits them at commas. ok is
// false for what the fast reader leaves to encoding/csv: a quote inside an unquoted field
// (an error there), a quoted field with an escaped quote, a quote not followed by a comma or
// the end of the line, or a quoted field that does not end on its line.
func splitFields(dst [][]byte, line []byte) ([][]byte, bool) {
	if bytes.IndexByte(line, '"') < 0 { // the usual line: commas only
		for {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				return append(dst, line), true
			}
			dst = append(dst, line[:i])
			line = line[i+1:]
		}
	}
	for {
		if len(line) == 0 || line[0] != '"' {
			i := bytes.IndexByte(line, ',')
			field := line
			if i >= 0 {
				field = line[:i]
			}
			if bytes.IndexByte(field, '"') >= 0 {
				return dst, false
			}
			dst = append(dst, field)
			if i < 0 {
				return dst, true
			}
			line = line[i+1:]
			continue
		}
		line = line[1:]
		i := bytes.IndexByte(line, '"')
		if i < 0 {
			return dst, false
		}
		dst = append(dst, line[:i])
		line = line[i+1:]
		switch {
		case len(line) == 0:
			return dst, true
		case line[0] == ',':
			line = line[1:]
		default: // "" or a stray quote
			return dst, false
		}
	}
}

// bytesString views b as a string without copying. The string must not outlive b's contents,
// which the reader never changes; it is passed to functions that do not keep it.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// trimSpace is strings.TrimSpace on bytes, with a quick exit for a field without spaces.
func trimSpace(b []byte) []byte {
	if len(b) == 0 || (b[0] > ' ' && b[0] < utf8.RuneSelf && b[len(b)-1] > ' ' && b[len(b)-1] < utf8.RuneSelf) {
		return b
	}
	return bytes.TrimSpace(b)
}

// textColumn collects the labels of a categorical column in the order first seen; cells hold
// the label's index into labels until finish sorts them. The label of the previous cell is
// checked first (keys repeat: a sorted file, a dominant category); then labels of at most 8
// bytes — codes, short names — are looked up in an open-addressing table keyed by their
// bytes packed into a word, longer ones in a map.
type textColumn struct {
	labels []string
	last   int // index of the previous cell's label, −1 before the first
	long   map[string]int
	short  []shortSlot // len a power of two, at most half full
	nshort int
}

// shortSlot is an entry of textColumn.short: a label of n ≤ 8 bytes packed into key, and its
// index + 1 (0: empty slot).
type shortSlot struct {
	key uint64
	n   uint8
	id  int32
}

func newTextColumn() *textColumn {
	return &textColumn{long: map[string]int{}, last: -1, short: make([]shortSlot, 64)}
}

func (t *textColumn) id(s []byte) int {
	if t.last >= 0 && t.labels[t.last] == bytesString(s) {
		return t.last
	}
	var k int
	if len(s) <= 8 {
		k = t.shortID(s)
	} else {
		var ok bool
		if k, ok = t.long[bytesString(s)]; !ok {
			k = t.add(s)
			t.long[t.labels[k]] = k
		}
	}
	t.last = k
	return k
}

func (t *textColumn) add(s []byte) int {
	t.labels = append(t.labels, string(s))
	return len(t.labels) - 1
}

func packLabel(s []byte) uint64 {
	var key uint64
	for i, c := range s {
		key |= uint64(c) << (8 * i)
	}
	return key
}

// slot returns the index of the slot holding (key, n) or of the empty slot where it goes.
func (t *textColumn) slot(key uint64, n uint8) int {
	mask := len(t.short) - 1
	h := int(((key ^ uint64(n)) * 0x9e3779b97f4a7c15) >> 40)
	for i := h & mask; ; i = (i + 1) & mask {
		if e := &t.short[i]; e.id == 0 || (e.key == key && e.n == n) {
			return i
		}
	}
}

func (t *textColumn) shortID(s []byte) int {
	key, n := packLabel(s), uint8(len(s))
	i := t.slot(key, n)
	if t.short[i].id != 0 {
		return int(t.short[i].id) - 1
	}
	k := t.add(s)
	t.short[i] = shortSlot{key: key, n: n, id: int32(k + 1)}
	if t.nshort++; 2*t.nshort > len(t.short) {
		old := t.short
		t.short = make([]shortSlot, 2*len(old))
		for _, e := range old {
			if e.id != 0 {
				t.short[t.slot(e.key, e.n)] = e
			}
		}
	}
	return k
}

// readFast parses the input as readCSVStd does and reports false when it cannot (see above).
// open returns a fresh source of the whole input: called once, or twice when a column turns
// out to hold text after numbers. size is the input's length in bytes if known (else 0), used
// to size the table.
func readFast(open func() (*lineSource, error), size int64, name string, opt ReadOptions) (*Dataset, bool) {
	src, err := open()
	if err != nil {
		return nil, false
	}
	hs, ok := readHeader(src, name, opt)
	if !ok {
		return nil, false
	}
	mixed := opt.Mixed || len(opt.Categorical) > 0
	// A column that turns out to hold text after real numbers needs those cells' text: the
	// second pass reads it as text from the first row.
	text := append([]bool(nil), hs.forced...)
	d, again, ok := readRows(src, size, hs, text, name, opt, mixed)
	if ok && again {
		if src, err = open(); err != nil {
			return nil, false
		}
		if _, ok := readHeader(src, name, opt); !ok {
			return nil, false
		}
		d, again, ok = readRows(src, size, hs, text, name, opt, mixed)
		if again {
			return nil, false // cannot happen: the text columns are known
		}
	}
	return d, ok
}

// readHeader reads and checks the header row.
func readHeader(src *lineSource, name string, opt ReadOptions) (*headerSpec, bool) {
	line, ok := src.next()
	if !ok {
		return nil, false
	}
	for _, m := range compressedMagic { // left to readCSVStd's message
		if bytes.HasPrefix(line, []byte(m.magic)) {
			return nil, false
		}
	}
	fields, ok := splitFields(nil, line)
	if !ok {
		return nil, false
	}
	raw := make([]string, len(fields))
	for j, f := range fields {
		raw[j] = string(f)
	}
	hs, err := parseHeader(raw, name, opt)
	return hs, err == nil
}

// readRows parses the data rows after the header (sc is positioned after it) with the
// columns marked in text read as categories. A non-forced column whose cell is not a number
// is marked in text; again reports that one of them had a number before, so the rows must be
// read again.
func readRows(src *lineSource, size int64, hs *headerSpec, text []bool, name string, opt ReadOptions, mixed bool) (d *Dataset, again, ok bool) {
	na := opt.NA
	// isMissing is na.missing with a quick exit for a cell longer than every token
	longest := len("NaN")
	for _, t := range na.Tokens() {
		longest = max(longest, len(t))
	}
	isMissing := func(s string) bool { return len(s) <= longest && na.missing(s) }
	p := len(hs.keep)
	var data []float64
	cols := make([]*textColumn, p)
	for c := range cols {
		if text[c] {
			cols[c] = newTextColumn()
		}
	}
	sawNumber := make([]bool, p) // a real number was read (so the text of the column is lost)
	nonFinite := make([]bool, p) // NaN or ±Inf parsed from a number (an error unless the column turns text)
	nh := len(hs.header)
	fields := make([][]byte, 0, nh)
	n := 0
	for {
		line, more := src.next()
		if !more {
			break
		}
		if data == nil { // room for the rows the input's size suggests (memory not written is not paid for)
			rows := 1 + 13*(size-src.consumed)/(10*int64(len(line)+1))
			data = make([]float64, 0, int(max(1, min(rows, 1<<31/int64(p+1))))*p)
		}
		var ok bool
		if fields, ok = splitFields(fields[:0], line); !ok {
			return nil, false, false
		}
		if len(fields) == 1 && len(fields[0]) == 0 && nh > 1 {
			continue // a line `""`
		}
		if len(fields) != nh {
			return nil, false, false
		}
		for c, j := range hs.keep {
			s := trimSpace(fields[j])
			if mixed {
				if tc := cols[c]; tc != nil {
					if isMissing(bytesString(s)) {
						data = append(data, math.NaN())
					} else {
						data = append(data, float64(tc.id(s)))
					}
					continue
				}
				if text[c] { // turned text in this pass, after a number: read again
					data = append(data, 0)
					continue
				}
				if isMissing(bytesString(s)) {
					data = append(data, math.NaN())
					continue
				}
			} else if opt.AllowNonFinite && opt.NA.Contains(bytesString(s)) {
				data = append(data, math.NaN())
				continue
			}
			v, perr := parseFloat(s)
			if perr != nil {
				if errors.Is(perr, strconv.ErrRange) && math.IsInf(v, 0) {
					return nil, false, false
				}
				if !mixed {
					return nil, false, false
				}
				text[c] = true
				if !sawNumber[c] { // only missing cells so far: read as text from here
					cols[c] = newTextColumn()
					data = append(data, float64(cols[c].id(s)))
				} else {
					again = true
					data = append(data, 0)
				}
				continue
			}
			if v != v || math.IsInf(v, 0) {
				if !opt.AllowNonFinite {
					if !mixed {
						return nil, false, false
					}
					nonFinite[c] = true
				}
			}
			sawNumber[c] = true
			data = append(data, v)
		}
		n++
	}
	if n == 0 || src.err != nil {
		return nil, false, false
	}
	if again {
		return nil, true, true
	}
	d = New(name, hs.names, n, p, data)
	for c := 0; c < p; c++ {
		if cols[c] != nil {
			cols[c].finish(d, c)
		} else if nonFinite[c] {
			return nil, false, false
		}
	}
	return d, false, true
}

// finish sorts the labels as setCategorical does and turns column c's label indices into codes.
func (t *textColumn) finish(d *Dataset, c int) {
	sorted := append([]string(nil), t.labels...)
	sortLevels(sorted)
	code := make(map[string]int, len(sorted))
	for k, l := range sorted {
		code[l] = k
	}
	remap := make([]float64, len(t.labels))
	for k, l := range t.labels {
		remap[k] = float64(code[l])
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	if sorted == nil {
		sorted = []string{}
	}
	d.Levels[c] = sorted
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+c]; v == v {
			d.Data[i*d.P+c] = remap[int(v)]
		}
	}
}

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
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i++
	}
	var m uint64
	digits, sig, e := 0, 0, 0 // digits read, significant digits (from the first non-zero)
	for ; i < len(s) && s[i]-'0' < 10; i++ {
		m = m*10 + uint64(s[i]-'0')
		digits++
		if m != 0 {
			sig++
		}
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i]-'0' < 10; i++ {
			m = m*10 + uint64(s[i]-'0')
			digits++
			if m != 0 {
				sig++
			}
			e--
		}
	}
	if digits == 0 || sig > 19 { // more than 19 digits may have wrapped m
		return 0, false
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
			return 0, false
		}
		if eneg {
			x = -x
		}
		e += x
	}
	if i != len(s) {
		return 0, false
	}
	if m <= 1<<53 && e >= -22 && e <= 22 {
		v = float64(m)
		if e < 0 {
			v /= pow10[-e]
		} else {
			v *= pow10[e]
		}
		if neg {
			v = -v
		}
		return v, true
	}
	return eiselLemire(m, e, neg)
}

// eiselMin and eiselMax bound the powers of ten eiselLemire handles.
const eiselMin, eiselMax = -64, 64

// eiselPow is 10^q as a 128-bit mantissa rounded down, top bit set, and a binary exponent:
// 10^q ≈ (hi·2^64 + lo)·2^(exp−128).
type eiselPow struct {
	hi, lo uint64
	exp    int
}

// eiselPows holds 10^q for q in [eiselMin, eiselMax], computed exactly with math/big as Go's
// strconv generates its table (internal/strconv/pow10gen.go). Read-only after initialization.
var eiselPows = makeEiselPows()

func makeEiselPows() []eiselPow {
	one, ten := big.NewInt(1), big.NewInt(10)
	b1p64 := new(big.Int).Lsh(one, 64)
	r1p128 := new(big.Rat).SetInt(new(big.Int).Lsh(one, 128))
	two := big.NewRat(2, 1)
	var out []eiselPow
	for q := int64(eiselMin); q <= eiselMax; q++ {
		r := new(big.Rat).SetFrac(new(big.Int).Exp(ten, big.NewInt(max(q, -q)), nil), one)
		if q < 0 {
			r.Inv(r)
		}
		be := 0 // r·2^be in [2^127, 2^128)
		for r.Cmp(r1p128) < 0 {
			r.Mul(r, two)
			be++
		}
		for r.Cmp(r1p128) >= 0 {
			r.Quo(r, two)
			be--
		}
		d := new(big.Int).Div(r.Num(), r.Denom())
		hi, lo := new(big.Int).DivMod(d, b1p64, new(big.Int))
		out = append(out, eiselPow{hi: hi.Uint64(), lo: lo.Uint64(), exp: 128 - be})
	}
	return out
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
