package perturbative

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// sweepParam is the swept parameter of each method of the sweep.
var sweepParam = map[string]string{
	"noise_additive": "noise_pct", "noise_additive0": "noise_pct", "restrict(noise_additive)": "noise_pct",
	"noise_correlated": "noise_pct", "noise_correlated2": "delta", "restrict(noise_correlated2)": "delta",
	"noise_mult": "var", "rankswap": "p_frac", "ma_mdav": "k", "ma_rmd_sdc": "k", "ma_pca_sdc": "k", "ma_onedims_sdc": "k",
	"revmap(ma_mdav)": "k", "revmap(ma_rmd_sdc)": "k", "revmap(ma_pca_sdc)": "k", "revmap(ma_onedims_sdc)": "k",
}

// studyChoice is the study's chosen setting per method (its Codes 38-49).
var studyChoice = map[string]string{
	"noise_additive": "noise_pct=5", "noise_correlated2": "δ = 0.1 (called with noise 0.3)", "noise_mult": "var=0.5",
	"rankswap": "p_frac=0.1", "ma_mdav": "k=1000", "ma_rmd_sdc": "k=1000", "ma_pca_sdc": "k=5", "ma_onedims_sdc": "k=4000",
}

// series returns the cells of a dataset and method that vary only the swept parameter, sorted
// by it. Cells with another parameter set (noise_pct on correlated2, r0 on rankswap, dist on
// noise_mult) are filtered by fixed.
func series(cells []*Cell, dataset, method string, fixed map[string]string) []*Cell {
	par := sweepParam[method]
	var out []*Cell
	for _, c := range cells {
		if c.Dataset != dataset || c.Method != method {
			continue
		}
		ok := true
		for k, v := range fixed {
			if c.Params[k] != v {
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Param(par) < out[b].Param(par) })
	return out
}

func monotone(cs []*Cell, metric string, up bool) bool {
	for k := 1; k < len(cs); k++ {
		a, b := cs[k-1].Mean(metric), cs[k].Mean(metric)
		if up && b < a || !up && b > a {
			return false
		}
	}
	return len(cs) > 1
}

func means(cs []*Cell, metric string) string {
	var s []string
	for _, c := range cs {
		s = append(s, g(c.Mean(metric)))
	}
	return strings.Join(s, ", ")
}

func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	return stat.Correlation(rx, ry, nil)
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for s := 0; s < len(idx); {
		e := s + 1
		for e < len(idx) && v[idx[e]] == v[idx[s]] {
			e++
		}
		for t := s; t < e; t++ {
			r[idx[t]] = float64(s+e+1) / 2
		}
		s = e
	}
	return r
}

func writeSweep(w io.Writer, r *rec, cells []*Cell, dir string) error {
	fmt.Fprintln(w, "## Parameter sweep (the study's Figs. 11-19)")
	fmt.Fprintln(w)
	var ps []Pattern
	for _, ds := range []string{"pt2020_like", "testdata"} {
		a := series(cells, ds, "noise_additive", nil)
		ps = append(ps, Pattern{Name: ds + ": `noise_additive` risk non-increasing and eigen increasing in noise_pct",
			Evidence: fmt.Sprintf("risk %s; eigen %s", means(a, "interval_disclosure"), means(a, "eigen")),
			OK:       monotone(a, "interval_disclosure", false) && monotone(a, "eigen", true)})
		c := series(cells, ds, "noise_correlated2", map[string]string{"delta": "0.1"})
		var fixed []*Cell
		for _, x := range c {
			if x.Params["noise_pct"] != "0" {
				fixed = append(fixed, x)
			}
		}
		agree := len(fixed) == 4
		worst := 0.0
		for _, m := range []string{"interval_disclosure", "eigen"} {
			for i := range fixed {
				for j := i + 1; j < len(fixed); j++ {
					z := math.Abs(fixed[i].Mean(m)-fixed[j].Mean(m)) / math.Hypot(fixed[i].SE(m), fixed[j].SE(m))
					worst = math.Max(worst, z)
				}
			}
		}
		agree = agree && worst <= 4
		ps = append(ps, Pattern{Name: ds + ": `noise_correlated2` δ = 0.1 with noise_pct ∈ {0.1, 0.3, 1, 5}: all four agree within 4 SE (the argument is ignored, as in the study's Fig. 12)",
			Evidence: fmt.Sprintf("risk %s; eigen %s; largest pairwise |z| %.2f", means(fixed, "interval_disclosure"), means(fixed, "eigen"), worst), OK: agree})
		d := series(cells, ds, "noise_correlated2", map[string]string{"noise_pct": "0"})
		ps = append(ps, Pattern{Name: ds + ": `noise_correlated2` across δ: risk non-increasing, eigen increasing",
			Evidence: fmt.Sprintf("risk %s; eigen %s", means(d, "interval_disclosure"), means(d, "eigen")),
			OK:       monotone(d, "interval_disclosure", false) && monotone(d, "eigen", true)})
	}
	for _, m := range []string{"ma_mdav", "ma_rmd_sdc", "ma_pca_sdc", "rankswap"} {
		fixed := map[string]string(nil)
		if m == "rankswap" {
			fixed = map[string]string{"r0": "0"}
		}
		s := series(cells, "pt2020_like", m, fixed)
		name := fmt.Sprintf("pt2020_like: Spearman(%s, risk) ≤ −0.8 for `%s`", sweepParam[m], m)
		if len(s) < 3 {
			ps = append(ps, Pattern{Name: name, Skipped: fmt.Sprintf("%s not run (fewer than 3 grid points)", m)})
			continue
		}
		var x, y []float64
		for _, c := range s {
			x = append(x, c.Param(sweepParam[m]))
			y = append(y, c.Mean("interval_disclosure"))
		}
		rho := spearman(x, y)
		ps = append(ps, Pattern{Name: name, Evidence: fmt.Sprintf("ρ = %.3f; risk %s", rho, means(s, "interval_disclosure")), OK: rho <= -0.8})
	}
	writePatterns(w, r, "Figs. 11-19", ps)
	writeSelection(w, cells)
	writeSweepTable(w, cells)
	return sweepPlots(w, cells, dir)
}

// writeSelection applies the study's rule: among a method's grid points with mean risk ≤ 50 %,
// the lowest mean eigen.
func writeSelection(w io.Writer, cells []*Cell) {
	fmt.Fprintln(w, "### Selection rule (\"utility first\": risk ≤ 50 %, then lowest eigen)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| dataset | method | chosen setting | risk % | eigen % | study's choice |\n|---|---|---|---|---|---|")
	type key struct{ ds, m string }
	best := map[key]*Cell{}
	var order []key
	for _, c := range cells {
		k := key{c.Dataset, c.Method}
		if _, ok := best[k]; !ok {
			order = append(order, k)
			best[k] = nil
		}
		if c.Mean("interval_disclosure") > 50 {
			continue
		}
		if b := best[k]; b == nil || c.Mean("eigen") < b.Mean("eigen") {
			best[k] = c
		}
	}
	for _, k := range order {
		c := best[k]
		choice := studyChoice[k.m]
		if choice == "" {
			choice = "—"
		}
		if c == nil {
			fmt.Fprintf(w, "| %s | `%s` | none with risk ≤ 50 %% | | | %s |\n", k.ds, k.m, choice)
			continue
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s |\n", k.ds, k.m, strings.TrimSpace(strings.TrimPrefix(c.Key(), c.Method)),
			g(c.Mean("interval_disclosure")), g(c.Mean("eigen")), choice)
	}
	fmt.Fprintln(w)
}

func writeSweepTable(w io.Writer, cells []*Cell) {
	fmt.Fprintln(w, "### All grid points (replicate means ± SE)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| dataset | configuration | R | risk % | eigen % | il1s_sum_sdc | mse |\n|---|---|---|---|---|---|---|")
	for _, c := range cells {
		fmt.Fprintf(w, "| %s | %s | %d | %s ± %s | %s ± %s | %s | %s |\n", c.Dataset, c.Key(), len(c.Vals["eigen"]),
			g(c.Mean("interval_disclosure")), g(c.SE("interval_disclosure")), g(c.Mean("eigen")), g(c.SE("eigen")),
			g(c.Mean("il1s_sum_sdc")), g(c.Mean("mse")))
	}
	fmt.Fprintln(w)
}

// sweepPlots draws metric vs risk with one line per swept method (and one point per
// parameter-free method), per dataset.
func sweepPlots(w io.Writer, cells []*Cell, dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		return err
	}
	fmt.Fprintln(w, "### Plots")
	fmt.Fprintln(w)
	for _, ds := range []string{"pt2020_like", "testdata"} {
		for _, metric := range []string{"eigen", "il1s_sum_sdc", "mse"} {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s: %s vs interval_disclosure (replicate means)", ds, metric)
			p.X.Label.Text = "interval_disclosure (%)"
			p.Y.Label.Text = metric + " (log scale)"
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = decadeTicks{}
			var methods []string
			for _, c := range cells {
				if (c.Dataset == ds || ds == "pt2020_like" && c.Dataset == "pt2020_like_s") && !slices.Contains(methods, c.Method) {
					methods = append(methods, c.Method)
				}
			}
			i := 0
			for _, m := range methods {
				var xy plotter.XYs
				for _, c := range cells {
					if c.Method != m || !(c.Dataset == ds || ds == "pt2020_like" && c.Dataset == "pt2020_like_s") {
						continue
					}
					if m == "noise_correlated2" && c.Params["noise_pct"] != "0" || m == "rankswap" && c.Params["r0"] != "0" ||
						m == "noise_mult" && c.Params["dist"] == "normal" {
						continue
					}
					y := c.Mean(metric)
					if !(y > 1e-3) {
						continue // 0 up to rounding (egadp's eigen): not drawable on a log scale
					}
					xy = append(xy, plotter.XY{X: c.Mean("interval_disclosure"), Y: y})
				}
				if len(xy) == 0 {
					continue
				}
				sort.Slice(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
				l, pts, err := plotter.NewLinePoints(xy)
				if err != nil {
					return err
				}
				l.Color, pts.Color = plotutil.Color(i), plotutil.Color(i)
				pts.Shape = plotutil.Shape(i)
				l.Dashes = plotutil.Dashes(i / 7)
				p.Add(l, pts)
				p.Legend.Add(m, l, pts)
				i++
			}
			if i == 0 {
				continue // no positive values to draw on a log scale
			}
			p.Legend.Top = true
			p.Legend.TextStyle.Font.Size = vg.Points(7)
			p.X.Min, p.X.Max = 0, 150 // room on the right for the legend; risk is at most 100
			p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 25, Label: "25"},
				{Value: 50, Label: "50"}, {Value: 75, Label: "75"}, {Value: 100, Label: "100"}})
			name := fmt.Sprintf("%s_vs_risk_%s.png", metric, ds)
			if err := p.Save(9*vg.Inch, 6*vg.Inch, filepath.Join(dir, "plots", name)); err != nil {
				return err
			}
			fmt.Fprintf(w, "![%s](plots/%s)\n\n", name, name)
			if metric == "eigen" && ds == "pt2020_like" {
				fmt.Fprintln(w, "(Points with a mean below 1e-3 — egadp, whose eigen is 0 up to rounding — are not drawn on the log scale.)")
				fmt.Fprintln(w)
			}
		}
	}
	return nil
}

// decadeTicks marks the powers of ten of a log axis with plain labels.
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		v := math.Pow(10, e)
		if v < lo || v > hi {
			continue
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
	}
	return out
}
