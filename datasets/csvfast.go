package datasets

import (
	"bytes"
	"errors"
	"io"
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

// rowsLeft estimates how many lines an input of size bytes (0 if unknown) has from the line
// just returned, of length n, on: the lines of a whole input in memory are counted; a streamed
// input's are estimated from the lines in its buffer (a chunk: thousands of lines), with a
// margin of 1/16, or, when the buffer holds no other line, from n with a margin of 3/10. A
// table allocated at this size is neither copied to grow it nor cleared or faulted in much
// beyond its rows (the runtime clears a large allocation of reused memory whole).
func (s *lineSource) rowsLeft(size int64, n int) int64 {
	rest := s.buf[s.pos:s.end]
	lines := int64(bytes.Count(rest, []byte{'\n'}))
	switch {
	case s.r == nil: // the whole input
		return 2 + lines
	case lines > 0:
		left := size - s.consumed
		return 2 + left*lines/int64(len(rest))*17/16
	}
	return 1 + 13*(size-s.consumed)/(10*int64(n+1))
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
