package analysis

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/sdcbench/sdcbench/metrics"
)

func TestWinsGaps(t *testing.T) {
	nan := math.NaN()
	for i, tc := range []struct {
		name     string
		table    [][]float64
		better   metrics.Direction
		target   float64
		wins     [][]bool
		noWinner int
		gaps     [][]float64
		summary  []GapSummary // per competitor; nil to skip
	}{
		{
			// docs/metrics.md §7.6 (hand-computed): methods A, B, C, D.
			name:  "metrics.md 7.6",
			table: [][]float64{{10.0, 12.5, 10.0, nan}, {5, 5, 5, 5}, {20, 10, 15, 30}},
			wins: [][]bool{
				{true, false, true, false},
				{true, true, true, true},
				{false, true, false, false},
			},
			gaps: [][]float64{{0, 1, 0, nan}, {0, 0, 0, 0}, {0.5, 0, 0.25, 1}},
			summary: []GapSummary{
				{N: 3, Min: 0, Median: 0, Mean: 0.1666666667, SD: 0.2886751346, Max: 0.5},
				{N: 3, Min: 0, Median: 0, Mean: 1.0 / 3, SD: math.Sqrt(1.0 / 3), Max: 1},
				{N: 3, Min: 0, Median: 0, Mean: 0.25 / 3, SD: math.Sqrt(((0.25/3)*(0.25/3)*2 + (0.25-0.25/3)*(0.25-0.25/3)) / 2), Max: 0.25},
				{N: 2, NaN: 1, Min: 0, Median: 0.5, Mean: 0.5, SD: math.Sqrt(0.5), Max: 1},
			},
		},
		{
			// docs/magga.md test 14: MAGGA, MDAV, RMDM, clustPPPCA, PPPCA.
			name:  "magga.md 14",
			table: [][]float64{{10, 12, 10, 15, 20}, {5, 5, 5, 5, 5}, {3, nan, 1, 2, 4}},
			wins: [][]bool{
				{true, false, true, false, false},
				{true, true, true, true, true},
				{false, false, true, false, false},
			},
			gaps: [][]float64{{0, 0.2, 0, 0.5, 1}, {0, 0, 0, 0, 0}, {2.0 / 3, nan, 0, 1.0 / 3, 1}},
			summary: []GapSummary{
				{N: 3, Min: 0, Median: 0, Mean: 0.2222222222, SD: 0.3849001795, Max: 0.6666666667},
				{N: 2, NaN: 1, Min: 0, Median: 0.1, Mean: 0.1, SD: math.Sqrt(0.02), Max: 0.2},
				{N: 3, Min: 0, Median: 0, Mean: 0, SD: 0, Max: 0},
				{N: 3, Min: 0, Median: 1.0 / 3, Mean: 5.0 / 18, SD: 0.2545875386, Max: 0.5},
				{N: 3, Min: 0, Median: 1, Mean: 2.0 / 3, SD: math.Sqrt(1.0 / 3), Max: 1},
			},
		},
		{
			// Every value missing: no winner, NaN gaps; ±Inf is missing too; ties within 1e-9.
			name:     "all missing, Inf, near ties",
			table:    [][]float64{{nan, math.Inf(1), nan}, {1e6, 1e6 * (1 + 5e-10), math.Inf(-1)}},
			wins:     [][]bool{{false, false, false}, {true, true, false}},
			noWinner: 1,
			gaps:     [][]float64{{nan, nan, nan}, {0, 1, nan}},
		},
		{
			// Higher-is-better: the max wins, gap (max − s)/(max − min).
			name:   "higher",
			table:  [][]float64{{0.9, 0.5, 0.7, 0.9}},
			better: metrics.Higher,
			wins:   [][]bool{{true, false, false, true}},
			gaps:   [][]float64{{0, 1, 0.5, 0}},
		},
		{
			// Target 1: the values closest to the target win (1.1 and 0.9 tie within 1e-9).
			name:   "target",
			table:  [][]float64{{0.8, 1.1, 1.5, 0.9}},
			better: metrics.Target, target: 1,
			wins: [][]bool{{false, true, false, true}},
			gaps: [][]float64{{0.25, 0, 1, 0}},
		},
	} {
		win, noWinner := Wins(tc.table, tc.better, tc.target)
		if noWinner != tc.noWinner {
			t.Errorf("case %d (%s): noWinner %d, want %d", i, tc.name, noWinner, tc.noWinner)
		}
		for r := range tc.wins {
			for c := range tc.wins[r] {
				if win[r][c] != tc.wins[r][c] {
					t.Errorf("case %d (%s): win[%d][%d] = %v", i, tc.name, r, c, win[r][c])
				}
			}
		}
		gaps := Gaps(tc.table, tc.better, tc.target)
		for r := range tc.gaps {
			for c := range tc.gaps[r] {
				g, w := gaps[r][c], tc.gaps[r][c]
				if !(math.IsNaN(g) && math.IsNaN(w)) && !scalar.EqualWithinAbs(g, w, 1e-9) {
					t.Errorf("case %d (%s): gap[%d][%d] = %v, want %v", i, tc.name, r, c, g, w)
				}
			}
		}
		for c, want := range tc.summary {
			col := make([]float64, len(gaps))
			for r := range gaps {
				col[r] = gaps[r][c]
			}
			got := SummarizeGaps(col)
			if got.N != want.N || got.NaN != want.NaN {
				t.Errorf("case %d (%s): competitor %d: n %d nan %d, want %d %d", i, tc.name, c, got.N, got.NaN, want.N, want.NaN)
			}
			for k, pair := range [][2]float64{{got.Min, want.Min}, {got.Median, want.Median}, {got.Mean, want.Mean}, {got.SD, want.SD}, {got.Max, want.Max}} {
				if !scalar.EqualWithinAbs(pair[0], pair[1], 1e-9) {
					t.Errorf("case %d (%s): competitor %d: summary field %d = %v, want %v", i, tc.name, c, k, pair[0], pair[1])
				}
			}
		}
	}
}

// TestWinCounts checks the win counts and percentages of metrics.md §7.6 through the table rows.
func TestWinCounts(t *testing.T) {
	nan := math.NaN()
	cl := Cell{Metric: "sse_sst", Instances: []string{"I1", "I2", "I3"}, Configs: []string{"A", "B", "C", "D"},
		Values: [][]float64{{10.0, 12.5, 10.0, nan}, {5, 5, 5, 5}, {20, 10, 15, 30}}}
	cl.Win, cl.NoWinner = Wins(cl.Values, metrics.Lower, 0)
	cl.Gaps = Gaps(cl.Values, metrics.Lower, 0)
	want := []struct {
		wins, missing int
	}{{2, 0}, {2, 0}, {2, 0}, {1, 1}}
	for i, w := range WinRows([]Cell{cl}) {
		if w.Wins != want[i].wins || w.Missing != want[i].missing || w.Instances != 3 || w.NoWinner != 0 {
			t.Errorf("%s: %+v, want %+v", w.Config, w, want[i])
		}
		if !scalar.EqualWithinAbs(w.Pct, 100*float64(want[i].wins)/3, 1e-12) {
			t.Errorf("%s: pct %v", w.Config, w.Pct)
		}
	}
	g := GapRows([]Cell{cl})
	if !scalar.EqualWithinAbs(g[0].Mean, 0.1666666667, 1e-9) || !scalar.EqualWithinAbs(g[0].SD, 0.2886751346, 1e-9) {
		t.Errorf("gap summary of A: %+v", g[0].GapSummary)
	}
}
