package fcrm

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
)

// s3 writes Table 8 beside ours, the (c, n) surfaces and the S3 verdicts. A cell (c, n) is the
// mean over the 13 choices of d and the replicates; SCORE is (mean PIL + mean DR)/2.
func (r *report) s3() error {
	type key struct{ c, n int }
	g := map[key][]Run{}
	maxC, maxN := 0, 0
	for _, x := range r.runs {
		g[key{x.C, x.N}] = append(g[key{x.C, x.N}], x)
		maxC, maxN = max(maxC, x.C), max(maxN, x.N)
	}
	cell := func(c, n int) (Agg, bool) {
		rs, ok := g[key{c, n}]
		if !ok {
			return Agg{}, false
		}
		return aggregate(rs), true
	}
	for _, c := range []int{2, 4} {
		r.printf("## Table 8, c = %d: the study beside ours (mean over the 13 attributes)\n\n", c)
		r.printf("| n | study PIL | study DR | study SCORE | PIL (kde) | PIL (normal) | DR | SCORE | runs |\n|---|---|---|---|---|---|---|---|---|\n")
		for n := 1; n <= 19; n++ {
			a, ok := cell(c, n)
			if !ok {
				continue
			}
			s := Table8[c][n-1]
			r.printf("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d |\n", n, s[0], s[1], s[2],
				a.PILKDE, a.PIL, a.DR, (a.PILKDE+a.DR)/2, a.N)
		}
		r.printf("\n")
	}
	for _, m := range []struct {
		name string
		f    func(Agg) float64
	}{{"PIL (kde)", func(a Agg) float64 { return a.PILKDE }}, {"DR", func(a Agg) float64 { return a.DR }},
		{"SCORE", func(a Agg) float64 { return (a.PILKDE + a.DR) / 2 }}} {
		r.printf("## Surface: %s over c (rows) and n (columns)\n\n| c \\ n |", m.name)
		for n := 1; n <= maxN; n++ {
			r.printf(" %d |", n)
		}
		r.printf("\n|---|")
		for n := 1; n <= maxN; n++ {
			r.printf("---|")
		}
		r.printf("\n")
		for c := 1; c <= maxC; c++ {
			r.printf("| %d |", c)
			for n := 1; n <= maxN; n++ {
				if a, ok := cell(c, n); ok {
					r.printf(" %.1f |", m.f(a))
				} else {
					r.printf(" – |")
				}
			}
			r.printf("\n")
		}
		r.printf("\n")
	}
	for _, m := range []struct {
		file, name string
		f          func(Agg) float64
	}{{"fcrm_s3_pil_surface.png", "PIL (kde, %)", func(a Agg) float64 { return a.PILKDE }},
		{"fcrm_s3_dr_surface.png", "DR (%)", func(a Agg) float64 { return a.DR }},
		{"fcrm_s3_score_surface.png", "SCORE (%)", func(a Agg) float64 { return (a.PILKDE + a.DR) / 2 }}} {
		z := make([][]float64, maxC)
		for c := 1; c <= maxC; c++ {
			z[c-1] = make([]float64, maxN)
			for n := 1; n <= maxN; n++ {
				z[c-1][n-1] = math.NaN()
				if a, ok := cell(c, n); ok {
					z[c-1][n-1] = m.f(a)
				}
			}
		}
		if maxC == 0 || maxN == 0 {
			break
		}
		p, err := heatMap(r.dir, m.file, "S3: "+m.name+" over c and n (mean over the 13 attributes)", m.name, z)
		if err != nil {
			return err
		}
		r.printf("![%s surface](%s)\n\n", m.name, p)
	}
	// Plots: PIL and DR against n, one line per c, with the study's c = 2 and c = 4 dashed.
	for _, m := range []struct {
		file, name string
		f          func(Agg) float64
		study      int
		top, left  bool
	}{{"fcrm_s3_pil_vs_n.png", "PIL (%)", func(a Agg) float64 { return a.PILKDE }, 0, true, false},
		{"fcrm_s3_dr_vs_n.png", "DR (%)", func(a Agg) float64 { return a.DR }, 1, true, true}} {
		var ss []series
		for i, c := range []int{1, 2, 3, 4, 6, 8, 10} {
			var xy plotter.XYs
			for n := 1; n <= maxN; n++ {
				if a, ok := cell(c, n); ok {
					xy = append(xy, plotter.XY{X: float64(n), Y: m.f(a)})
				}
			}
			ss = append(ss, series{name: fmt.Sprintf("c = %d", c), xy: xy, col: i, shape: i})
		}
		for i, c := range []int{2, 4} {
			var xy plotter.XYs
			for n := 1; n <= 19; n++ {
				xy = append(xy, plotter.XY{X: float64(n), Y: Table8[c][n-1][m.study]})
			}
			ss = append(ss, series{name: fmt.Sprintf("study c = %d", c), xy: xy, dashed: true, col: 1 + 2*i, shape: 7})
		}
		p, err := linePlot(r.dir, m.file, "S3: "+m.name+" against n, one line per c", "n (independent attributes)", m.name, ss, m.top, m.left)
		if err != nil {
			return err
		}
		r.printf("![%s against n](%s)\n\n", m.name, p)
	}
	// Verdicts.
	for _, c := range []int{2, 4} {
		var n, pil, dr []float64
		for k := 1; k <= 12; k++ {
			if a, ok := cell(c, k); ok {
				n, pil, dr = append(n, float64(k)), append(pil, a.PILKDE), append(dr, a.DR)
			}
		}
		if len(n) < 3 {
			continue
		}
		sp, sd := Spearman(n, pil), Spearman(n, dr)
		r.add(fmt.Sprintf("P1 S3 c=%d PIL falls with n", c), "Spearman(n, PIL) ≤ −0.9 over n = 1..12", sp <= -0.9, true, "%.3f", sp)
		r.add(fmt.Sprintf("P1 S3 c=%d DR rises with n", c), "Spearman(n, DR) ≥ +0.9 over n = 1..12", sd >= 0.9, true, "%.3f", sd)
	}
	below, worst := true, math.Inf(-1)
	cnt := 0
	for k := 1; k <= maxN; k++ {
		a2, ok2 := cell(2, k)
		a4, ok4 := cell(4, k)
		if ok2 && ok4 {
			cnt++
			worst = math.Max(worst, a4.PILKDE-a2.PILKDE)
			if a4.PILKDE >= a2.PILKDE {
				below = false
			}
		}
	}
	if cnt > 0 {
		r.add("P1 S3 c=4 below c=2", "mean PIL at c = 4 below c = 2 for every n", below, true,
			"largest PIL(c=4) − PIL(c=2) = %.2f over %d values of n", worst, cnt)
	}
	if a12, ok := cell(2, 12); ok {
		if a19, ok := cell(2, 19); ok {
			r.add("S3 flattening for n > 12", "study: PIL keeps falling (35.48 → 28.98 from n = 12 to 19)",
				math.Abs(a12.PILKDE-a19.PILKDE) > 3, false, "c = 2: PIL %.2f at n = 12, %.2f at n = 19 (cyclic repetition adds no information)",
				a12.PILKDE, a19.PILKDE)
		}
	}
	return nil
}
