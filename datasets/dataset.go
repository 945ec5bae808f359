// Package datasets holds the numeric microdata tables that sdcbench protects and measures:
// the Dataset type, a strict CSV reader and writer, z-score standardization and the embedded
// benchmark sets (Census, Tarragona, EIA, testdata and the small clustering sets).
//
// A Dataset is n rows × p numeric columns stored row-major in one []float64, as
// docs/harness.md "Data model" asks. Loading validates everything a method relies on:
// a header row, equal row lengths, parseable finite numbers and distinct column names. Every
// failure is a *ParseError that names the file, row, column and value and wraps one of the
// sentinel errors below, so callers can test it with errors.Is.
package datasets

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// Dataset is an n×p table, row-major: the value of row i, column j is Data[i*P+j].
// Datasets handed to methods and metrics are never modified by them.
//
// A column is numeric unless Levels marks it categorical (docs/categorical.md): then
// Levels[j] lists its category labels and Data holds each record's code, the index of its
// label in Levels[j], as a float64; a missing category is NaN, and Code reports it as −1.
// Keeping codes in the one []float64 lets every metric that compares values (frequencies,
// risk, equality) work on categorical columns unchanged.
type Dataset struct {
	Name  string    // the registered name or the file it was read from
	Names []string  // column names, len P
	N, P  int       // rows and columns
	Data  []float64 // row-major, len N*P
	// Levels is nil for an all-numeric table; otherwise len P, with Levels[j] nil for a
	// numeric column and the labels of a categorical one (codes 0..len−1).
	Levels [][]string
}

// IsCategorical reports whether column j holds category codes.
func (d *Dataset) IsCategorical(j int) bool { return d.Levels != nil && d.Levels[j] != nil }

// Categorical returns the indices of the categorical columns.
func (d *Dataset) Categorical() []int {
	var out []int
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			out = append(out, j)
		}
	}
	return out
}

// Code returns the category code of row i, column j: 0..len(Levels[j])−1, or −1 if missing.
func (d *Dataset) Code(i, j int) int {
	v := d.Data[i*d.P+j]
	if v != v {
		return -1
	}
	return int(v)
}

// Label returns the label of row i, column j: the category label of a categorical column
// ("NA" if missing) or the shortest formatting of a number ("NA" for NaN).
func (d *Dataset) Label(i, j int) string {
	if d.IsCategorical(j) {
		c := d.Code(i, j)
		if c < 0 || c >= len(d.Levels[j]) {
			return "NA"
		}
		return d.Levels[j][c]
	}
	if v := d.Data[i*d.P+j]; v != v {
		return "NA"
	}
	return formatFloat(d.Data[i*d.P+j])
}

// New returns a Dataset over data (not copied). It panics if len(data) != n*p or
// len(names) != p, which are programming errors.
func New(name string, names []string, n, p int, data []float64) *Dataset {
	if len(data) != n*p || len(names) != p {
		panic("datasets: shape mismatch")
	}
	return &Dataset{Name: name, Names: names, N: n, P: p, Data: data}
}

// Row returns row i as a slice of Data (not a copy).
func (d *Dataset) Row(i int) []float64 { return d.Data[i*d.P : (i+1)*d.P : (i+1)*d.P] }

// At returns the value of row i, column j.
func (d *Dataset) At(i, j int) float64 { return d.Data[i*d.P+j] }

// Col returns a copy of column j.
func (d *Dataset) Col(j int) []float64 {
	c := make([]float64, d.N)
	for i := range c {
		c[i] = d.Data[i*d.P+j]
	}
	return c
}

// Clone returns a deep copy of d.
func (d *Dataset) Clone() *Dataset {
	return &Dataset{
		Name:  d.Name,
		Names: append([]string(nil), d.Names...),
		N:     d.N, P: d.P,
		Data:   append([]float64(nil), d.Data...),
		Levels: cloneLevels(d.Levels),
	}
}

// View returns a table that shares d's values and category labels but has its own header
// (a copy of Names), so that renaming the view leaves d alone. Neither is to have its values
// or labels modified while the other is in use: a view is for tables read only, such as a
// selection of every column or a release read from the same file as its original.
func (d *Dataset) View() *Dataset {
	v := *d
	v.Names = append([]string(nil), d.Names...)
	return &v
}

// CloneLevels returns a copy of d's category labels (nil for a table without categories),
// for a table built from some of d's rows: the labels without a copy of the values.
func (d *Dataset) CloneLevels() [][]string { return cloneLevels(d.Levels) }

func cloneLevels(lv [][]string) [][]string {
	if lv == nil {
		return nil
	}
	out := make([][]string, len(lv))
	for j, l := range lv {
		if l != nil {
			out[j] = append([]string{}, l...)
		}
	}
	return out
}

// Select returns a new Dataset with the named columns, in the order given.
// An unknown or repeated name is an error.
func (d *Dataset) Select(cols []string) (*Dataset, error) {
	idx := make([]int, len(cols))
	seen := map[string]bool{}
	for c, name := range cols {
		if seen[name] {
			return nil, fmt.Errorf("datasets: %s: column %q selected twice", d.Name, name)
		}
		seen[name] = true
		idx[c] = -1
		for j, n := range d.Names {
			if n == name {
				idx[c] = j
				break
			}
		}
		if idx[c] < 0 {
			return nil, fmt.Errorf("datasets: %s: no column %q (have %v)", d.Name, name, d.Names)
		}
	}
	out := make([]float64, d.N*len(cols))
	for i := 0; i < d.N; i++ {
		for c, j := range idx {
			out[i*len(cols)+c] = d.Data[i*d.P+j]
		}
	}
	sel := New(d.Name, append([]string(nil), cols...), d.N, len(cols), out)
	if d.Levels != nil {
		sel.Levels = make([][]string, len(cols))
		for c, j := range idx {
			if d.Levels[j] != nil {
				sel.Levels[c] = append([]string{}, d.Levels[j]...)
			}
		}
	}
	return sel, nil
}

// ColIndex returns the index of the column named name, or −1.
func (d *Dataset) ColIndex(name string) int {
	for j, n := range d.Names {
		if n == name {
			return j
		}
	}
	return -1
}

// Sentinel errors wrapped by *ParseError and the validation functions.
var (
	ErrEmpty          = errors.New("empty file")
	ErrNoRows         = errors.New("header but no data rows")
	ErrRagged         = errors.New("wrong number of fields")
	ErrNotNumber      = errors.New("not a number")
	ErrOutOfRange     = errors.New("number outside the float64 range (|x| > 1.797e308)")
	ErrNonFinite      = errors.New("NaN or infinite value")
	ErrDuplicateName  = errors.New("duplicate column name")
	ErrEmptyName      = errors.New("empty column name")
	ErrConstantColumn = errors.New("constant column (sd = 0) cannot be standardized")
	ErrTooFewRows     = errors.New("too few rows")
	ErrCategorical    = errors.New("categorical column where numbers are needed (protect it with a categorical method or pass it through with --keep)")
)

// ParseError reports a problem with one cell, row or column of a CSV input.
// Row is the 1-based line number in the file (the header is line 1); Row 0 means the
// problem is not tied to one line. Column is the column name when known.
type ParseError struct {
	File   string
	Row    int
	Column string
	Value  string
	Err    error
}

func (e *ParseError) Error() string {
	s := "datasets: " + e.File
	if e.Row > 0 {
		s += fmt.Sprintf(":%d", e.Row)
	}
	if e.Column != "" {
		s += fmt.Sprintf(": column %q", Clip(e.Column))
	}
	if e.Value != "" {
		s += fmt.Sprintf(": value %q", Clip(e.Value))
	}
	return s + ": " + e.Err.Error()
}

// MaxEcho is the most bytes of a field (a value or a column name) that an error message
// repeats; longer fields are cut and marked with their full length.
const MaxEcho = 64

// Clip returns s unchanged when it has at most MaxEcho bytes, and otherwise its first
// MaxEcho bytes (cut at a rune boundary) followed by "…(N bytes)".
func Clip(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}

func (e *ParseError) Unwrap() error { return e.Err }

// HasMissing reports whether d holds a missing value (a NaN cell, of a numeric or a
// categorical column).
func (d *Dataset) HasMissing() bool {
	for _, v := range d.Data {
		if v != v {
			return true
		}
	}
	return false
}

// CheckFinite returns a *ParseError wrapping ErrNonFinite for the first NaN or ±Inf value
// of a numeric column, or ErrCategorical for the first categorical column: it is what a
// method that computes with numbers calls first.
func (d *Dataset) CheckFinite() error {
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			return &ParseError{File: d.Name, Column: d.Names[j], Err: ErrCategorical}
		}
	}
	for i, v := range d.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			r, c := i/d.P, i%d.P
			return &ParseError{File: d.Name, Row: r + 2, Column: d.Names[c],
				Value: fmt.Sprint(v), Err: ErrNonFinite}
		}
	}
	return nil
}
