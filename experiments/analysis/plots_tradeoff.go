package analysis

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ruMaps draws one risk–utility map per block of the Pareto table (at most maxPanels): each
// configuration's aggregated (loss, risk) as a point, and the front as a dashed staircase.
func (r *Result) ruMaps() ([]*plot.Plot, *legendSet) {
	p := r.Plan
	leg := newLegendSet()
	var pls []*plot.Plot
	rows := r.Pareto
	for lo := 0; lo < len(rows) && len(pls) < maxPanels; {
		hi := lo
		for hi < len(rows) && slices.Equal(rows[hi].By, rows[lo].By) {
			hi++
		}
		pl := plot.New()
		var lab []string
		for k, c := range p.TradeoffBy() {
			if c == "dataset" {
				lab = append(lab, rows[lo].By[k])
			} else {
				lab = append(lab, short(c)+"="+rows[lo].By[k])
			}
		}
		pl.Title.Text = strings.Join(lab, " ")
		pl.X.Label.Text, pl.Y.Label.Text = p.Tradeoff[0], p.Tradeoff[1]
		var fx, fy []float64
		n := 0
		for _, row := range rows[lo:hi] {
			if row.Rank == 0 {
				continue
			}
			c := slices.Index(p.Configs, row.Config)
			s, err := plotter.NewScatter(plotter.XYs{{X: row.Loss, Y: row.Risk}})
			if err != nil {
				continue
			}
			s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = SeriesColor(c), SeriesShape(c), vg.Points(3.5)
			pl.Add(s)
			leg.add(row.Config, s)
			n++
			if row.Front {
				fx, fy = append(fx, row.Loss), append(fy, row.Risk)
			}
		}
		if len(fx) > 1 {
			lx, ly := frontLine(fx, fy)
			xy := make(plotter.XYs, len(lx))
			for i := range lx {
				xy[i] = plotter.XY{X: lx[i], Y: ly[i]}
			}
			if l, err := plotter.NewLine(xy); err == nil {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				l.Color = color.Gray{Y: 0x60}
				pl.Add(l)
			}
		}
		if n > 0 {
			pls = append(pls, pl)
		}
		lo = hi
	}
	return pls, leg
}

// profilePlot draws the performance profiles of one metric: ρ(τ), the share of instances where
// a configuration is within a factor τ of the best, against τ on a logarithmic axis.
func profilePlot(m string, prof []ProfileRow, configs []string, leg *legendSet) (*plot.Plot, error) {
	tmax := 1.0
	for _, pr := range prof {
		for _, v := range pr.Ratios {
			if isFinite(v) && v > tmax {
				tmax = v
			}
		}
	}
	degenerate := tmax <= 1 // every finite ratio is 1: the best value is 0 wherever anyone is finite
	tmax = math.Min(tmax*1.2, 1e6)
	if tmax <= 1 {
		tmax = 2
	}
	pl := plot.New()
	pl.Title.Text = m + ": performance profile (Dolan–Moré)"
	if degenerate {
		pl.Title.Text += "\nbest value 0: every ratio is 1 or never within a factor"
	}
	pl.X.Label.Text, pl.Y.Label.Text = "τ (ratio to the best, log scale)", "share of instances within τ"
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = 1, tmax, 0, 1.02
	for _, pr := range prof {
		c := slices.Index(configs, pr.Config)
		n := float64(len(pr.Ratios))
		xy := plotter.XYs{{X: 1, Y: rho(pr.Ratios, 1) / n}}
		for k, v := range pr.Ratios {
			if !isFinite(v) || v <= 1 {
				continue
			}
			xy = append(xy, plotter.XY{X: v, Y: xy[len(xy)-1].Y}, plotter.XY{X: v, Y: float64(k+1) / n})
		}
		xy = append(xy, plotter.XY{X: tmax, Y: xy[len(xy)-1].Y})
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes, l.Width = SeriesColor(c), SeriesDashes(c), vg.Points(1.5)
		pl.Add(l)
		leg.add(pr.Config, l)
	}
	return pl, nil
}
