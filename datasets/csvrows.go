package datasets

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// missingSet tells whether a trimmed cell is missing (NA.missing: a token of the set, or
// "NaN"), with the default set's three texts compared directly.
type missingSet struct {
	na      NA
	def     bool // na is the default set: "", "NA" and "NaN"
	longest int  // no missing text is longer
	// numeric: a token may read as a number (it starts with a digit, a sign or a point), so
	// a cell parsed as a number of at most longest bytes may be missing after all
	numeric bool
}

func newMissingSet(na NA) missingSet {
	m := missingSet{na: na, def: na.IsDefault(), longest: len("NaN")}
	for _, t := range na.Tokens() {
		m.longest = max(m.longest, len(t))
		if len(t) > 0 && (t[0]-'0' < 10 || t[0] == '+' || t[0] == '-' || t[0] == '.') {
			m.numeric = true
		}
	}
	return m
}

// is reports whether the trimmed cell s is missing.
func (m *missingSet) is(s []byte) bool {
	if m.def {
		return defaultMissing(s)
	}
	return len(s) <= m.longest && m.na.missing(bytesString(s))
}

// defaultMissing is missingSet.is for the default set (which readRows tests inline).
func defaultMissing(s []byte) bool {
	return len(s) == 0 || len(s) <= 3 && (string(s) == "NA" || string(s) == "NaN")
}

// readRows parses the data rows after the header (src is positioned after it) with the
// columns marked in text read as categories. A non-forced column whose cell is not a number
// is marked in text; again reports that one of them had a number before, so the rows must be
// read again.
//
// Each line is read once, field after field, as splitFields would split it (commas; a field
// that starts with a quote ends at the next quote, which a comma or the end of the line must
// follow; a quote anywhere else, or a line with another number of fields than the header,
// is left to encoding/csv). A field of a numeric column that starts as a plain decimal is
// parsed as it is scanned (scanDecimal, or parseDecimalPrefix for a line with no room after
// it in the buffer): when the decimal ends where the field ends, the field is that number,
// exactly as trimming it, testing it for a missing text and parsing it with parseFloat would
// give (no missing text can be such a number of that length: missingSet.numeric); anything
// else takes that general way. While every column is read and numeric, a line is first
// given to numericLine, which parses the usual numbers in one loop, and the fields it does
// not take are read here from the first of them on.
func readRows(src *lineSource, size int64, hs *headerSpec, text []bool, name string, opt ReadOptions, mixed bool) (d *Dataset, again, ok bool) {
	miss := newMissingSet(opt.NA)
	p := len(hs.keep)
	nh := len(hs.header)
	col := make([]int, nh) // col[j]: the column field j is read into, −1 if it is not read
	for j := range col {
		col[j] = -1
	}
	for c, j := range hs.keep {
		col[j] = c
	}
	var data []float64
	cols := make([]*textColumn, p)
	for c := range cols {
		if text[c] {
			cols[c] = newTextColumn()
		}
	}
	sawNumber := make([]bool, p) // a real number was read (so the text of the column is lost)
	nonFinite := make([]bool, p) // NaN or ±Inf parsed from a number (an error unless the column turns text)
	// plain: every field is read, into its own column, as a number so far (numericLine)
	plain := p == nh
	for c, j := range hs.keep {
		plain = plain && c == j && !text[c]
	}
	sawAll := false // sawNumber is all true
	numShort := -1  // a number of at most this many bytes may be a missing token
	if miss.numeric {
		numShort = miss.longest
	}
	n := 0
	for {
		line, more := src.next()
		if !more {
			break
		}
		if data == nil { // room for the rows the input's size suggests
			rows := src.rowsLeft(size, len(line))
			data = make([]float64, 0, int(max(1, min(rows, 1<<31/int64(p+1))))*p)
		}
		if nh > 1 && len(line) == 2 && line[0] == '"' && line[1] == '"' {
			continue // a line `""`: one empty field
		}
		data = slices.Grow(data, p)
		data = data[:len(data)+p]
		row := data[len(data)-p:]
		slack := cap(line)-len(line) >= scanSlack
		pos, j := 0, 0
		if plain && slack {
			// the usual numeric line; readRows goes on from the first field it did not take
			j, pos = numericLine(line[:len(line)+scanSlack], row, numShort)
			if !sawAll {
				for c := range j {
					sawNumber[c] = true
				}
				sawAll = j == p
			}
			if j == p {
				n++
				continue
			}
		}
		for ; j < nh; j++ {
			c := col[j]
			if c >= 0 && cols[c] == nil && !text[c] && slack {
				// the usual numeric field: parsed as it is scanned
				if v, k, ok := scanDecimal(line[:len(line)+scanSlack], pos, len(line)); ok &&
					(k == len(line) || line[k] == ',') && !(miss.numeric && k-pos <= miss.longest) {
					row[c] = v
					sawNumber[c] = true
					pos = k
					goto next
				}
			}
			if c >= 0 && cols[c] == nil && !text[c] && pos < len(line) {
				// the same at the end of the input (no slack after the line); first a code, a
				// short integer: exactly float64(m), as parseDecimal makes it
				k := pos
				var m uint64
				for k < len(line) && k-pos < 15 && line[k]-'0' < 10 {
					m = m*10 + uint64(line[k]-'0')
					k++
				}
				if k > pos && (k == len(line) || line[k] == ',') && !(miss.numeric && k-pos <= miss.longest) {
					row[c] = float64(m)
					sawNumber[c] = true
					pos = k
					goto next
				}
				if v, k, ok := parseDecimalPrefix(line[pos:]); ok && (pos+k == len(line) || line[pos+k] == ',') &&
					!(miss.numeric && k <= miss.longest) {
					row[c] = v
					sawNumber[c] = true
					pos += k
					goto next
				}
			}
			{
				var f []byte
				if pos < len(line) && line[pos] == '"' {
					k := pos + 1
					for k < len(line) && line[k] != '"' {
						k++
					}
					if k == len(line) || (k+1 < len(line) && line[k+1] != ',') {
						return nil, false, false // no closing quote, "" or a stray quote
					}
					f = line[pos+1 : k]
					pos = k + 1
				} else {
					k := pos
					for ; k < len(line) && line[k] != ','; k++ {
						if line[k] == '"' {
							return nil, false, false // a bare quote
						}
					}
					f = line[pos:k]
					pos = k
				}
				if c < 0 {
					goto next
				}
				s := f // trimSpace, its quick exit inlined
				if len(s) > 0 && (s[0] <= ' ' || s[0] >= utf8.RuneSelf || s[len(s)-1] <= ' ' || s[len(s)-1] >= utf8.RuneSelf) {
					s = bytes.TrimSpace(s)
				}
				if mixed {
					if tc := cols[c]; tc != nil {
						if miss.def && defaultMissing(s) || !miss.def && miss.is(s) {
							row[c] = math.NaN()
						} else if len(s) <= 8 { // textColumn.id of a short label, one call fewer
							row[c] = float64(tc.shortID(s, packLabel(s), uint8(len(s))))
						} else {
							row[c] = float64(tc.id(s))
						}
						goto next
					}
					if text[c] { // turned text in this pass, after a number: read again
						row[c] = 0
						goto next
					}
					if miss.def && defaultMissing(s) || !miss.def && miss.is(s) {
						row[c] = math.NaN()
						goto next
					}
				} else if opt.AllowNonFinite && opt.NA.Contains(bytesString(s)) {
					row[c] = math.NaN()
					goto next
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
					plain = false
					if !sawNumber[c] { // only missing cells so far: read as text from here
						cols[c] = newTextColumn()
						row[c] = float64(cols[c].id(s))
					} else {
						again = true
						row[c] = 0
					}
					goto next
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
				row[c] = v
			}
		next:
			if j < nh-1 {
				if pos == len(line) {
					return nil, false, false // fewer fields than the header
				}
				pos++ // the comma
			} else if pos != len(line) {
				return nil, false, false // more fields than the header
			}
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
		if cols[c] == nil && nonFinite[c] {
			return nil, false, false
		}
	}
	finishText(d, cols)
	return d, false, true
}
