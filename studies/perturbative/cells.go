// Package perturbative is the study of Morais (2022), the MSc dissertation comparing
// perturbative methods (Universidade do Minho; README.md, categorical.md): its specs and the
// reports of its experiments.
//
// PERTURBATIVE.md, for the numeric ones (perturbative-analytic, -table28, -restricted,
// -sweep), puts the study's numbers beside ours, with a verdict per cell computed from the
// runs; CATEGORICAL.md reports the categorical stage (categorical.go). The study's data are
// confidential, so its absolute numbers are shown for reference; the verdicts test the exact
// expectations and the qualitative patterns that carry over to the public substitute.
package perturbative

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// Cell is one (dataset, method, parameter set) of an experiment with its replicate values.
type Cell struct {
	Dataset string
	Method  string
	Params  map[string]string // non-empty param_ columns, without the prefix
	Vals    map[string][]float64
	Errors  int
}

// Key renders the method and its parameters, e.g. "noise_additive noise_pct=5".
func (c *Cell) Key() string {
	var ks []string
	for k := range c.Params {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	s := c.Method
	for _, k := range ks {
		s += " " + k + "=" + c.Params[k]
	}
	return s
}

// Mean returns the replicate mean of a metric (NaN when absent).
func (c *Cell) Mean(m string) float64 {
	v := c.Vals[m]
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// SE returns the standard error of the replicate mean (sample SD/√R).
func (c *Cell) SE(m string) float64 {
	v := c.Vals[m]
	if len(v) < 2 {
		return math.NaN()
	}
	mu := c.Mean(m)
	var ss float64
	for _, x := range v {
		ss += (x - mu) * (x - mu)
	}
	return math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// Param returns a parameter as a number (NaN when absent).
func (c *Cell) Param(name string) float64 {
	v, err := strconv.ParseFloat(c.Params[name], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// Cells groups the ok rows of runs.csv by dataset, method and parameters, in file order.
func Cells(t *resultsdir.Table) ([]*Cell, error) {
	ds, me, st := t.Col("dataset"), t.Col("method"), t.Col("status")
	if ds < 0 || me < 0 || st < 0 {
		return nil, fmt.Errorf("perturbative: runs.csv lacks dataset, method or status")
	}
	seed := t.Col("seed")
	end := t.Col("seconds")
	var out []*Cell
	index := map[string]*Cell{}
	for _, row := range t.Rows {
		c := &Cell{Dataset: row[ds], Method: row[me], Params: map[string]string{}, Vals: map[string][]float64{}}
		for j, h := range t.Header {
			if p, ok := strings.CutPrefix(h, "param_"); ok && row[j] != "" {
				c.Params[p] = row[j]
			}
		}
		key := c.Dataset + "|" + c.Key()
		if old, ok := index[key]; ok {
			c = old
		} else {
			index[key] = c
			out = append(out, c)
		}
		if row[st] != experiments.StatusOK {
			c.Errors++
			continue
		}
		for j := seed + 1; j < end; j++ {
			v, err := strconv.ParseFloat(row[j], 64)
			if err == nil {
				c.Vals[t.Header[j]] = append(c.Vals[t.Header[j]], v)
			}
		}
	}
	return out, nil
}

func verdict(ok bool) string {
	if ok {
		return "✅ reproduced"
	}
	return "❌ not reproduced"
}

// g formats a number compactly.
func g(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e6 || math.Abs(v) < 1e-3:
		return strconv.FormatFloat(v, 'e', 3, 64)
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}
