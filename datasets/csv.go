package datasets

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// ReadOptions controls ReadCSV.
type ReadOptions struct {
	// Columns selects and orders the columns to keep, by header name. Nil keeps every
	// column; then every column must be numeric. Unselected columns may hold text.
	Columns []string
	// AllowNonFinite accepts NaN and ±Inf cells (for methods that handle missing values).
	AllowNonFinite bool
}

// ReadCSV reads a numeric table with a header row from r. name labels the input in errors
// (a file path or a dataset name). The header must be present, non-empty and free of
// duplicates; every row must have as many fields as the header; every selected cell must
// parse as a float64 and, unless opt.AllowNonFinite, be finite. Leading and trailing spaces
// around a number are ignored; "NA" and empty cells are not numbers.
func ReadCSV(r io.Reader, name string, opt ReadOptions) (*Dataset, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: ErrEmpty}
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	header = append([]string(nil), header...)
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	if len(header) == 1 && strings.TrimSpace(header[0]) == "" {
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
	p := len(keep)
	var data []float64
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
		for _, j := range keep {
			s := strings.TrimSpace(rec[j])
			v, perr := strconv.ParseFloat(s, 64)
			if perr != nil {
				cause := ErrNotNumber
				if errors.Is(perr, strconv.ErrRange) && math.IsInf(v, 0) {
					cause = ErrOutOfRange
				}
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: cause}
			}
			if !opt.AllowNonFinite && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrNonFinite}
			}
			data = append(data, v)
		}
		n++
	}
	if n == 0 {
		return nil, &ParseError{File: name, Err: ErrNoRows}
	}
	return New(name, names, n, p, data), nil
}

func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Row: pe.Line, Err: pe.Err}
	}
	return &ParseError{File: name, Err: err}
}

// ReadFile reads a CSV file with ReadCSV, naming the file in errors.
func ReadFile(path string, opt ReadOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	return ReadCSV(f, path, opt)
}

// WriteCSV writes d with a header row. Numbers use the shortest representation that reads
// back to the same float64 (strconv 'g', -1), so a written table reads back bit-identical.
func WriteCSV(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if err := cw.Write(d.Names); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	cw.Flush()
	buf := make([]byte, 0, 32)
	for i := 0; i < d.N; i++ {
		for j, v := range d.Row(i) {
			if j > 0 {
				bw.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	return nil
}

// WriteFile writes d to path atomically: to a temporary file in the same folder, renamed on
// success, so that a failed write never leaves a partial file behind.
func WriteFile(path string, d *Dataset) error {
	return AtomicWrite(path, func(w io.Writer) error { return WriteCSV(w, d) })
}

// AtomicWrite calls write on a temporary file beside path and renames it to path if write
// and the close succeed; otherwise it removes the temporary file and returns the error.
func AtomicWrite(path string, write func(io.Writer) error) error {
	dir, base := ".", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, base = path[:i+1], path[i+1:]
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes 0600; results are for everyone to read
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("datasets: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("datasets: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("datasets: %w", err)
	}
	return nil
}

// headerList renders the header's column names for an error: each name clipped to MaxEcho
// bytes, and at most 20 names.
func headerList(header []string) string {
	names := make([]string, 0, min(len(header), 21))
	for i, h := range header {
		if i == 20 {
			names = append(names, fmt.Sprintf("… %d more", len(header)-20))
			break
		}
		names = append(names, Clip(h))
	}
	return strings.Join(names, ", ")
}
