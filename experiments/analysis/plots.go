package analysis

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// Figure is one plot of the report: a single plot, or panels (one per dataset or block) laid
// out in Cols columns, with the legend drawn outside the data on the right.
type Figure struct {
	Name          string // file base name under plots/, without extension
	Title         string
	Plot          *plot.Plot   // a single plot, or nil
	Panels        []*plot.Plot // several panels when Plot is nil
	Cols          int
	Legend        *legendSet
	Width, Height vg.Length
	// SVG reports that plots/NAME.svg was written (figures over svgLimit get the PNG only).
	SVG   bool
	noSVG bool
}

// maxPanels is the most panels a figure draws; the tables hold every block.
const maxPanels = 12

// maxBoxPanels is the most dataset panels of a box plot with n configurations: the figure
// grows with panels × configurations, so large grids show their first datasets only.
func maxBoxPanels(n int) int {
	switch {
	case n <= 8:
		return maxPanels
	case n <= 16:
		return 6
	}
	return 3
}

// Figures builds every figure of the analysis from its tables (docs/harness.md "Plots"):
// boxplots per configuration sorted by median with one panel per dataset, the risk–utility map
// with the Pareto front of each block, convergence traces when traces.csv has rows, win-count
// bars, gap distributions, performance profiles and metric-vs-parameter curves per dataset.
// Colours and shapes follow SeriesColor and SeriesShape by configuration, so a configuration
// looks the same in every figure. A figure without data is left out.
func (r *Result) Figures() ([]Figure, error) {
	var figs []Figure
	p := r.Plan
	single := func(name, title string, pl *plot.Plot, leg *legendSet, n int, err error) error {
		if err != nil {
			return fmt.Errorf("analysis: plot %s: %w", name, err)
		}
		if pl != nil {
			// n > 0 categories along x widen the figure; n < 0 categories along y make it taller.
			w := vg.Length(math.Max(6, 0.45*float64(n))) * vg.Inch
			h := vg.Length(math.Max(4, 1+0.3*float64(-n))) * vg.Inch
			figs = append(figs, Figure{Name: name, Title: title, Plot: pl, Legend: leg, Width: w, Height: h})
		}
		return nil
	}
	panels := func(name, title string, pls []*plot.Plot, leg *legendSet, tall int) {
		var keep []*plot.Plot
		for _, pl := range pls {
			if pl != nil {
				keep = append(keep, pl)
			}
		}
		if len(keep) == 0 {
			return
		}
		cols, w, h := panelLayout(len(keep))
		if tall > 0 { // category axes: room per category
			rows := (len(keep) + cols - 1) / cols
			h = vg.Length(rows) * vg.Length(math.Max(3, 1+0.28*float64(tall))) * vg.Inch
			w = vg.Length(cols) * 4.8 * vg.Inch
		}
		figs = append(figs, Figure{Name: name, Title: title, Panels: keep, Cols: cols, Legend: leg, Width: w, Height: h})
	}
	sets := r.datasetPanels()
	boxSets, boxNote := sets, ""
	if n := maxBoxPanels(len(p.Configs)); len(sets) > n {
		boxSets, boxNote = sets[:n], fmt.Sprintf(" (first %d datasets; summary.csv has all)", n)
	}
	for _, m := range p.Metrics {
		var pls []*plot.Plot
		vals := make([][][]float64, len(boxSets))
		var all [][]float64
		var refs []float64
		for k, ds := range boxSets {
			vals[k] = p.valuesWhere(r.Runs, m, ds.keep)
			all = append(all, vals[k]...)
			if o, ok := r.originalOf(ds.name); ok {
				refs = append(refs, o.Value(m))
			}
		}
		ax := newMetricAxis(m, p.dirs[m], all, refs...)
		var leg *legendSet
		for k, ds := range boxSets {
			bp, err := BoxPlot(ds.name, m, p.Configs, vals[k], p.dirs[m].score)
			if err != nil {
				return nil, fmt.Errorf("analysis: plot box_%s: %w", m, err)
			}
			if bp == nil {
				continue
			}
			if o, ok := r.originalOf(ds.name); ok && isFinite(o.Value(m)) {
				if l, err := originalLine(o.Value(m), bp.Y.Min-0.4, bp.Y.Max+0.4, true); err == nil {
					if leg == nil {
						leg = newLegendSet()
					}
					if ax.shows(o.Value(m)) {
						bp.Add(l)
						leg.add(originalLegend, l)
					} else { // 0 on a log axis
						leg.add(originalLegend+": "+num(o.Value(m))+", off the log axis", l)
					}
				}
			}
			ax.apply(&bp.X, false)
			pls = append(pls, bp)
		}
		panels("box_"+slug(m), m+": distribution per configuration and dataset (best on top)"+boxNote, pls, leg, len(p.Configs))
	}
	if rows := r.Pareto; len(rows) > 0 {
		pls, leg := r.ruMaps()
		panels("rumap_"+slug(p.Tradeoff[0])+"_"+slug(p.Tradeoff[1]),
			fmt.Sprintf("risk–utility map: %s vs %s per block, Pareto front dashed", p.Tradeoff[0], p.Tradeoff[1]), pls, leg, 0)
	}
	if len(r.Traces) > 0 {
		pls, leg := r.traces(sets)
		panels("traces", "convergence (median best objective over runs) per dataset", pls, leg, 0)
	}
	for _, m := range p.Metrics {
		cells := r.Cells[m]
		if p.Wins && len(cells) > 0 {
			leg := newLegendSet()
			wp, err := winBars(m, cells, p.WinsBy, leg)
			if err := single("wins_"+slug(m), m+": win counts", wp, leg, len(p.Configs)*len(cells), err); err != nil {
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
			if err := single("gaps_"+slug(m), m+": gap distribution", gp, nil, -len(p.Configs), err); err != nil {
				return nil, err
			}
		}
		if prof := r.Profiles[m]; len(prof) > 0 && len(p.Configs) >= 2 {
			leg := newLegendSet()
			pp, err := profilePlot(m, prof, p.Configs, leg)
			if err := single("profile_"+slug(m), m+": performance profile", pp, leg, 0, err); err != nil {
				return nil, err
			}
		}
	}
	for _, q := range p.Curves {
		for _, m := range p.Metrics {
			leg := newLegendSet()
			var pls []*plot.Plot
			var refs []float64
			for _, ds := range sets {
				if o, ok := r.originalOf(ds.name); ok {
					refs = append(refs, o.Value(m))
				}
			}
			ax := newMetricAxis(m, p.dirs[m], [][]float64{r.configValues(m, q)}, refs...)
			for _, ds := range sets {
				cp, err := r.curve(m, q, ds, leg)
				if err != nil {
					return nil, fmt.Errorf("analysis: plot curve_%s_%s: %w", m, q, err)
				}
				if cp == nil {
					continue
				}
				if o, ok := r.originalOf(ds.name); ok && ax.shows(o.Value(m)) {
					if l, err := originalLine(o.Value(m), cp.X.Min, cp.X.Max, false); err == nil {
						cp.Add(l)
						leg.add(originalLegend, l)
					}
				}
				ax.apply(&cp.Y, true)
				cp.Y.Label.Text = "median " + cp.Y.Label.Text
				pls = append(pls, cp)
			}
			panels("curve_"+slug(m)+"_"+slug(short(q)), m+" vs "+short(q)+" per dataset", pls, leg, 0)
		}
	}
	return figs, nil
}

// configValues returns the finite values of column m over the runs of the configurations
// that have a value of column q.
func (r *Result) configValues(m, q string) []float64 {
	j, qc := r.Runs.ValueCol(m), r.Runs.Col(q)
	var out []float64
	for i, run := range r.Runs.Rows {
		if r.Plan.config[i] >= 0 && j >= 0 && qc >= 0 && run.Cells[qc] != "" && isFinite(run.Values[j]) {
			out = append(out, run.Values[j])
		}
	}
	return out
}

// panelSet selects the runs of one panel.
type panelSet struct {
	name string
	keep func(i int) bool
}

// datasetPanels returns one panel per dataset (at most maxPanels), or a single pooled panel
// when the runs have no dataset column.
func (r *Result) datasetPanels() []panelSet {
	j := r.Runs.Col("dataset")
	if j < 0 {
		return []panelSet{{name: "all runs"}}
	}
	var names []string
	for i, row := range r.Runs.Rows {
		if r.Plan.config[i] >= 0 && !slices.Contains(names, row.Cells[j]) {
			names = append(names, row.Cells[j])
		}
	}
	if len(names) > maxPanels {
		names = names[:maxPanels]
	}
	out := make([]panelSet, len(names))
	for k, n := range names {
		out[k] = panelSet{name: n, keep: func(i int) bool { return r.Runs.Rows[i].Cells[j] == n }}
	}
	return out
}

// SaveFigures writes each figure as dir/NAME.png and, when small enough, dir/NAME.svg, and
// returns them with their plots released. A dir that is a symbolic link is refused.
func SaveFigures(dir string, figs []Figure) ([]Figure, error) {
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("analysis: %s is a symbolic link: sdcbench does not write through links inside a results folder; replace it with a folder", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	for i := range figs {
		os.Remove(filepath.Join(dir, figs[i].Name+".svg"))
		if err := figs[i].save(dir); err != nil {
			return nil, fmt.Errorf("analysis: plot %s: %w", figs[i].Name, err)
		}
		figs[i].Plot, figs[i].Panels = nil, nil
	}
	return figs, nil
}

var slugRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_.-]+`) })

func slug(s string) string { return slugRE().ReplaceAllString(s, "-") }

// BoxPlot returns horizontal boxplots of values, one per name, ordered by the score of their
// median with the lowest score (the best) on top; use the identity as score for lower-better
// values. Non-finite values are left out, and so are names without a finite value. Each box has
// the colour of its name's index (SeriesColor). The boxes use gonum/plot's quartiles (Tukey
// hinges); the tables' quartiles are R type 7. It returns a nil plot when no name has data.
func BoxPlot(title, ylabel string, names []string, values [][]float64, score func(float64) float64) (*plot.Plot, error) {
	type box struct {
		name string
		i    int
		v    []float64
		med  float64
	}
	var boxes []box
	for i, n := range names {
		s := stats.NewSample(values[i])
		if len(s.Values) > 0 {
			boxes = append(boxes, box{n, i, s.Values, score(s.Median())})
		}
	}
	if len(boxes) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(boxes, func(a, b box) int { return cmpScore(b.med, a.med) }) // best on top
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = ylabel
	w := vg.Points(12)
	labels := make([]string, len(boxes))
	for i, b := range boxes {
		bp, err := plotter.NewBoxPlot(w, float64(i), plotter.Values(b.v))
		if err != nil {
			return nil, err
		}
		bp.Horizontal = true
		bp.FillColor = SeriesColor(b.i)
		p.Add(bp)
		// The observations themselves, thinned to at most 200: a deterministic configuration's
		// box is a single line, its point is what the reader sees.
		step := max(1, len(b.v)/200)
		var xy plotter.XYs
		for k := 0; k < len(b.v); k += step {
			xy = append(xy, plotter.XY{X: b.v[k], Y: float64(i)})
		}
		if sc, err := plotter.NewScatter(xy); err == nil {
			sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = SeriesColor(b.i), SeriesShape(b.i), vg.Points(3)
			p.Add(sc)
		}
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

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// traces plots, per dataset and configuration, the median over its runs of the best objective
// at each iteration.
func (r *Result) traces(sets []panelSet) ([]*plot.Plot, *legendSet) {
	p := r.Plan
	idc := r.Runs.Col("run_id")
	if idc < 0 {
		return nil, nil
	}
	leg := newLegendSet()
	var pls []*plot.Plot
	for _, ds := range sets {
		cfg := map[string]int{}
		for i, run := range r.Runs.Rows {
			if c := p.config[i]; c >= 0 && (ds.keep == nil || ds.keep(i)) {
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
		pl.Title.Text = ds.name
		pl.X.Label.Text, pl.Y.Label.Text = "iteration", "best objective (median)"
		n := 0
		for c, s := range series {
			if len(s) == 0 {
				continue
			}
			if err := addLine(pl, leg, p.Configs[c], c, medianXY(s)); err != nil {
				continue
			}
			n++
		}
		if n > 0 {
			pls = append(pls, pl)
		}
	}
	return pls, leg
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

func addLine(pl *plot.Plot, leg *legendSet, name string, i int, xy plotter.XYs) error {
	if len(xy) == 0 {
		return nil
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	l.Color = SeriesColor(i)
	l.Dashes = SeriesDashes(i)
	if len(xy) > 30 { // long traces: the line alone; glyphs would merge into a band
		pl.Add(l)
		leg.add(name, l)
		return nil
	}
	pts.Color = SeriesColor(i)
	pts.Shape = SeriesShape(i)
	pl.Add(l, pts)
	leg.add(name, l, pts)
	return nil
}

// winBars draws the win counts of each configuration, one group of bars per WinsBy level.
func winBars(m string, cells []Cell, winsBy []string, leg *legendSet) (*plot.Plot, error) {
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
		b.Color = SeriesColor(i)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(i)-float64(len(cells)-1)/2) * w
		pl.Add(b)
		if len(winsBy) > 0 {
			var lab []string
			for k, c := range winsBy {
				lab = append(lab, short(c)+"="+cl.By[k])
			}
			leg.add(strings.Join(lab, " "), b)
		}
	}
	pl.NominalX(configs...)
	rotate(pl, len(configs))
	return pl, nil
}

// curve plots, on the runs of one panel, the median of metric m against the numeric parameter
// q, one line per configuration without q.
func (r *Result) curve(m, q string, ds panelSet, leg *legendSet) (*plot.Plot, error) {
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
	// Series are numbered over all runs, so that a series has one colour in every panel.
	idx := map[string]int{}
	var names []string
	series := map[int]map[float64][]float64{}
	for i, run := range r.Runs.Rows {
		if p.config[i] < 0 || run.Cells[qc] == "" {
			continue
		}
		k := key(r.Runs, i, rest)
		g, ok := idx[k]
		if !ok {
			g = len(names)
			idx[k] = g
			names = append(names, label(r.Runs, i, restLabel, true))
		}
		if ds.keep != nil && !ds.keep(i) {
			continue
		}
		x, err := parseFloat(run.Cells[qc])
		if err != nil {
			continue
		}
		if series[g] == nil {
			series[g] = map[float64][]float64{}
		}
		series[g][x] = append(series[g][x], run.Values[j])
	}
	pl := plot.New()
	pl.Title.Text = ds.name
	pl.X.Label.Text, pl.Y.Label.Text = short(q), m+" (median)"
	n := 0
	for g := range names {
		xy := medianXY(series[g])
		if len(xy) < 2 {
			continue
		}
		if err := addLine(pl, leg, names[g], g, xy); err != nil {
			return nil, err
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	return pl, nil
}
