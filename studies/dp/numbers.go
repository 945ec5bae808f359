package dp

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/studies"
)

// The study's numbers, read from its folder: the dissertation's published numbers
// (dissertation.expected.csv) and the spec's reference values with their bands
// (spec.reference.csv). The files are embedded, so a missing or malformed entry is a
// programming error and panics on first use. They, and every value drawn from them below, are
// read on first use, not at start-up (docs/datapath.md, "Start-up").
var (
	published = sync.OnceValue(func() numbers { return mustNumbers("dissertation.expected.csv") })
	reference = sync.OnceValue(func() numbers { return mustNumbers("spec.reference.csv") })
)

// numbers holds a table of the study's numbers: per (table, item), the values of its cells in
// file order, and their bands (NaN where the file gives none).
type numbers struct {
	name          string
	values, bands map[string][]float64
}

// mustNumbers reads one of the study's embedded tables of numbers (see readNumbers).
func mustNumbers(name string) numbers {
	n, err := readNumbers(files, name)
	if err != nil {
		panic(fmt.Sprintf("dp: %v", err))
	}
	return n
}

// readNumbers reads a table with the columns table, item, column, value and, optionally,
// band (empty for none).
func readNumbers(fsys fs.FS, name string) (numbers, error) {
	header, rows, err := studies.ReadCSV(fsys, name)
	if err != nil {
		return numbers{}, err
	}
	want := "table,item,column,value"
	if h := strings.Join(header, ","); h != want && h != want+",band" {
		return numbers{}, fmt.Errorf("%s: header %q, want %q with an optional band", name, h, want)
	}
	n := numbers{name: name, values: map[string][]float64{}, bands: map[string][]float64{}}
	for i, rec := range rows {
		cells := rec[3:]
		if len(cells) == 2 && cells[1] == "" {
			cells = []string{cells[0], "NaN"}
		}
		v, err := studies.ParseFloats(cells)
		if err != nil {
			return numbers{}, fmt.Errorf("%s: row %d: %w", name, i+1, err)
		}
		k := rec[0] + "|" + rec[1]
		n.values[k] = append(n.values[k], v[0])
		if len(v) == 2 {
			n.bands[k] = append(n.bands[k], v[1])
		}
	}
	return n, nil
}

// get returns the values of the item of a table, which must have k cells.
func (n numbers) get(table, item string, k int) []float64 {
	return n.lookup(n.values, table, item, k)
}

// band returns the bands of the item of a table, which must have k cells.
func (n numbers) band(table, item string, k int) []float64 {
	return n.lookup(n.bands, table, item, k)
}

func (n numbers) lookup(m map[string][]float64, table, item string, k int) []float64 {
	v := m[table+"|"+item]
	if len(v) != k {
		panic(fmt.Sprintf("dp: %s: %s %q has %d cells, want %d", n.name, table, item, len(v), k))
	}
	return v
}
