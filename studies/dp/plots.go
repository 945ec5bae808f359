package dp

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// series is one curve of a plot; Seed curves are drawn as points only.
type series struct {
	Name   string
	X, Y   []float64
	Points bool
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}, color.RGBA{A: 0xff},
}

// curvePlot returns a metric-vs-parameter plot of the series; logX puts x on a log scale.
func curvePlot(title, xlab, ylab string, logX bool, ss []series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlab
	p.Y.Label.Text = ylab
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = true
	for i, s := range ss {
		xys := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if !math.IsNaN(s.Y[j]) && !math.IsInf(s.Y[j], 0) {
				xys = append(xys, plotter.XY{X: s.X[j], Y: s.Y[j]})
			}
		}
		if len(xys) == 0 {
			continue
		}
		c := palette[i%len(palette)]
		if s.Points {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.Color = c
			sc.Shape = draw.CrossGlyph{}
			sc.Radius = vg.Points(4)
			p.Add(sc)
			p.Legend.Add(s.Name, sc)
			continue
		}
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color = c, c
		sc.Shape = draw.CircleGlyph{}
		p.Add(l, sc)
		p.Legend.Add(s.Name, l, sc)
	}
	return p, nil
}

// boxPlot returns boxplots of the groups, labelled by names.
func boxPlot(title, ylab string, names []string, groups [][]float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylab
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(20), float64(i), plotter.Values(g))
		if err != nil {
			return nil, err
		}
		p.Add(b)
	}
	p.NominalX(names...)
	return p, nil
}

// save writes the plot as base.png and base.svg in the report's folder and links it.
func (r *report) save(p *plot.Plot, base, caption string) error {
	for _, ext := range []string{".png", ".svg"} {
		if err := p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(r.dir, base+ext)); err != nil {
			return fmt.Errorf("saving %s%s: %w", base, ext, err)
		}
	}
	r.printf("![%s](%s.png) ([SVG](%s.svg))\n\n", caption, base, base)
	return nil
}
