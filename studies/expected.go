package studies

import (
	"encoding/csv"
	"fmt"
	"io/fs"
	"strconv"
)

// ReadCSV reads a table of a study's folder, such as the published numbers a study report
// compares with (<table>.expected.csv): lines starting with # are comments, the first record
// is the header, and every record has the header's number of fields. It returns the header
// and the rows.
func ReadCSV(fsys fs.FS, name string) (header []string, rows [][]string, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("studies: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("studies: %s: %w", name, err)
	}
	if len(recs) < 2 {
		return nil, nil, fmt.Errorf("studies: %s: no rows", name)
	}
	return recs[0], recs[1:], nil
}

// ReadTable is ReadCSV for a table of known width: it fails when the header does not have
// columns fields, and returns the rows.
func ReadTable(fsys fs.FS, name string, columns int) ([][]string, error) {
	header, rows, err := ReadCSV(fsys, name)
	if err == nil && len(header) != columns {
		err = fmt.Errorf("studies: %s: %d columns, want %d", name, len(header), columns)
	}
	return rows, err
}

// MustReadTable is ReadTable for a file embedded in the binary, whose error is a programming
// error: it panics.
func MustReadTable(fsys fs.FS, name string, columns int) [][]string {
	rows, err := ReadTable(fsys, name, columns)
	if err != nil {
		panic(err)
	}
	return rows
}

// ParseFloats parses cells as float64 values, naming the first that is not a number.
func ParseFloats(cells []string) ([]float64, error) {
	out := make([]float64, len(cells))
	for i, c := range cells {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			return nil, fmt.Errorf("studies: %w", err)
		}
		out[i] = v
	}
	return out, nil
}
