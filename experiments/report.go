package experiments

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// Cell is the mean and sample SD of one metric over the ok runs of a configuration.
type Cell struct {
	N        int
	Mean, SD float64
}

// ConfigSummary is one row of the summary: a (dataset, method, parameters) configuration
// with its per-metric cells over replicates.
type ConfigSummary struct {
	Dataset, Method, Params string
	Runs, Failed            int
	Cells                   map[string]Cell // by column name (metrics and "seconds")
}

// Summarize groups the ok rows of a runs table by (dataset, method, parameters) in table
// order and returns the mean and SD of every metric column and of seconds. Non-finite values
// are left out of the means (metrics.md §0.4).
func Summarize(t *resultsdir.Table) (cols []string, out []ConfigSummary) {
	status, ds, me := t.Col("status"), t.Col("dataset"), t.Col("method")
	sec := t.Col("seconds")
	var params []int
	for i, h := range t.Header {
		if strings.HasPrefix(h, "param_") {
			params = append(params, i)
		}
	}
	first := t.Col("seed") + 1 // value columns: after seed, up to and including seconds
	cols = append(cols, t.Header[first:sec+1]...)
	idx := map[string]int{}
	vals := map[int]map[string][]float64{}
	for _, r := range t.Rows {
		var ps []string
		for _, i := range params {
			if r[i] != "" {
				ps = append(ps, strings.TrimPrefix(t.Header[i], "param_")+"="+r[i])
			}
		}
		key := r[ds] + "\x00" + r[me] + "\x00" + strings.Join(ps, ", ")
		g, ok := idx[key]
		if !ok {
			g = len(out)
			idx[key] = g
			out = append(out, ConfigSummary{Dataset: r[ds], Method: r[me], Params: strings.Join(ps, ", "),
				Cells: map[string]Cell{}})
			vals[g] = map[string][]float64{}
		}
		out[g].Runs++
		if r[status] != StatusOK {
			out[g].Failed++
			continue
		}
		for i, c := range cols {
			v, err := strconv.ParseFloat(r[first+i], 64)
			if err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
				vals[g][c] = append(vals[g][c], v)
			}
		}
	}
	for g := range out {
		for _, c := range cols {
			out[g].Cells[c] = meanSD(vals[g][c])
		}
	}
	return cols, out
}

func meanSD(x []float64) Cell {
	c := Cell{N: len(x), Mean: math.NaN(), SD: math.NaN()}
	if len(x) == 0 {
		return c
	}
	var s float64
	for _, v := range x {
		s += v
	}
	c.Mean = s / float64(len(x))
	if slices.Min(x) == slices.Max(x) {
		c.Mean, c.SD = x[0], 0
		return c
	}
	if len(x) > 1 {
		var ss float64
		for _, v := range x {
			ss += (v - c.Mean) * (v - c.Mean)
		}
		c.SD = math.Sqrt(ss / float64(len(x)-1))
	}
	return c
}

// WriteSummaryReport writes dir/REPORT.md (through resultsdir.WriteReport) when a complete
// folder gets no analysis: for each dataset, a table with one row per method and parameter
// set and the mean (± SD over replicates) of every metric and of the run time.
func WriteSummaryReport(dir string) error {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return err
	}
	man, err := resultsdir.ReadManifest(dir)
	if err != nil {
		return err
	}
	cols, rows := Summarize(t)
	return resultsdir.WriteReport(dir, func(w io.Writer) error {
		return summaryMarkdown(w, man, cols, rows)
	})
}

func summaryMarkdown(w io.Writer, man *resultsdir.Manifest, cols []string, rows []ConfigSummary) error {
	fmt.Fprintf(w, "# %s\n\n", man.Name)
	fmt.Fprintf(w, "%d runs; sdcbench %s, %s, %d CPUs (%s/%s); spec SHA-256 `%.12s`.\n\n",
		man.Runs, man.Tool, man.GoVersion, man.CPUs, man.OS, man.Arch, man.SpecHash)
	fmt.Fprintf(w, "Full rows: [runs.csv](runs.csv).\n")
	meansMarkdown(w, cols, rows, "##")
	return nil
}

// MeansMarkdown writes the per-dataset tables of Summarize(t) — one row per method and
// parameter set, the mean (± SD over replicates) of every metric and of the run time — with
// level-3 headings, for inclusion in a larger report.
func MeansMarkdown(w io.Writer, t *resultsdir.Table) {
	cols, rows := Summarize(t)
	fmt.Fprintf(w, "Mean over replicates (± sample SD when they differ); `seconds` is the method's wall time per run.\n")
	meansMarkdown(w, cols, rows, "###")
}

func meansMarkdown(w io.Writer, cols []string, rows []ConfigSummary, heading string) {
	last := ""
	for _, r := range rows {
		if r.Dataset != last {
			last = r.Dataset
			fmt.Fprintf(w, "\n%s %s\n\n| method | parameters | runs |", heading, r.Dataset)
			for _, c := range cols {
				fmt.Fprintf(w, " %s |", c)
			}
			fmt.Fprintf(w, "\n|---|---|---:|%s\n", strings.Repeat("---:|", len(cols)))
		}
		runs := strconv.Itoa(r.Runs)
		if r.Failed > 0 {
			runs += fmt.Sprintf(" (%d failed)", r.Failed)
		}
		fmt.Fprintf(w, "| %s | %s | %s |", r.Method, r.Params, runs)
		for _, c := range cols {
			fmt.Fprintf(w, " %s |", formatCell(r.Cells[c], c == "seconds"))
		}
		fmt.Fprintln(w)
	}
}

func formatCell(c Cell, timing bool) string {
	if c.N == 0 {
		return "—"
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	if timing {
		f = func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	}
	if c.N == 1 || math.IsNaN(c.SD) || c.SD == 0 {
		return f(c.Mean)
	}
	return f(c.Mean) + " ± " + f(c.SD)
}
