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
	// one loss axis and one risk axis for every panel, the original's point in range
	var losses, risks, oLoss, oRisk []float64
	for lo := 0; lo < len(rows); lo++ {
		if rows[lo].Rank > 0 {
			losses, risks = append(losses, rows[lo].Loss), append(risks, rows[lo].Risk)
		}
		if lo == 0 || !slices.Equal(rows[lo].By, rows[lo-1].By) {
			if l, k, ok := r.originalLossRisk(rows[lo].By); ok {
				oLoss, oRisk = append(oLoss, l), append(oRisk, k)
			}
		}
	}
	xa := newMetricAxis(p.Tradeoff[0], p.dirs[p.Tradeoff[0]], [][]float64{losses}, oLoss...)
	ya := newMetricAxis(p.Tradeoff[1], p.dirs[p.Tradeoff[1]], [][]float64{risks}, oRisk...)
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
		// the original first, so that a configuration at the same point is drawn over it
		r.addOriginalPoint(pl, leg, rows[lo].By, xa, ya)
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
			xa.apply(&pl.X, false)
			ya.apply(&pl.Y, true)
			pls = append(pls, pl)
		}
		lo = hi
	}
	return pls, leg
}

// addOriginalPoint marks the original of block by on a risk–utility map: a black star at its
// (loss, risk), or, when the loss axis cannot show its loss (0 on a log scale), a dotted line
// at its risk.
func (r *Result) addOriginalPoint(pl *plot.Plot, leg *legendSet, by []string, xa, ya metricAxis) {
	loss, risk, ok := r.originalLossRisk(by)
	if !ok || !ya.shows(risk) {
		return
	}
	if xa.shows(loss) {
		s, err := plotter.NewScatter(plotter.XYs{{X: loss, Y: risk}})
		if err != nil {
			return
		}
		s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = originalColor, starGlyph{}, vg.Points(4.5)
		pl.Add(s)
		leg.add(originalLegend, s)
		return
	}
	if l, err := originalLine(risk, xa.Min, xa.Max, false); err == nil {
		pl.Add(l)
		leg.add(originalLegend+", risk", l)
	}
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
	pl.X.Tick.Marker = logTicks{}
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
