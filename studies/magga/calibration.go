package magga

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/studies"
)

// calibration writes Table 5.5, the per-generator/objective/instance breakdowns, Fig 5.1 (its
// plot in dir/plots) and runtimes.
func calibration(w io.Writer, t *studies.Tally, runs []row, dir string) error {
	combo := func(r row) string { return r["param_pe"] + "," + r["param_pm"] + "," + r["param_rho_e"] }
	resp := map[string][]float64{}
	for _, r := range runs {
		resp[combo(r)] = append(resp[combo(r)], r.f(r["param_weights"]))
	}
	keys := sortedByMedian(resp)
	fmt.Fprintf(w, "## Calibration (MAGGA study §5.2)\n\n%d finished runs (of 103 680 in the full grid). Response: the best objective of the final generation (the fobj column named by the run's weights), pooled over instance, pop, k, objective, generator and run as the seed does.\n\n", len(runs))
	if len(keys) == 0 {
		return nil
	}
	best := keys[0]
	fmt.Fprintf(w, "### Table 5.5 analog: (pe, pm, rho_e) ranked by median; Wilcoxon rank-sum (normal approximation, continuity correction) against the winner\n\n| rank | pe, pm, rho_e | n | median | p vs winner | not different (α = 0.05) |\n|---|---|---|---|---|---|\n")
	for i, k := range keys {
		p := math.NaN()
		if k != best {
			p = stats.RankSum(resp[best], resp[k], &stats.WilcoxonOptions{Exact: stats.ExactNever}).P
		}
		nd := ""
		if k == best {
			nd = "winner"
		} else if p > 0.05 {
			nd = "yes"
		}
		fmt.Fprintf(w, "| %d | %s | %d | %.4f | %.3g | %s |\n", i+1, k, len(resp[k]), median(resp[k]), p, nd)
	}
	notRej, pairs := 0, 0
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			pairs++
			if stats.RankSum(resp[keys[i]], resp[keys[j]], &stats.WilcoxonOptions{Exact: stats.ExactNever}).P > 0.05 {
				notRej++
			}
		}
	}
	rank := slices.Index(keys, "0.1,0.2,0.9") + 1
	top5 := true
	for _, k := range keys[:min(5, len(keys))] {
		if !strings.HasSuffix(k, ",0.9") && !strings.HasSuffix(k, ",0.8") {
			top5 = false
		}
	}
	fmt.Fprintf(w, "\nPairs not rejected: %d of %d (seed: 62 of 351, 17.7 %%). Seed winner (0.1, 0.2, 0.9) ranks %d here (seed criterion: among the 5 lowest medians → %s). Every top-5 combination has rho_e ≥ 0.8: %v (seed criterion → %s).\n\n",
		notRej, pairs, rank, verdict(t, "Table 5.5", "seed winner (0.1, 0.2, 0.9) among the 5 lowest medians", rank >= 1 && rank <= 5), top5, verdict(t, "Table 5.5", "every top-5 combination has rho_e ≥ 0.8", top5))
	// per generator and per objective winners
	for _, by := range []string{"param_mutant", "param_weights"} {
		groups := map[string]map[string][]float64{}
		for _, r := range runs {
			g := r[by]
			if groups[g] == nil {
				groups[g] = map[string][]float64{}
			}
			groups[g][combo(r)] = append(groups[g][combo(r)], r.f(r["param_weights"]))
		}
		fmt.Fprintf(w, "Winner per %s: ", strings.TrimPrefix(by, "param_"))
		for _, g := range sortedKeys(groups) {
			ks := sortedByMedian(groups[g])
			fmt.Fprintf(w, "%s → (%s), rank of (0.1,0.2,0.9) %d; ", g, ks[0], slices.Index(ks, "0.1,0.2,0.9")+1)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w)
	}
	// tsp lowest median per objective and instance
	med := map[[3]string][]float64{}
	for _, r := range runs {
		k := [3]string{r["dataset"], r["param_weights"], r["param_mutant"]}
		med[k] = append(med[k], r.f(r["param_weights"]))
	}
	fmt.Fprintf(w, "### Median final objective by instance × objective × generator (Fig 5.10)\n\n| instance | objective | tsp | d1 | d2 | tsp lowest |\n|---|---|---|---|---|---|\n")
	cells, tspWins := 0, 0
	for _, ds := range uniq(runs, "dataset") {
		for _, ob := range uniq(runs, "param_weights") {
			// generators without runs (a partial grid) are left out of the comparison; a
			// cell needs tsp and at least one other generator to count
			m := map[string]float64{}
			present := 0
			for _, g := range []string{"tsp", "d1", "d2"} {
				m[g] = median(med[[3]string{ds, ob, g}])
				if !math.IsNaN(m[g]) {
					present++
				}
			}
			if math.IsNaN(m["tsp"]) || present < 2 {
				fmt.Fprintf(w, "| %s | %s | %.4f | %.4f | %.4f | – |\n", ds, ob, m["tsp"], m["d1"], m["d2"])
				continue
			}
			low := !(m["d1"] < m["tsp"]) && !(m["d2"] < m["tsp"])
			cells++
			if low {
				tspWins++
			}
			fmt.Fprintf(w, "| %s | %s | %.4f | %.4f | %.4f | %v |\n", ds, ob, m["tsp"], m["d1"], m["d2"], low)
		}
	}
	fmt.Fprintf(w, "\ntsp has the lowest median in %d of %d cells (seed: all) → %s.\n\n", tspWins, cells, verdict(t, "Fig 5.10", "tsp has the lowest median in every cell", tspWins == cells))
	if err := scatterPerInstance(w, runs, dir); err != nil {
		return err
	}
	if _, err := fig51(w, t, dir); err != nil {
		return err
	}
	runtimes(w, runs, 100)
	return nil
}

// maxPoints bounds the points of one scatter series (every m-th run beyond it), so that the
// SVGs stay small.
const maxPoints = 2000

// scatterPerInstance writes the analog of Figs B.1-B.4: sse_sst against dld of every final
// solution, one plot per instance, one colour per generator.
func scatterPerInstance(w io.Writer, runs []row, dir string) error {
	fmt.Fprintf(w, "### sse_sst × dld per instance (Figs B.1–B.4 analog)\n\nEvery run's final best solution; one colour per generator (init = mutant); at most %d points per generator (every m-th run beyond that).\n\n", maxPoints)
	gens := []string{"tsp", "d1", "d2"}
	for _, ds := range uniq(runs, "dataset") {
		pts := map[string]plotter.XYs{}
		for _, r := range runs {
			if r["dataset"] == ds {
				x, y := r.f("sse_sst"), r.f("dld")
				if !math.IsNaN(x) && !math.IsNaN(y) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
					pts[r["param_mutant"]] = append(pts[r["param_mutant"]], plotter.XY{X: x, Y: y})
				}
			}
		}
		for g, xy := range pts {
			if len(xy) > maxPoints {
				m := (len(xy) + maxPoints - 1) / maxPoints
				kept := xy[:0]
				for i := 0; i < len(xy); i += m {
					kept = append(kept, xy[i])
				}
				pts[g] = kept
			}
		}
		if len(pts) == 0 {
			continue
		}
		pl, err := scatterPlot("sse_sst × dld, "+ds+" (all k, objectives, pop, pe, pm, rho_e)", "sse_sst (%)", "dld (%)", pts, gens, false)
		if err != nil {
			return err
		}
		if err := savePlot(w, dir, pl, "scatter_"+ds, ds); err != nil {
			return err
		}
	}
	return nil
}
