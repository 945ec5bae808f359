package analysis

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// TableConfig asks for literature-style tables: for each metric, one row per configuration
// without the Columns, one column per combination of the Columns' values (e.g. dataset × k), and
// the median (or mean) over the ok runs in each cell.
type TableConfig struct {
	// Metrics to tabulate; empty means no tables.
	Metrics []string `toml:"metrics"`
	// Columns are the runs.csv columns (parameters with or without param_) that span the table's
	// columns, outermost first. Empty means dataset and k (k when the grid has it).
	Columns []string `toml:"columns"`
	// Stat is "median" (the default, "") or "mean".
	Stat string `toml:"stat"`
}

// Pivot is one literature-style table.
type Pivot struct {
	Metric string
	Stat   string
	Cols   []string // column labels, e.g. "census k=3"
	// ColumnNames are the factors spanning the columns, e.g. dataset, k.
	ColumnNames []string
	Rows        []string    // row labels (configurations without the column factors)
	Cells       [][]float64 // [row][col]; NaN where no ok run
}

// Pivots builds the tables cfg asks for from the ok runs.
func Pivots(runs *Runs, cfg TableConfig) ([]Pivot, error) {
	if len(cfg.Metrics) == 0 {
		return nil, nil
	}
	colCols := slices.Clone(cfg.Columns)
	if len(colCols) == 0 {
		colCols = []string{"dataset"}
		if runs.Col("param_k") >= 0 {
			colCols = append(colCols, "param_k")
		}
	}
	for i, c := range colCols {
		if runs.Col(c) < 0 && runs.Col("param_"+c) >= 0 {
			colCols[i] = "param_" + c
		}
		if runs.Col(colCols[i]) < 0 {
			return nil, fmt.Errorf("analysis: table column %q is not in runs.csv", c)
		}
	}
	stat := cfg.Stat
	if stat == "" {
		stat = "median"
	}
	if stat != "median" && stat != "mean" {
		return nil, fmt.Errorf("analysis: table stat %q: want median or mean", stat)
	}
	// row factors: the method and the parameters that vary within it, minus the column factors
	varying := map[string][]string{} // method → its varying parameter columns
	for _, c := range runs.Params {
		if slices.Contains(colCols, c) {
			continue
		}
		seen := map[string]map[string]bool{}
		for i := range runs.Rows {
			m := runs.Get(i, "method")
			if seen[m] == nil {
				seen[m] = map[string]bool{}
			}
			seen[m][runs.Get(i, c)] = true
		}
		for m, vals := range seen {
			if len(vals) > 1 {
				varying[m] = append(varying[m], c)
			}
		}
	}
	cellLabel := func(i int, cols []string, withName bool) string {
		var parts []string
		for _, c := range cols {
			v := runs.Get(i, c)
			if v == "" {
				continue
			}
			name := strings.TrimPrefix(c, "param_")
			if c == "method" || c == "dataset" || !withName {
				parts = append(parts, v)
			} else {
				parts = append(parts, name+"="+v)
			}
		}
		return strings.Join(parts, " ")
	}
	rowLabel := func(i int) string {
		return cellLabel(i, append([]string{"method"}, varying[runs.Get(i, "method")]...), true)
	}
	var out []Pivot
	for _, m := range cfg.Metrics {
		vc := runs.ValueCol(m)
		if vc < 0 {
			return nil, fmt.Errorf("analysis: table metric %q is not in runs.csv", m)
		}
		p := Pivot{Metric: m, Stat: stat}
		for _, c := range colCols {
			p.ColumnNames = append(p.ColumnNames, strings.TrimPrefix(c, "param_"))
		}
		ri, ci := map[string]int{}, map[string]int{}
		vals := map[[2]int][]float64{}
		for i, row := range runs.Rows {
			r, c := rowLabel(i), cellLabel(i, colCols, true)
			if _, ok := ri[r]; !ok {
				ri[r] = len(p.Rows)
				p.Rows = append(p.Rows, r)
			}
			if _, ok := ci[c]; !ok {
				ci[c] = len(p.Cols)
				p.Cols = append(p.Cols, c)
			}
			if v := row.Values[vc]; row.OK && !isMissing(v) {
				key := [2]int{ri[r], ci[c]}
				vals[key] = append(vals[key], v)
			}
		}
		p.Cells = make([][]float64, len(p.Rows))
		for r := range p.Cells {
			p.Cells[r] = make([]float64, len(p.Cols))
			for c := range p.Cells[r] {
				p.Cells[r][c] = reduce(vals[[2]int{r, c}], stat)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

func reduce(x []float64, stat string) float64 {
	s := stats.NewSample(x)
	if len(s.Values) == 0 {
		return math.NaN()
	}
	if stat == "mean" {
		return s.Summary().Mean
	}
	return s.Median()
}

func isMissing(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// writePivotCSVs writes table_<metric>.csv for each pivot into dir.
func writePivotCSVs(dir string, ps []Pivot) error {
	for _, p := range ps {
		rows := make([][]string, len(p.Rows))
		for i, r := range p.Rows {
			rows[i] = []string{r}
			for _, v := range p.Cells[i] {
				rows[i] = append(rows[i], strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		err := datasets.AtomicWrite(filepath.Join(dir, "table_"+p.Metric+".csv"), func(w io.Writer) error {
			cw := csv.NewWriter(w)
			cw.Write(append([]string{"method"}, p.Cols...))
			cw.WriteAll(rows)
			return cw.Error()
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// reportPivots writes the literature-style tables.
func (r *Result) reportPivots(w io.Writer) {
	if len(r.Pivots) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Tables\n\nOne row per method (with the parameters that vary within it), one column per %s; each cell is the %s over the ok runs (— where none).\n",
		strings.Join(r.Pivots[0].ColumnNames, " × "), r.Pivots[0].Stat)
	for _, p := range r.Pivots {
		fmt.Fprintf(w, "\n### %s ([table_%s.csv](table_%s.csv))\n\n| method |", p.Metric, p.Metric, p.Metric)
		for _, c := range p.Cols {
			fmt.Fprintf(w, " %s |", c)
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|", len(p.Cols)))
		for i, row := range p.Rows {
			fmt.Fprintf(w, "| %s |", row)
			for _, v := range p.Cells[i] {
				if isMissing(v) {
					fmt.Fprint(w, " — |")
				} else {
					fmt.Fprintf(w, " %.4f |", v)
				}
			}
			fmt.Fprintln(w)
		}
	}
}
