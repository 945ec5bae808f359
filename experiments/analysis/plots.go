package analysis

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// Figure is one plot of the report. Plot is nil once the figure has been saved.
type Figure struct {
	Name          string // file base name under plots/, without extension
	Title         string
	Plot          *plot.Plot
	Width, Height vg.Length
}

// Figures builds every figure of the analysis from its tables (shared/spec/harness.md "Plots"):
// boxplots per configuration sorted by median, the loss-vs-risk scatter, convergence traces when
// traces.csv has rows, win-count bars, gap distributions and metric-vs-parameter curves. A figure
// without data is left out.
func (r *Result) Figures() ([]Figure, error) {
	var figs []Figure
	add := func(name, title string, p *plot.Plot, n int, err error) error {
		if err != nil {
			return fmt.Errorf("analysis: plot %s: %w", name, err)
		}
		if p != nil {
			// n > 0 categories along x widen the figure; n < 0 categories along y make it taller.
			w := vg.Length(math.Max(6, 0.45*float64(n))) * vg.Inch
			h := vg.Length(math.Max(4, 1+0.3*float64(-n))) * vg.Inch
			figs = append(figs, Figure{Name: name, Title: title, Plot: p, Width: w, Height: h})
		}
		return nil
	}
	p := r.Plan
	for _, m := range p.Metrics {
		vals := p.values(r.Runs, m)
		bp, err := BoxPlot(m+" by configuration (sorted by median, best on top)", m, p.Configs, vals, p.dirs[m].score)
		if err := add("box_"+slug(m), m+": distribution per configuration", bp, -len(p.Configs), err); err != nil {
			return nil, err
		}
	}
	if len(p.Scatter) == 2 {
		sp, err := r.scatter(p.Scatter[0], p.Scatter[1])
		if err := add("scatter_"+slug(p.Scatter[0])+"_"+slug(p.Scatter[1]), p.Scatter[0]+" vs "+p.Scatter[1], sp, 0, err); err != nil {
			return nil, err
		}
	}
	if len(r.Traces) > 0 {
		tp, err := r.traces()
		if err := add("traces", "convergence (median best objective over runs)", tp, 0, err); err != nil {
			return nil, err
		}
	}
	for _, m := range p.Metrics {
		cells := r.Cells[m]
		if p.Wins && len(cells) > 0 {
			wp, err := winBars(m, cells, p.WinsBy)
			if err := add("wins_"+slug(m), m+": win counts", wp, len(p.Configs)*len(cells), err); err != nil {
				return nil, err
			}
		}
		if p.Gaps && len(cells) > 0 {
			gaps := make([][]float64, len(p.Configs))
			for _, cl := range cells {
				for k, name := range cl.Configs {
					c := slices.Index(p.Configs, name)
					for in := range cl.Instances {
						gaps[c] = append(gaps[c], cl.Gaps[in][k])
					}
				}
			}
			gp, err := BoxPlot(m+": gap to the best per instance", "gap", p.Configs, gaps, func(v float64) float64 { return v })
			if err := add("gaps_"+slug(m), m+": gap distribution", gp, -len(p.Configs), err); err != nil {
				return nil, err
			}
		}
	}
	for _, q := range p.Curves {
		for _, m := range p.Metrics {
			cp, err := r.curve(m, q)
			if err := add("curve_"+slug(m)+"_"+slug(short(q)), m+" vs "+short(q), cp, 0, err); err != nil {
				return nil, err
			}
		}
	}
	return figs, nil
}

// SaveFigures writes each figure as dir/NAME.png and dir/NAME.svg and returns them with Plot
// released.
func SaveFigures(dir string, figs []Figure) ([]Figure, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	for i := range figs {
		for _, ext := range []string{".png", ".svg"} {
			if err := figs[i].Plot.Save(figs[i].Width, figs[i].Height, filepath.Join(dir, figs[i].Name+ext)); err != nil {
				return nil, fmt.Errorf("analysis: plot %s: %w", figs[i].Name, err)
			}
		}
		figs[i].Plot = nil
	}
	return figs, nil
}

var slugRE = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func slug(s string) string { return slugRE.ReplaceAllString(s, "-") }

// BoxPlot returns horizontal boxplots of values, one per name, ordered by the score of their
// median with the lowest score (the best) on top; use the identity as score for lower-better
// values. Non-finite values are left out, and so
// are names without a finite value. The boxes use gonum/plot's quartiles (Tukey hinges); the
// tables' quartiles are R type 7. It returns a nil plot when no name has data.
func BoxPlot(title, ylabel string, names []string, values [][]float64, score func(float64) float64) (*plot.Plot, error) {
	type box struct {
		name string
		v    []float64
		med  float64
	}
	var boxes []box
	for i, n := range names {
		s := stats.NewSample(values[i])
		if len(s.Values) > 0 {
			boxes = append(boxes, box{n, s.Values, score(s.Median())})
		}
	}
	if len(boxes) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(boxes, func(a, b box) int { return cmpScore(b.med, a.med) }) // best on top
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = ylabel
	w := vg.Points(14)
	labels := make([]string, len(boxes))
	for i, b := range boxes {
		bp, err := plotter.NewBoxPlot(w, float64(i), plotter.Values(b.v))
		if err != nil {
			return nil, err
		}
		bp.Horizontal = true
		bp.FillColor = plotutil.Color(0)
		p.Add(bp)
		labels[i] = b.name
	}
	p.NominalY(labels...)
	return p, nil
}

// rotate tilts long category labels.
func rotate(p *plot.Plot, n int) {
	if n > 3 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
}

// scatter plots metric y against x for every ok run, one series per configuration.
func (r *Result) scatter(x, y string) (*plot.Plot, error) {
	p := r.Plan
	jx, jy := r.Runs.ValueCol(x), r.Runs.ValueCol(y)
	pts := make([]plotter.XYs, len(p.Configs))
	for i, run := range r.Runs.Rows {
		c := p.config[i]
		if c < 0 {
			continue
		}
		vx, vy := run.Values[jx], run.Values[jy]
		if isFinite(vx) && isFinite(vy) {
			pts[c] = append(pts[c], plotter.XY{X: vx, Y: vy})
		}
	}
	pl := plot.New()
	pl.Title.Text = "Information loss vs disclosure risk"
	pl.X.Label.Text, pl.Y.Label.Text = x, y
	pl.Legend.Top = true
	n, thinned := 0, false
	nonEmpty := 0
	for _, xy := range pts {
		if len(xy) > 0 {
			nonEmpty++
		}
	}
	perConfig := max(50, maxScatter/max(1, nonEmpty))
	for c, xy := range pts {
		if len(xy) == 0 {
			continue
		}
		if len(xy) > perConfig { // every m-th run, so that the SVG stays small
			m := (len(xy) + perConfig - 1) / perConfig
			kept := xy[:0]
			for i := 0; i < len(xy); i += m {
				kept = append(kept, xy[i])
			}
			xy, thinned = kept, true
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = plotutil.Color(c)
		s.GlyphStyle.Shape = plotutil.Shape(c + c/len(plotutil.DefaultColors)) // colour and shape cycle with different periods
		pl.Add(s)
		pl.Legend.Add(p.Configs[c], s)
		n++
	}
	if n == 0 {
		return nil, nil
	}
	if thinned {
		pl.Title.Text += fmt.Sprintf(" (every run up to %d per configuration; more are thinned)", perConfig)
	}
	// leave the right part of the frame empty for the legend
	pl.X.Max += 0.6 * (pl.X.Max - pl.X.Min)
	return pl, nil
}

// maxScatter is about the most points a scatter plot draws (at least 50 per configuration).
const maxScatter = 5000

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// traces plots, per configuration, the median over its runs of the best objective at each
// iteration.
func (r *Result) traces() (*plot.Plot, error) {
	p := r.Plan
	cfg := map[string]int{}
	idc := r.Runs.Col("run_id")
	if idc < 0 {
		return nil, nil
	}
	for i, run := range r.Runs.Rows {
		if c := p.config[i]; c >= 0 {
			cfg[run.Cells[idc]] = c
		}
	}
	series := make([]map[float64][]float64, len(p.Configs))
	for _, t := range r.Traces {
		c, ok := cfg[t.RunID]
		if !ok || !isFinite(t.Iter) || !isFinite(t.Best) {
			continue
		}
		if series[c] == nil {
			series[c] = map[float64][]float64{}
		}
		series[c][t.Iter] = append(series[c][t.Iter], t.Best)
	}
	pl := plot.New()
	pl.Title.Text = "Convergence"
	pl.X.Label.Text, pl.Y.Label.Text = "iteration", "best objective (median over runs)"
	n := 0
	for c, s := range series {
		if len(s) == 0 {
			continue
		}
		if err := addLine(pl, p.Configs[c], c, medianXY(s)); err != nil {
			return nil, err
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	pl.X.Max += 0.6 * (pl.X.Max - pl.X.Min) // room for the legend
	return pl, nil
}

// medianXY returns the (x, median of ys) points of s sorted by x.
func medianXY(s map[float64][]float64) plotter.XYs {
	xs := make([]float64, 0, len(s))
	for x := range s {
		xs = append(xs, x)
	}
	slices.Sort(xs)
	out := make(plotter.XYs, 0, len(xs))
	for _, x := range xs {
		if m := stats.NewSample(s[x]).Median(); isFinite(m) {
			out = append(out, plotter.XY{X: x, Y: m})
		}
	}
	return out
}

func addLine(pl *plot.Plot, name string, i int, xy plotter.XYs) error {
	if len(xy) == 0 {
		return nil
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	l.Color = plotutil.Color(i)
	l.Dashes = plotutil.Dashes(i)
	if len(xy) > 30 { // long traces: the line alone; glyphs would merge into a band
		pl.Add(l)
		pl.Legend.Add(name, l)
		return nil
	}
	pts.Color = plotutil.Color(i)
	pts.Shape = plotutil.Shape(i + i/len(plotutil.DefaultColors))
	pl.Add(l, pts)
	pl.Legend.Add(name, l, pts)
	return nil
}

// winBars draws the win counts of each configuration, one group of bars per WinsBy level.
func winBars(m string, cells []Cell, winsBy []string) (*plot.Plot, error) {
	var configs []string
	for _, cl := range cells {
		for _, c := range cl.Configs {
			if !slices.Contains(configs, c) {
				configs = append(configs, c)
			}
		}
	}
	wins := WinRows(cells)
	pl := plot.New()
	pl.Title.Text = m + ": wins per configuration (ties share the win)"
	pl.Y.Label.Text = "wins"
	w := vg.Points(math.Max(4, 40/float64(len(cells))))
	for i, cl := range cells {
		vals := make(plotter.Values, len(configs))
		for _, wr := range wins {
			if slices.Equal(wr.By, cl.By) {
				vals[slices.Index(configs, wr.Config)] = float64(wr.Wins)
			}
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(i)-float64(len(cells)-1)/2) * w
		pl.Add(b)
		if len(winsBy) > 0 {
			var lab []string
			for k, c := range winsBy {
				lab = append(lab, short(c)+"="+cl.By[k])
			}
			pl.Legend.Add(strings.Join(lab, " "), b)
		}
	}
	pl.Legend.Top = true
	pl.NominalX(configs...)
	rotate(pl, len(configs))
	return pl, nil
}

// curve plots the median of metric m against the numeric parameter q, one line per
// configuration without q.
func (r *Result) curve(m, q string) (*plot.Plot, error) {
	p := r.Plan
	var rest, restLabel []string
	for _, c := range p.ConfigCols {
		if c != q {
			rest = append(rest, c)
		}
	}
	for _, c := range p.labelCols {
		if c != q {
			restLabel = append(restLabel, c)
		}
	}
	j, qc := r.Runs.ValueCol(m), r.Runs.Col(q)
	idx := map[string]int{}
	var names []string
	var series []map[float64][]float64
	for i, run := range r.Runs.Rows {
		if p.config[i] < 0 || run.Cells[qc] == "" {
			continue
		}
		x, err := parseFloat(run.Cells[qc])
		if err != nil {
			continue
		}
		k := key(r.Runs, i, rest)
		g, ok := idx[k]
		if !ok {
			g = len(names)
			idx[k] = g
			names = append(names, label(r.Runs, i, restLabel))
			series = append(series, map[float64][]float64{})
		}
		series[g][x] = append(series[g][x], run.Values[j])
	}
	pl := plot.New()
	pl.Title.Text = m + " vs " + short(q) + " (median over runs)"
	pl.X.Label.Text, pl.Y.Label.Text = short(q), m
	pl.Legend.Top = true
	n := 0
	for g, s := range series {
		xy := medianXY(s)
		if len(xy) < 2 {
			continue
		}
		if err := addLine(pl, names[g], g, xy); err != nil {
			return nil, err
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	return pl, nil
}
