package analysis

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// okabeIto is the colour-blind-safe palette of Okabe & Ito (2008), "Color Universal Design",
// in an order that keeps neighbouring series far apart; black comes last.
var okabeIto = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// SeriesColor returns the colour of series i: the Okabe–Ito palette, cycling after eight. Use it
// with SeriesShape so that series i and i+8 still differ (by shape).
func SeriesColor(i int) color.Color { return okabeIto[mod(i, len(okabeIto))] }

// SeriesShape returns the glyph of series i. Shapes change every series and again every
// palette cycle, so that (colour, shape) pairs repeat only after 8·7 series.
func SeriesShape(i int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
		draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	return shapes[mod(i+i/len(okabeIto), len(shapes))]
}

// SeriesDashes returns the dash pattern of line i: solid for the first palette cycle, then
// dashed, then dotted.
func SeriesDashes(i int) []vg.Length {
	switch mod(i/len(okabeIto), 3) {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(2), vg.Points(2)}
	}
	return nil
}

func mod(i, n int) int { return ((i % n) + n) % n }

// legendSet is a figure's legend drawn outside the data: entries are added once per name.
type legendSet struct {
	l     plot.Legend
	names []string
}

func newLegendSet() *legendSet {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	return &legendSet{l: l}
}

func (s *legendSet) add(name string, th ...plot.Thumbnailer) {
	for _, n := range s.names {
		if n == name {
			return
		}
	}
	s.names = append(s.names, name)
	s.l.Add(name, th...)
}

// width is the room the legend needs on the right of the figure.
func (s *legendSet) width() vg.Length {
	if s == nil || len(s.names) == 0 {
		return 0
	}
	var w vg.Length
	for _, n := range s.names {
		w = max(w, s.l.TextStyle.Width(n))
	}
	return w + s.l.ThumbnailWidth + vg.Points(24)
}

// height is the room the legend's entries take.
func (s *legendSet) height() vg.Length {
	if s == nil {
		return 0
	}
	return vg.Length(len(s.names)) * (s.l.TextStyle.Height("M") + vg.Points(2))
}

// draw lays out the figure on c: its panels in a grid on the left, the legend on the right.
func (f *Figure) draw(c draw.Canvas) {
	lw := f.Legend.width()
	area := c
	area.Max.X -= lw
	panels := f.Panels
	if f.Plot != nil {
		panels = []*plot.Plot{f.Plot}
	}
	cols := max(1, f.Cols)
	if len(panels) == 1 {
		cols = 1
	}
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for k := range cols {
			if i := r*cols + k; i < len(panels) {
				grid[r][k] = panels[i]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(12),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][k])
			}
		}
	}
	if lw > 0 {
		lc := c
		lc.Min.X = c.Max.X - lw + vg.Points(8)
		lc.Max.Y -= vg.Points(8)
		f.Legend.l.Draw(lc)
	}
}

// size returns the figure's size, grown to fit its panels and its legend.
func (f *Figure) size() (vg.Length, vg.Length) {
	w, h := f.Width, f.Height
	w += f.Legend.width()
	h = max(h, f.Legend.height()+vg.Points(24))
	return w, h
}

// svgLimit is the largest SVG written beside a PNG: bigger figures (dense scatters) get the
// PNG only, to keep results folders small.
const svgLimit = 300 << 10

// save writes dir/NAME.png and, unless it would exceed svgLimit, dir/NAME.svg.
func (f *Figure) save(dir string) error {
	w, h := f.size()
	png := vgimg.New(w, h)
	f.draw(draw.New(png))
	if err := writeTo(filepath.Join(dir, f.Name+".png"), vgimg.PngCanvas{Canvas: png}); err != nil {
		return err
	}
	if f.noSVG {
		return nil
	}
	svg := vgsvg.New(w, h)
	f.draw(draw.New(svg))
	var buf bytes.Buffer
	if _, err := svg.WriteTo(&buf); err != nil {
		return fmt.Errorf("analysis: %s.svg: %w", f.Name, err)
	}
	path := filepath.Join(dir, f.Name+".svg")
	if buf.Len() > svgLimit {
		f.SVG = false
		return nil
	}
	if err := writeTo(path, &buf); err != nil {
		return err
	}
	f.SVG = true
	return nil
}

// writeTo writes w's output to path atomically (datasets.AtomicWrite): a full disk or a
// killed analysis never leaves a truncated plot.
func writeTo(path string, w io.WriterTo) error {
	err := datasets.AtomicWrite(path, func(file io.Writer) error { _, err := w.WriteTo(file); return err })
	if err != nil {
		return fmt.Errorf("analysis: %s: %w", path, err)
	}
	return nil
}

// panelSize is the size of one panel of a multi-panel figure, and the number of columns.
func panelLayout(n int) (cols int, w, h vg.Length) {
	cols = int(math.Min(3, math.Ceil(math.Sqrt(float64(n)))))
	rows := (n + cols - 1) / cols
	return cols, vg.Length(cols) * 3.6 * vg.Inch, vg.Length(rows) * 3 * vg.Inch
}

// logSpan is the ratio of the largest to the smallest positive value above which a metric's
// axis is logarithmic: on a linear axis values spanning 300× squeeze the small ones into a line.
const logSpan = 100

// metricAxis is the axis of one metric, shared by every panel of a figure (docs/analysis.md
// "Plots"): its label from the metrics registry (name, unit, direction), one range for all
// panels, so that panels compare at a glance, and a logarithmic scale when every value is
// positive and they span more than logSpan.
type metricAxis struct {
	Label    string
	Min, Max float64
	Log      bool
	ok       bool // some finite value
}

// newMetricAxis returns the axis of column col (direction dir) for the given values; extra
// holds reference values (the original's) that the range includes but that do not decide the
// scale (a loss of 0 would forbid a log scale; on one it is left out).
func newMetricAxis(col string, dir direction, values [][]float64, extra ...float64) metricAxis {
	a := metricAxis{Label: axisLabel(col, dir)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, vs := range values {
		for _, v := range vs {
			if isFinite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return a
	}
	a.ok = true
	a.Log = lo > 0 && hi/lo > logSpan
	for _, v := range extra {
		if isFinite(v) && (!a.Log || v > 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if a.Log {
		a.Min, a.Max = lo/1.25, hi*1.25
		a.Label += ", log scale"
		return a
	}
	pad := 0.05 * (hi - lo)
	if pad == 0 {
		pad = 0.05 * math.Max(math.Abs(hi), 1)
	}
	a.Min, a.Max = lo-pad, hi+pad
	return a
}

// shows reports whether v can be drawn on the axis.
func (a metricAxis) shows(v float64) bool { return isFinite(v) && (!a.Log || v > 0) }

// apply sets ax's label, range and scale; call it after the plotters are added (Add widens
// the range). A vertical axis, or a long label, gets its label on two lines (name and unit,
// then direction and scale), so that it fits beside or below a panel.
func (a metricAxis) apply(ax *plot.Axis, vertical bool) {
	ax.Label.Text = a.Label
	if vertical || len(a.Label) > 36 {
		ax.Label.Text = strings.Replace(a.Label, ", ", "\n", 1)
	}
	if !a.ok {
		return
	}
	ax.Min, ax.Max = a.Min, a.Max
	if a.Log {
		ax.Scale = plot.LogScale{}
		ax.Tick.Marker = logTicks{}
	}
}

// axisLabel labels the axis of a value column: the registry's AxisLabel for a metric
// ("SSE/SST (%), lower is better"), its metric's label and unit with the component's name for a
// component column (dbrl_sets_s3), the run time for seconds, else the column with dir.
func axisLabel(col string, dir direction) string {
	if m, err := metrics.Lookup(col); err == nil {
		return m.Info().AxisLabel()
	}
	if col == "seconds" {
		return "run time (s), lower is better"
	}
	info := metrics.Info{ID: col, Better: dir.better, Target: dir.target}
	for i := len(col) - 1; i > 0; i-- {
		if col[i] != '_' {
			continue
		}
		if m, err := metrics.Lookup(col[:i]); err == nil {
			parent := m.Info()
			info.Label, info.Unit = parent.Label+" "+col[i+1:], parent.Unit
			break
		}
	}
	return info.AxisLabel()
}

// The unprotected original on plots: black, a star on maps, a dotted line on value axes.
var (
	originalColor  = color.Black
	originalDashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
)

// originalLegend is the original's legend entry.
const originalLegend = OriginalName + " (unprotected)"

// originalLine returns a dotted line across the plot at value v of the metric axis: vertical
// (x = v) when vertical, else horizontal (y = v). lo and hi bound the other axis.
func originalLine(v, lo, hi float64, vertical bool) (*plotter.Line, error) {
	xy := plotter.XYs{{X: lo, Y: v}, {X: hi, Y: v}}
	if vertical {
		xy = plotter.XYs{{X: v, Y: lo}, {X: v, Y: hi}}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.Color, l.Dashes, l.Width = originalColor, originalDashes, vg.Points(1.2)
	return l, nil
}

// starGlyph draws a five-pointed star, the original's mark on risk–utility maps.
type starGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var p vg.Path
	r := sty.Radius * 1.4
	for k := 0; k < 10; k++ {
		rad := r
		if k%2 == 1 {
			rad = r * 0.45
		}
		a := math.Pi/2 + float64(k)*math.Pi/5
		q := vg.Point{X: pt.X + rad*vg.Length(math.Cos(a)), Y: pt.Y + rad*vg.Length(math.Sin(a))}
		if k == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
}
