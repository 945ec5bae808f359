package fcrm

import (
	"io"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/sdcbench/sdcbench/datasets"
)

// grid is a (c, n) surface for plotter.HeatMap: column = n, row = c, 1-based values.
type grid struct {
	z      [][]float64 // [c-1][n-1]
	lo, hi float64
}

func (g grid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 { return g.z[r][c] }
func (g grid) X(c int) float64    { return float64(c + 1) }
func (g grid) Y(r int) float64    { return float64(r + 1) }
func (g grid) Min() float64       { return g.lo }
func (g grid) Max() float64       { return g.hi }

// heatMap draws the surface z[c-1][n-1] with a colour bar (Kindlmann's perceptually uniform
// luminance map) into dir/plots/file and returns the relative path.
func heatMap(dir, file, title, unit string, z [][]float64) (string, error) {
	g := grid{z: z, lo: math.Inf(1), hi: math.Inf(-1)}
	for _, row := range z {
		for _, v := range row {
			if !math.IsNaN(v) {
				g.lo, g.hi = math.Min(g.lo, v), math.Max(g.hi, v)
			}
		}
	}
	cm := moreland.Kindlmann()
	cm.SetMin(g.lo)
	cm.SetMax(g.hi)
	hm := plotter.NewHeatMap(g, cm.Palette(255))
	hm.NaN = plotter.DefaultLineStyle.Color
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "n (independent attributes)", "c (clusters)"
	p.X.Tick.Marker, p.Y.Tick.Marker = intTicks{}, intTicks{}
	p.Add(hm)
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm})
	bar.HideY()
	bar.X.Label.Text = unit
	img := vgimg.New(16*vg.Centimeter, 13*vg.Centimeter)
	dc := draw.New(img)
	t := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(10)}
	top := t.At(dc, 0, 0)
	canv := []draw.Canvas{top, t.At(dc, 0, 1)}
	// The colour bar takes a thin strip: shrink the second tile, enlarge the first.
	h := canv[0].Max.Y - canv[1].Min.Y
	canv[1].Max.Y = canv[1].Min.Y + h*0.18
	canv[0].Min.Y = canv[1].Max.Y + vg.Points(6)
	p.Draw(canv[0])
	bar.Draw(canv[1])
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		return "", err
	}
	rel := filepath.Join("plots", file)
	err := datasets.AtomicWrite(filepath.Join(dir, rel), func(w io.Writer) error {
		_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
		return err
	})
	return rel, err
}
