package datasets

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// readCSVStd is ReadCSV on encoding/csv, field by field: the reference the fast reader is
// tested against and the path of every input the fast reader hands back.
func readCSVStd(r io.Reader, name string, opt ReadOptions) (*Dataset, error) {
	br := bufio.NewReader(LimitRecords(r, name))
	if err := checkCompressed(br, name); err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: ErrEmpty}
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	hs, err := parseHeader(header, name, opt)
	if err != nil {
		return nil, err
	}
	header, keep, names, forced := hs.header, hs.keep, hs.names, hs.forced
	p := len(keep)
	mixed := opt.Mixed || len(opt.Categorical) > 0
	var data []float64
	var text [][]string // text[c][i]: raw cells of column c, kept while it may turn categorical
	if mixed {
		text = make([][]string, p)
	}
	isText := make([]bool, p)
	isMissing := opt.NA.missing
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && rec[0] == "" && len(header) > 1 {
			continue // blank line
		}
		if len(rec) != len(header) {
			return nil, &ParseError{File: name, Row: line,
				Err: fmt.Errorf("%w: %d fields, header has %d", ErrRagged, len(rec), len(header))}
		}
		for c, j := range keep {
			s := strings.TrimSpace(rec[j])
			if mixed {
				text[c] = append(text[c], s)
				if forced[c] || isText[c] {
					data = append(data, 0)
					continue
				}
				if isMissing(s) {
					data = append(data, math.NaN())
					continue
				}
			} else if opt.AllowNonFinite && opt.NA.Contains(s) {
				data = append(data, math.NaN())
				continue
			}
			v, perr := strconv.ParseFloat(s, 64)
			if perr != nil {
				if errors.Is(perr, strconv.ErrRange) && math.IsInf(v, 0) {
					// a number too large for float64 is an error even in a mixed file:
					// reading it as a label would hide it
					return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrOutOfRange}
				}
				if mixed {
					isText[c] = true
					data = append(data, 0)
					continue
				}
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrNotNumber}
			}
			if !opt.AllowNonFinite && !mixed && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrNonFinite}
			}
			data = append(data, v)
		}
		n++
	}
	if n == 0 {
		return nil, &ParseError{File: name, Err: ErrNoRows}
	}
	d := New(name, names, n, p, data)
	for c := 0; c < p; c++ {
		if !mixed {
			break
		}
		if forced[c] || isText[c] {
			setCategorical(d, c, text[c], isMissing)
		} else if !opt.AllowNonFinite {
			for i := 0; i < n; i++ {
				if v := data[i*p+c]; math.IsInf(v, 0) || (v != v && !isMissing(text[c][i])) {
					return nil, &ParseError{File: name, Row: i + 2, Column: names[c], Value: text[c][i], Err: ErrNonFinite}
				}
			}
		}
	}
	return d, nil
}

// headerSpec is a parsed header row: the trimmed names, the indices and names of the columns
// read, and which of them are read as categories (opt.Categorical).
type headerSpec struct {
	header []string
	keep   []int
	names  []string
	forced []bool
}

// parseHeader checks the header row (a copy is kept) against opt: names trimmed of spaces
// and byte-order marks, none empty or repeated, every selected and categorical column present.
func parseHeader(header []string, name string, opt ReadOptions) (*headerSpec, error) {
	header = append([]string(nil), header...)
	for j := range header { // spaces and byte-order marks around names
		header[j] = strings.TrimFunc(header[j], func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
	}
	if len(header) == 1 && header[0] == "" {
		return nil, &ParseError{File: name, Row: 1, Err: ErrEmpty}
	}
	pos := map[string]int{}
	for j, h := range header {
		h = strings.TrimSpace(h)
		header[j] = h
		if h == "" {
			return nil, &ParseError{File: name, Row: 1, Value: fmt.Sprintf("column %d", j+1), Err: ErrEmptyName}
		}
		if _, dup := pos[h]; dup {
			return nil, &ParseError{File: name, Row: 1, Column: h, Err: ErrDuplicateName}
		}
		pos[h] = j
	}
	keep := make([]int, 0, len(header))
	names := make([]string, 0, len(header))
	if opt.Columns == nil {
		for j := range header {
			keep = append(keep, j)
		}
		names = append(names, header...)
	} else {
		seen := map[string]bool{}
		for _, c := range opt.Columns {
			j, ok := pos[c]
			if !ok {
				return nil, &ParseError{File: name, Row: 1, Column: c,
					Err: fmt.Errorf("no such column (header has %s)", headerList(header))}
			}
			if seen[c] {
				return nil, &ParseError{File: name, Row: 1, Column: c, Err: ErrDuplicateName}
			}
			seen[c] = true
			keep = append(keep, j)
			names = append(names, c)
		}
	}
	forced := make([]bool, len(keep))
	for _, c := range opt.Categorical {
		j := slices.Index(names, c)
		if j < 0 {
			return nil, &ParseError{File: name, Row: 1, Column: c,
				Err: fmt.Errorf("categorical column not among the columns read (%s)", strings.Join(names, ", "))}
		}
		forced[j] = true
	}
	return &headerSpec{header: header, keep: keep, names: names, forced: forced}, nil
}

// csvErr turns an error of encoding/csv or of the input into a *ParseError naming the file and
// line; the size caps' errors, which name both already, pass unchanged.
func csvErr(name string, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err // names the file and the limit
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Row: pe.Line, Err: pe.Err}
	}
	return &ParseError{File: name, Err: err}
}
