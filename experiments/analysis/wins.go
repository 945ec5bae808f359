package analysis

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/metrics"
)

// winTol is the tie tolerance of metrics.md §6.1: |v − v*| ≤ 1e-9·max(1, |v*|).
const winTol = 1e-9

// Wins returns, for a table of one measure with one row per instance and one column per
// competitor, which competitors win each instance (docs/metrics.md §6.1): v* is the best
// finite value (min for lower-better, max for higher-better, closest to target for Target) and
// every competitor within 1e-9·max(1, |v*|) of it wins, so ties share the win. Non-finite values
// never win; an instance with no finite value has no winner and is counted in noWinner. Rows must
// have equal lengths.
func Wins(table [][]float64, better metrics.Direction, target float64) (win [][]bool, noWinner int) {
	d := direction{better: better, target: target}
	win = make([][]bool, len(table))
	for i, row := range table {
		win[i] = make([]bool, len(row))
		best := math.NaN()
		for _, v := range row {
			if s := d.score(v); !math.IsNaN(s) && (math.IsNaN(best) || s < best) {
				best = s
			}
		}
		if math.IsNaN(best) {
			noWinner++
			continue
		}
		// Compare in the measure's own units: v* is the best value, not its score.
		for j, v := range row {
			s := d.score(v)
			if !math.IsNaN(s) && math.Abs(s-best) <= winTol*math.Max(1, math.Abs(bestValue(row, d, best))) {
				win[i][j] = true
			}
		}
	}
	return win, noWinner
}

// bestValue returns the value in row whose score is best.
func bestValue(row []float64, d direction, best float64) float64 {
	for _, v := range row {
		if d.score(v) == best {
			return v
		}
	}
	return best
}

// Gaps returns the gap of every value of a table (rows = instances, columns = competitors),
// docs/metrics.md §6.2: (s − min)/(max − min) over the finite values of the instance for a
// lower-better measure, (max − s)/(max − min) for a higher-better one (|s − target| is the score
// of a Target measure), 0 for every finite value when max = min, and NaN for a non-finite value.
func Gaps(table [][]float64, better metrics.Direction, target float64) [][]float64 {
	d := direction{better: better, target: target}
	out := make([][]float64, len(table))
	for i, row := range table {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range row {
			if s := d.score(v); !math.IsNaN(s) {
				lo, hi = math.Min(lo, s), math.Max(hi, s)
			}
		}
		out[i] = make([]float64, len(row))
		for j, v := range row {
			s := d.score(v)
			switch {
			case math.IsNaN(s):
				out[i][j] = math.NaN()
			case hi == lo:
				out[i][j] = 0
			default:
				out[i][j] = (s - lo) / (hi - lo)
			}
		}
	}
	return out
}

// GapSummary is the summary of one competitor's gaps over instances (MAGGA study Tables 5.6-5.8):
// the finite gaps' count, min, median, mean, sd (n−1) and max, and the number of NaN gaps.
type GapSummary struct {
	N, NaN                     int
	Min, Median, Mean, SD, Max float64
}

// SummarizeGaps returns the GapSummary of gaps.
func SummarizeGaps(gaps []float64) GapSummary {
	s := stats.NewSample(gaps)
	g := GapSummary{N: len(s.Values), NaN: s.Missing, Min: math.NaN(), Median: math.NaN(), Mean: math.NaN(), SD: math.NaN(), Max: math.NaN()}
	if g.N > 0 {
		g.Min, g.Max, g.Median, g.Mean = s.Values[0], s.Values[g.N-1], s.Median(), stat.Mean(s.Values, nil)
	}
	if g.N > 1 {
		g.SD = stat.StdDev(s.Values, nil)
	}
	return g
}

// Cell is one table of wins and gaps: a metric at one value of the WinsBy columns, instances ×
// configurations.
type Cell struct {
	Metric    string
	By        []string // values of Plan.WinsBy
	Instances []string
	Configs   []string
	// Values holds each configuration's replicates on each instance reduced by the plan's
	// ReplicateAgg (finite values only), NaN when
	// it has none; Gaps the matching gaps.
	Values, Gaps [][]float64
	Win          [][]bool
	NoWinner     int
}

// Cells builds the win/gap tables of metric m: one per distinct value of the WinsBy columns, each
// with the instances seen there and every configuration of the plan.
func Cells(p *Plan, runs *Runs, m string) []Cell {
	j := runs.ValueCol(m)
	byIdx := map[string]int{}
	var cells []Cell
	instIdx := []map[string]int{}
	vals := []map[[2]int][]float64{}
	for i, r := range runs.Rows {
		c := p.config[i]
		if c < 0 {
			continue
		}
		bk := key(runs, i, p.WinsBy)
		b, ok := byIdx[bk]
		if !ok {
			b = len(cells)
			byIdx[bk] = b
			var by []string
			for _, w := range p.WinsBy {
				by = append(by, runs.Get(i, w))
			}
			cells = append(cells, Cell{Metric: m, By: by})
			instIdx = append(instIdx, map[string]int{})
			vals = append(vals, map[[2]int][]float64{})
		}
		ik := key(runs, i, p.Instances)
		in, ok := instIdx[b][ik]
		if !ok {
			in = len(cells[b].Instances)
			instIdx[b][ik] = in
			cells[b].Instances = append(cells[b].Instances, strings.ReplaceAll(ik, "\x1f", " "))
		}
		vals[b][[2]int{in, c}] = append(vals[b][[2]int{in, c}], r.Values[j])
	}
	d := p.dirs[m]
	for b := range cells {
		cl := &cells[b]
		// The competitors are the configurations that appear in this cell.
		var present []int
		for c := range p.Configs {
			for in := range cl.Instances {
				if _, ok := vals[b][[2]int{in, c}]; ok {
					present = append(present, c)
					break
				}
			}
		}
		cl.Configs = make([]string, len(present))
		for k, c := range present {
			cl.Configs[k] = p.Configs[c]
		}
		cl.Values = make([][]float64, len(cl.Instances))
		for in := range cl.Values {
			cl.Values[in] = make([]float64, len(present))
			for k, c := range present {
				cl.Values[in][k] = p.aggregate(vals[b][[2]int{in, c}])
			}
		}
		cl.Win, cl.NoWinner = Wins(cl.Values, d.better, d.target)
		cl.Gaps = Gaps(cl.Values, d.better, d.target)
	}
	slices.SortStableFunc(cells, func(a, b Cell) int { return compareLevels(a.By, b.By) })
	return cells
}

// compareLevels orders grid values numerically when both parse, else as strings.
func compareLevels(a, b []string) int {
	for i := range a {
		x, ex := parseFloat(a[i])
		y, ey := parseFloat(b[i])
		if ex == nil && ey == nil {
			if c := cmpScore(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// WinRow is one line of wins.csv.
type WinRow struct {
	Metric    string
	By        []string
	Config    string
	Wins      int
	Instances int
	Pct       float64 // 100·Wins/Instances
	Missing   int     // instances where this configuration has no finite value
	NoWinner  int     // instances of the cell with no winner at all (n_missing of §6.1)
}

// GapRow is one line of gaps.csv.
type GapRow struct {
	Metric string
	By     []string
	Config string
	GapSummary
}

// WinRows and GapRows flatten cells into table rows.
func WinRows(cells []Cell) []WinRow {
	var out []WinRow
	for _, cl := range cells {
		for c, name := range cl.Configs {
			r := WinRow{Metric: cl.Metric, By: cl.By, Config: name, Instances: len(cl.Instances), NoWinner: cl.NoWinner}
			for in := range cl.Instances {
				if cl.Win[in][c] {
					r.Wins++
				}
				if v := cl.Values[in][c]; math.IsNaN(v) || math.IsInf(v, 0) {
					r.Missing++
				}
			}
			r.Pct = 100 * float64(r.Wins) / float64(r.Instances)
			out = append(out, r)
		}
	}
	return out
}

// GapRows returns the gap summary of every configuration in every cell.
func GapRows(cells []Cell) []GapRow {
	var out []GapRow
	for _, cl := range cells {
		for c, name := range cl.Configs {
			g := make([]float64, len(cl.Instances))
			for in := range g {
				g[in] = cl.Gaps[in][c]
			}
			out = append(out, GapRow{Metric: cl.Metric, By: cl.By, Config: name, GapSummary: SummarizeGaps(g)})
		}
	}
	return out
}
