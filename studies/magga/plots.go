package magga

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette gives MAGGA and the four baselines fixed colours across the report's plots.
var palette = map[string]color.Color{
	"magga":      color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	"mdav":       color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	"rmdm":       color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	"clustpppca": color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	"pppca":      color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
}

// savePlot writes p as dir/plots/base.png and .svg and links the PNG from the report.
func savePlot(w io.Writer, dir string, p *plot.Plot, base, caption string) error {
	pd := filepath.Join(dir, "plots")
	if err := os.MkdirAll(pd, 0o755); err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := p.Save(7*vg.Inch, 5*vg.Inch, filepath.Join(pd, base+ext)); err != nil {
			return fmt.Errorf("plot %s%s: %w", base, ext, err)
		}
	}
	fmt.Fprintf(w, "![%s](plots/%s.png) ([SVG](plots/%s.svg))\n\n", caption, base, base)
	return nil
}

// fig516Plot is the Fig 5.16 analog: the standardized (il1p, dldp) points per method with the
// quadrant lines at 0.
func fig516Plot(pts map[string]plotter.XYs, order []string) (*plot.Plot, error) {
	return scatterPlot("Fig 5.16 analog: standardized sse_sst vs dld, MAGGA under fobj3",
		"il1p (standardized sse_sst)", "dldp (standardized dld)", pts, order, true)
}

// scatterPlot draws one glyph series per name in order (colours from palette, else a fixed
// cycle), with dashed lines through 0 when zeroLines is set.
func scatterPlot(title, xlab, ylab string, pts map[string]plotter.XYs, order []string, zeroLines bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xlab, ylab
	p.Legend.Top = true
	cycle := []color.Color{palette["magga"], palette["mdav"], palette["clustpppca"], palette["rmdm"], palette["pppca"]}
	for i, m := range order {
		if len(pts[m]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts[m])
		if err != nil {
			return nil, err
		}
		c, ok := palette[m]
		if !ok {
			c = cycle[i%len(cycle)]
		}
		s.GlyphStyle.Color = c
		s.GlyphStyle.Radius = vg.Points(2.5)
		s.GlyphStyle.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}}[i%5]
		p.Add(s)
		p.Legend.Add(m, s)
	}
	// a margin so that glyphs at the extremes are not cut by the axes
	dx, dy := 0.04*(p.X.Max-p.X.Min), 0.04*(p.Y.Max-p.Y.Min)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = p.X.Min-dx, p.X.Max+dx, p.Y.Min-dy, p.Y.Max+5*dy // the legend sits at the top
	if !zeroLines {
		return p, nil
	}
	zero := func(xy plotter.XYs) error {
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.LineStyle.Color = color.Gray{Y: 0x80}
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		return nil
	}
	xmin, xmax, ymin, ymax := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	if err := zero(plotter.XYs{{X: xmin, Y: 0}, {X: xmax, Y: 0}}); err != nil {
		return nil, err
	}
	if err := zero(plotter.XYs{{X: 0, Y: ymin}, {X: 0, Y: ymax}}); err != nil {
		return nil, err
	}
	return p, nil
}

// linesPlot draws each named series as a line over x.
func linesPlot(title, xlab, ylab string, x []float64, names []string, ys [][]float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xlab, ylab
	p.Legend.Top = true
	cols := []color.Color{palette["magga"], palette["mdav"], palette["clustpppca"], palette["rmdm"]}
	for i, name := range names {
		xy := make(plotter.XYs, len(x))
		for j := range x {
			xy[j] = plotter.XY{X: x[j], Y: ys[i][j]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color = cols[i%len(cols)]
		l.LineStyle.Width = vg.Points(1.5)
		if i%2 == 1 {
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(name, l)
	}
	p.Y.Max += 0.3 * (p.Y.Max - p.Y.Min) // room for the legend above the curves
	return p, nil
}
