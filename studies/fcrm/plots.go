package fcrm

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// okabeIto is the colour-blind-safe Okabe–Ito palette (black first).
var okabeIto = []color.Color{
	color.RGBA{0, 0, 0, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 158, 115, 255}, color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{240, 228, 66, 255},
}

// series is one line of a plot.
type series struct {
	name   string
	xy     plotter.XYs
	err    []float64 // optional ±SD per point
	dashed bool
	col    int
	shape  int
}

// linePlot draws series into dir/plots/file and returns the relative path.
func linePlot(dir, file, title, xl, yl string, ss []series, legendTop, legendLeft bool) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xl, yl
	p.Legend.Top, p.Legend.Left = legendTop, legendLeft
	p.Add(plotter.NewGrid())
	if xl != "PIL (%)" {
		p.X.Tick.Marker = intTicks{}
	}
	for _, s := range ss {
		if len(s.xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return "", err
		}
		c := okabeIto[s.col%len(okabeIto)]
		l.Color, pts.Color = c, c
		l.Width = vg.Points(1.5)
		pts.Shape = shapes[s.shape%len(shapes)]
		pts.Radius = vg.Points(2.5)
		if len(s.xy) == 1 {
			pts.Radius = vg.Points(5) // single configurations (IPSO) stand out from the curves
		}
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
		if s.err != nil {
			ye := make(plotter.YErrors, len(s.err))
			for i, e := range s.err {
				ye[i].Low, ye[i].High = e, e
			}
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{s.xy, ye})
			if err == nil {
				eb.Color = c
				p.Add(eb)
			}
		}
	}
	// Headroom above the data for the legend, so that it never covers a point.
	ymax, ymin, entries := math.Inf(-1), math.Inf(1), 0
	for _, s := range ss {
		if len(s.xy) > 0 {
			entries++
		}
		for i, v := range s.xy {
			e := 0.0
			if s.err != nil {
				e = s.err[i]
			}
			ymax, ymin = math.Max(ymax, v.Y+e), math.Min(ymin, v.Y-e)
		}
	}
	if entries > 0 {
		lo := math.Min(0, ymin)
		p.Y.Min = lo
		p.Y.Max = lo + (ymax-lo)*(1.15+0.075*float64(entries))
	}
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		return "", err
	}
	rel := filepath.Join("plots", file)
	return rel, p.Save(16*vg.Centimeter, 11*vg.Centimeter, filepath.Join(dir, rel))
}

var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// sweepPlots draws PIL and DR against c (ours and the study's) and the PIL–DR plane with the
// IPSO points.
func (r *report) sweepPlots(agg map[string]Agg, seed []SeedRow) error {
	var pil, dr, spil, sdr plotter.XYs
	var epil, edr []float64
	for _, c := range cs(r.runs) {
		a := agg[fmt.Sprintf("fcrm c=%d", c)]
		pil = append(pil, plotter.XY{X: float64(c), Y: a.PILKDE})
		dr = append(dr, plotter.XY{X: float64(c), Y: a.DR})
		epil, edr = append(epil, nz(a.SDPILKDE)), append(edr, nz(a.SDDR))
	}
	for _, s := range seed {
		if s.C > 0 {
			spil = append(spil, plotter.XY{X: float64(s.C), Y: s.PIL})
			sdr = append(sdr, plotter.XY{X: float64(s.C), Y: s.DR})
		}
	}
	p1, err := linePlot(r.dir, "fcrm_pil_dr_vs_c.png", r.name+": PIL and DR against c", "c (clusters)", "%", []series{
		{name: "PIL (ours)", xy: pil, err: epil, col: 4, shape: 0},
		{name: "PIL (study)", xy: spil, dashed: true, col: 4, shape: 2},
		{name: "DR (ours)", xy: dr, err: edr, col: 5, shape: 1},
		{name: "DR (study)", xy: sdr, dashed: true, col: 5, shape: 3},
	}, true, false)
	if err != nil {
		return err
	}
	// PIL–DR plane: the FCRM curve and the IPSO points.
	ss := []series{{name: "FCRM, c = 1, 2, …", xy: xyPairs(r, agg), col: 4, shape: 0}}
	var sc plotter.XYs
	for _, s := range seed {
		if s.C > 0 {
			sc = append(sc, plotter.XY{X: s.PIL, Y: s.DR})
		}
	}
	ss = append(ss, series{name: "FCRM (study)", xy: sc, dashed: true, col: 0, shape: 5})
	// One colour per IPSO variant: filled glyphs ours, rings the study's.
	colour := map[string]int{"ipso_a": 1, "IPSO-A": 1, "ipso_b seed": 2, "IPSO-B": 2, "ipso_b burridge": 3, "ipso_c": 6, "IPSO-C": 6}
	for _, k := range []string{"ipso_a", "ipso_b seed", "ipso_b burridge", "ipso_c"} {
		if a, ok := agg[k]; ok {
			ss = append(ss, series{name: k, xy: plotter.XYs{{X: a.PILKDE, Y: a.DR}}, col: colour[k], shape: 1})
		}
	}
	for _, s := range seed {
		if s.C == 0 {
			ss = append(ss, series{name: s.Label + " (study)", xy: plotter.XYs{{X: s.PIL, Y: s.DR}}, col: colour[s.Label], shape: 5})
		}
	}
	p2, err := linePlot(r.dir, "fcrm_pil_vs_dr.png", r.name+": information loss against disclosure risk", "PIL (%)", "DR (%)", ss, true, false)
	if err != nil {
		return err
	}
	r.printf("![PIL and DR against c](%s)\n\n![PIL against DR](%s)\n\n", p1, p2)
	return nil
}

func nz(v float64) float64 {
	if v != v {
		return 0
	}
	return v
}

// xyPairs returns the (PIL, DR) points of the FCRM configurations in c order.
func xyPairs(r *report, agg map[string]Agg) plotter.XYs {
	var out plotter.XYs
	for _, c := range cs(r.runs) {
		a := agg[fmt.Sprintf("fcrm c=%d", c)]
		out = append(out, plotter.XY{X: a.PILKDE, Y: a.DR})
	}
	return out
}

// intTicks labels whole numbers only (c and n are counts).
type intTicks struct{}

// Ticks implements plot.Ticker.
func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	step := math.Max(1, math.Ceil((hi-lo)/10))
	var out []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		t := plot.Tick{Value: v}
		if math.Mod(v-math.Ceil(lo), step) == 0 {
			t.Label = fmt.Sprintf("%.0f", v)
		}
		out = append(out, t)
	}
	return out
}
