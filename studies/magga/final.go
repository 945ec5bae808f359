package magga

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/sdcbench/sdcbench/studies"
)

// finalKs and finalObjs are the k values and objectives of the final experiment (magga.md §11.3).
var (
	finalKs   = []string{"3", "4", "5", "10"}
	finalObjs = []string{"fobj1", "fobj2", "fobj3", "fobj4", "fobj5"}
)

// finalData is what the final report computes from the runs: MAGGA's best run per (instance,
// k, objective) over its variants, the baselines per (instance, k), the win counts and gaps
// of magga.md §11.4, and the Fig 5.16 points.
type finalData struct {
	instances      []string
	maggaBest      map[[3]string]row            // (dataset, k, objective) → best MAGGA run
	base           map[[2]string]map[string]row // (dataset, k) → baseline → run
	wins           map[[3]string]map[string]int // (objective, measure, k) → method → wins
	ninst          map[[3]string]int            // (objective, measure, k) → instances compared
	gaps           map[[3]string][]float64      // (measure, objective, k) → MAGGA's gaps
	points         map[string]plotter.XYs       // method → standardized (il1p, dldp) of Fig 5.16
	dldMDAVvsPPPCA [2]int                       // (instance, k) cells with dld(mdav) > dld(pppca), cells with both
}

// computeFinal derives finalData from the ok runs of magga-final.
func computeFinal(runs []row) *finalData {
	fd := &finalData{maggaBest: map[[3]string]row{}, base: map[[2]string]map[string]row{},
		wins: map[[3]string]map[string]int{}, ninst: map[[3]string]int{},
		gaps: map[[3]string][]float64{}, points: map[string]plotter.XYs{}}
	for _, r := range runs {
		c := [2]string{r["dataset"], r["param_k"]}
		if r["method"] == "magga" {
			key := [3]string{c[0], c[1], r["param_weights"]}
			ob := r["param_weights"]
			if b, ok := fd.maggaBest[key]; !ok || r.f(ob) < b.f(ob) {
				fd.maggaBest[key] = r
			}
			continue
		}
		if fd.base[c] == nil {
			fd.base[c] = map[string]row{}
		}
		fd.base[c][r["method"]] = r
	}
	fd.instances = uniq(runs, "dataset")
	for _, ob := range finalObjs {
		for _, m := range measures {
			for _, k := range finalKs {
				key := [3]string{ob, m.col, k}
				wins := map[string]int{}
				for _, ds := range fd.instances {
					vals := map[string]float64{}
					if r, ok := fd.maggaBest[[3]string{ds, k, ob}]; ok {
						vals["magga"] = r.f(m.col)
					}
					for _, b := range baselines {
						if r, ok := fd.base[[2]string{ds, k}][b]; ok {
							vals[b] = r.f(m.col)
						}
					}
					if _, ok := vals["magga"]; !ok || len(vals) < 2 {
						continue
					}
					fd.ninst[key]++
					best := math.Inf(1)
					for _, v := range vals {
						if !math.IsNaN(v) && !math.IsInf(v, 0) {
							best = min(best, v)
						}
					}
					for meth, v := range vals {
						if math.Abs(v-best) <= 1e-9*max(1, math.Abs(best)) {
							wins[meth]++
						}
					}
				}
				fd.wins[key] = wins
			}
		}
	}
	for _, m := range []string{"sse_sst", "dld", "il1_dld_mean"} {
		for _, ob := range finalObjs[:3] {
			for _, k := range finalKs {
				for _, ds := range fd.instances {
					r, ok := fd.maggaBest[[3]string{ds, k, ob}]
					if !ok || len(fd.base[[2]string{ds, k}]) == 0 {
						continue
					}
					vals := []float64{r.f(m)}
					for _, b := range baselines {
						if br, ok := fd.base[[2]string{ds, k}][b]; ok {
							vals = append(vals, br.f(m))
						}
					}
					lo, hi := math.Inf(1), math.Inf(-1)
					for _, v := range vals {
						if !math.IsNaN(v) && !math.IsInf(v, 0) {
							lo, hi = min(lo, v), max(hi, v)
						}
					}
					g := 0.0
					if hi > lo {
						g = (vals[0] - lo) / (hi - lo)
					}
					if !math.IsNaN(vals[0]) {
						key := [3]string{m, ob, k}
						fd.gaps[key] = append(fd.gaps[key], g)
					}
				}
			}
		}
	}
	// Fig 5.16: standardized (sse_sst, dld) over every point of fobj3 and every baseline point
	type pt struct {
		meth   string
		il, dr float64
	}
	// in sorted key order, so that the points, their mean and SD and the plot are the same on
	// every run (map order is random)
	var pts []pt
	for _, key := range slices.SortedFunc(maps.Keys(fd.maggaBest), func(a, b [3]string) int { return slices.Compare(a[:], b[:]) }) {
		if key[2] == "fobj3" {
			r := fd.maggaBest[key]
			pts = append(pts, pt{"magga", r.f("sse_sst"), r.f("dld")})
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(fd.base), func(a, b [2]string) int { return slices.Compare(a[:], b[:]) }) {
		mm := fd.base[key]
		for _, b := range slices.Sorted(maps.Keys(mm)) {
			r := mm[b]
			pts = append(pts, pt{b, r.f("sse_sst"), r.f("dld")})
		}
		if m, ok := mm["mdav"]; ok {
			if p, ok := mm["pppca"]; ok && !math.IsNaN(m.f("dld")) && !math.IsNaN(p.f("dld")) {
				fd.dldMDAVvsPPPCA[1]++
				if m.f("dld") > p.f("dld") {
					fd.dldMDAVvsPPPCA[0]++
				}
			}
		}
	}
	var il, dr []float64
	for _, p := range pts {
		il, dr = append(il, p.il), append(dr, p.dr)
	}
	mi, si := meanSD(il)
	md, sdd := meanSD(dr)
	for _, p := range pts {
		fd.points[p.meth] = append(fd.points[p.meth], plotter.XY{X: (p.il - mi) / si, Y: (p.dr - md) / sdd})
	}
	return fd
}

// quadrant returns how many of the method's Fig 5.16 points lie in il1p < 0, dldp < 0, and
// how many points it has.
func (fd *finalData) quadrant(meth string) (in, n int) {
	for _, p := range fd.points[meth] {
		if p.X < 0 && p.Y < 0 {
			in++
		}
	}
	return in, len(fd.points[meth])
}

// final writes the win counts, gap tables, Fig 5.16 (table and plot in dir/plots), the §11.6
// verdicts and runtimes.
func final(w io.Writer, t *studies.Tally, runs []row, dir string) error {
	fd := computeFinal(runs)
	fmt.Fprintf(w, "## Final experiment (MAGGA study §5.3)\n\n%d finished runs (of 2 584). Instances with results: %d of 34. MAGGA's entry per (instance, k, objective) is the best of its three variants (tsp, tsp_d1, tsp_d2) by that objective. Wins use the tie rule |v − v*| ≤ 1e-9·max(1, |v*|), so counts can add up to more than the instances; percentages are over the instances of the cell.\n\n", len(runs), len(fd.instances))
	methodsAll := append([]string{"magga"}, baselines...)
	for i, ob := range finalObjs {
		fmt.Fprintf(w, "### Win counts, MAGGA under %s (Fig 5.1%d analog)\n\n| measure | k | instances | MAGGA | mdav | rmdm | clustpppca | pppca | seed MAGGA |\n|---|---|---|---|---|---|---|---|---|\n", ob, 1+i)
		for _, m := range measures {
			for _, k := range finalKs {
				key := [3]string{ob, m.col, k}
				n := fd.ninst[key]
				if n == 0 {
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %d |", m.name, k, n)
				for _, meth := range methodsAll {
					fmt.Fprintf(w, " %d (%.0f%%) |", fd.wins[key][meth], 100*float64(fd.wins[key][meth])/float64(n))
				}
				if s, ok := seedWins()[key]; ok {
					fmt.Fprintf(w, " %d (%.0f%% of 34) |\n", s, 100*float64(s)/34)
				} else {
					fmt.Fprintf(w, " – |\n")
				}
			}
		}
		fmt.Fprintln(w)
	}
	titles := map[string]string{"sse_sst": "Table 5.6 — MAGGA gaps, IL1 (sse_sst)", "dld": "Table 5.7 — MAGGA gaps, DLD", "il1_dld_mean": "Table 5.8 — MAGGA gaps, mean(IL1, DLD)"}
	for _, m := range []string{"sse_sst", "dld", "il1_dld_mean"} {
		fmt.Fprintf(w, "### %s\n\n| objective | k | n | gapmin | median | mean | sd | gapmax | seed median | seed mean | seed max |\n|---|---|---|---|---|---|---|---|---|---|---|\n", titles[m])
		for _, ob := range finalObjs[:3] {
			for _, k := range finalKs {
				gaps := fd.gaps[[3]string{m, ob, k}]
				if len(gaps) == 0 {
					continue
				}
				s := seedGaps()[m][ob][k]
				mn, md, me, sd, mx := summary(gaps)
				fmt.Fprintf(w, "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", ob, k, len(gaps), mn, md, me, sd, mx, s[1], s[2], s[4])
			}
		}
		fmt.Fprintf(w, "\n%s\n\n", fd.tableVerdict(t, m))
	}
	fmt.Fprintf(w, "### Fig 5.16 analog: standardized il1p × dldp under fobj3 (all methods × instances × k)\n\n| method | points | il1p<0 & dldp<0 | share | mean il1p | mean dldp |\n|---|---|---|---|---|---|\n")
	for _, meth := range methodsAll {
		if q, n := fd.quadrant(meth); n > 0 {
			var sx, sy float64
			for _, p := range fd.points[meth] {
				sx, sy = sx+p.X, sy+p.Y
			}
			fmt.Fprintf(w, "| %s | %d | %d | %.0f%% | %.3f | %.3f |\n", meth, n, q, 100*float64(q)/float64(n), sx/float64(n), sy/float64(n))
		}
	}
	fmt.Fprintln(w)
	if pl, err := fig516Plot(fd.points, methodsAll); err != nil {
		return err
	} else if err := savePlot(w, dir, pl, "fig5_16", "Fig 5.16 analog"); err != nil {
		return err
	}
	fd.verdicts(w, t)
	runtimes(w, runs, 200)
	return nil
}

// share returns MAGGA's win share (wins/instances) in a cell, NaN when the cell is empty.
func (fd *finalData) share(ob, m, k string) float64 {
	key := [3]string{ob, m, k}
	if fd.ninst[key] == 0 {
		return math.NaN()
	}
	return float64(fd.wins[key]["magga"]) / float64(fd.ninst[key])
}

// gapStat returns a statistic of MAGGA's gaps per k, "median" or "max".
func (fd *finalData) gapStat(m, ob, stat string) []float64 {
	var out []float64
	for _, k := range finalKs {
		g := fd.gaps[[3]string{m, ob, k}]
		if len(g) == 0 {
			out = append(out, math.NaN())
			continue
		}
		_, md, _, _, mx := summary(g)
		out = append(out, map[string]float64{"median": md, "max": mx}[stat])
	}
	return out
}

// all reports whether every value is finite and passes ok.
func all(v []float64, ok func(float64) bool) bool {
	for _, x := range v {
		if math.IsNaN(x) || !ok(x) {
			return false
		}
	}
	return len(v) > 0
}

func joinf(v []float64, format string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(s, " / ")
}

func pct(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = 100 * x
	}
	return out
}

// tableVerdict states the gap table's criterion from magga.md §11.6 (Tables 5.6 and 5.8) or,
// for Table 5.7 which §11.6 does not cover, the seed's own pattern (fobj3 medians 0). Only the
// Table 5.7 verdict is recorded in t: the other two are items of the claims checklist (verdicts).
func (fd *finalData) tableVerdict(t *studies.Tally, m string) string {
	switch m {
	case "sse_sst":
		md := fd.gapStat("sse_sst", "fobj1", "median")
		return fmt.Sprintf("Verdict (magga.md §11.6 item 3): fobj1 median gap ≤ 0.02 at every k — ours %s (seed 0.005 / 0.003 / 0 / 0.009) → %s.",
			joinf(md, "%.3f"), verdict(nil, "", "", all(md, func(x float64) bool { return x <= 0.02 })))
	case "dld":
		md := fd.gapStat("dld", "fobj3", "median")
		return fmt.Sprintf("Verdict (the seed's pattern; §11.6 has no item for Table 5.7): fobj3 median gap 0 at every k — ours %s (seed 0 / 0 / 0 / 0) → %s.",
			joinf(md, "%.3f"), verdict(t, "Table 5.7", "fobj3 median gap 0 at every k", all(md, func(x float64) bool { return x == 0 })))
	default:
		md3, mx3 := fd.gapStat("il1_dld_mean", "fobj3", "median"), fd.gapStat("il1_dld_mean", "fobj3", "max")
		md2 := fd.gapStat("il1_dld_mean", "fobj2", "median")
		ok := all(md3, func(x float64) bool { return x == 0 }) && all(mx3, func(x float64) bool { return x <= 0.15 }) &&
			all(md2, func(x float64) bool { return x == 0 })
		return fmt.Sprintf("Verdict (magga.md §11.6 items 1-2): fobj3 medians 0 and gapmax ≤ 0.15, fobj2 medians 0 — ours fobj3 medians %s, gapmax %s; fobj2 medians %s (seed gapmax ≤ 0.094) → %s.",
			joinf(md3, "%.3f"), joinf(mx3, "%.3f"), joinf(md2, "%.3f"), verdict(nil, "", "", ok))
	}
}

// mostWins reports whether one of the methods in who has the most wins in the cell (ties
// count as most).
func (fd *finalData) mostWins(ob, m, k string, who ...string) (bool, int, string) {
	wins := fd.wins[[3]string{ob, m, k}]
	top, leader := -1, ""
	for _, meth := range append([]string{"magga"}, baselines...) {
		if wins[meth] > top {
			top, leader = wins[meth], meth
		}
	}
	for _, meth := range who {
		if wins[meth] == top {
			return fd.ninst[[3]string{ob, m, k}] > 0, top, leader
		}
	}
	return false, top, leader
}

// verdicts writes the checklist of magga.md §11.6 with our numbers and the seed's.
func (fd *finalData) verdicts(w io.Writer, t *studies.Tally) {
	type claim struct {
		what, seed, ours string
		ok               bool
	}
	var cs []claim
	shares := func(ob, m string) []float64 {
		var v []float64
		for _, k := range finalKs {
			v = append(v, fd.share(ob, m, k))
		}
		return v
	}
	s := shares("fobj3", "il1_dld_mean")
	cs = append(cs, claim{"1. fobj3: MAGGA wins mean(IL1, DLD) on ≥ 85 % of instances at every k", "94 / 97 / 100 / 100 %", joinf(pct(s), "%.0f") + " %", all(s, func(x float64) bool { return x >= 0.85 })})
	s = shares("fobj3", "dld")
	cs = append(cs, claim{"1. fobj3: MAGGA wins DLD on ≥ 75 % at every k", "94 / 91 / 85 / 82 %", joinf(pct(s), "%.0f") + " %", all(s, func(x float64) bool { return x >= 0.75 })})
	md3, mx3 := fd.gapStat("il1_dld_mean", "fobj3", "median"), fd.gapStat("il1_dld_mean", "fobj3", "max")
	cs = append(cs, claim{"1. Table 5.8 fobj3: medians 0, gapmax ≤ 0.15", "0 ×4; max 0.094", joinf(md3, "%.3f") + "; max " + joinf(mx3, "%.3f"),
		all(md3, func(x float64) bool { return x == 0 }) && all(mx3, func(x float64) bool { return x <= 0.15 })})
	s = shares("fobj2", "il1_dld_mean")
	cs = append(cs, claim{"2. fobj2: MAGGA wins mean(IL1, DLD) on ≥ 75 % at every k", "82 / 91 / 97 / 100 %", joinf(pct(s), "%.0f") + " %", all(s, func(x float64) bool { return x >= 0.75 })})
	md2 := fd.gapStat("il1_dld_mean", "fobj2", "median")
	cs = append(cs, claim{"2. Table 5.8 fobj2: medians 0", "0 ×4", joinf(md2, "%.3f"), all(md2, func(x float64) bool { return x == 0 })})
	md1 := fd.gapStat("sse_sst", "fobj1", "median")
	cs = append(cs, claim{"3. Table 5.6 fobj1: median IL1 gap ≤ 0.02 at every k", "0.005 / 0.003 / 0 / 0.009", joinf(md1, "%.3f"), all(md1, func(x float64) bool { return x <= 0.02 })})
	var within []string
	okWithin := true
	for _, k := range []string{"3", "10"} {
		if fd.ninst[[3]string{"fobj1", "sse_sst", k}] == 0 {
			within = append(within, "k="+k+": no runs")
			okWithin = false
			continue
		}
		_, top, leader := fd.mostWins("fobj1", "sse_sst", k)
		mw := fd.wins[[3]string{"fobj1", "sse_sst", k}]["magga"]
		within = append(within, fmt.Sprintf("k=%s: MAGGA %d, most %d (%s)", k, mw, top, leader))
		okWithin = okWithin && fd.ninst[[3]string{"fobj1", "sse_sst", k}] > 0 && top-mw <= 3
	}
	cs = append(cs, claim{"3. fobj1: MAGGA within 3 of the most IL1 wins at k = 3 and 10", "k=3: 14 vs RMDM 11; k=10: 16 vs MDAV 11", strings.Join(within, "; "), okWithin})
	var il3 []string
	okIL3 := true
	for _, k := range finalKs {
		ok, top, leader := fd.mostWins("fobj5", "il3", k, "magga")
		if fd.ninst[[3]string{"fobj5", "il3", k}] == 0 {
			il3 = append(il3, "no runs")
		} else {
			il3 = append(il3, fmt.Sprintf("%d (most %d, %s)", fd.wins[[3]string{"fobj5", "il3", k}]["magga"], top, leader))
		}
		okIL3 = okIL3 && ok
	}
	cs = append(cs, claim{"4. fobj5: MAGGA has the most IL3 wins at every k", "20 / 21 / 22 / 23 (59-68 %)", strings.Join(il3, " / "), okIL3})
	okIL2, bad := true, []string{}
	for _, ob := range finalObjs {
		for _, k := range finalKs {
			if fd.ninst[[3]string{ob, "il1s", k}] == 0 {
				continue
			}
			if ok, _, leader := fd.mostWins(ob, "il1s", k, "mdav", "rmdm"); !ok {
				okIL2 = false
				bad = append(bad, ob+" k="+k+" ("+leader+")")
			}
		}
	}
	ours := "every cell"
	if !okIL2 {
		ours = "not in " + strings.Join(bad, ", ")
	}
	cs = append(cs, claim{"5. MDAV or RMDM has the most IL2 (il1s) wins in every objective × k cell", "MDAV/RMDM better under every objective", ours, okIL2})
	okDLD, bad := true, nil
	for _, ob := range []string{"fobj1", "fobj4"} {
		for _, k := range []string{"3", "4", "5"} {
			if fd.ninst[[3]string{ob, "dld", k}] == 0 {
				okDLD = false
				bad = append(bad, ob+" k="+k+" (no runs)")
			} else if ok, _, leader := fd.mostWins(ob, "dld", k, "pppca"); !ok {
				okDLD = false
				bad = append(bad, ob+" k="+k+" ("+leader+")")
			}
		}
	}
	ours = "every cell"
	if !okDLD {
		ours = "not in " + strings.Join(bad, ", ")
	}
	cs = append(cs, claim{"5. PPPCA has the most DLD wins under fobj1 and fobj4 at k ≤ 5", "PPPCA most at every k", ours, okDLD})
	c := fd.dldMDAVvsPPPCA
	cs = append(cs, claim{"5. dld(MDAV) > dld(PPPCA) on most (instance, k)", "most", fmt.Sprintf("%d of %d", c[0], c[1]), c[1] > 0 && 2*c[0] > c[1]})
	in, n := fd.quadrant("magga")
	cs = append(cs, claim{"6. Fig 5.16: MAGGA's fobj3 points mostly in il1p < 0, dldp < 0", "lower-left quadrant", fmt.Sprintf("%d of %d", in, n), n > 0 && 2*in > n})
	fmt.Fprintf(w, "### What counts as reproduced (magga.md §11.6)\n\n| claim | seed | ours | verdict |\n|---|---|---|---|\n")
	held := 0
	for _, c := range cs {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", c.what, c.seed, c.ours, verdict(t, "claims", c.what, c.ok))
		if c.ok {
			held++
		}
	}
	fmt.Fprintf(w, "\n%d of %d claims reproduced. Item 7 (runtimes) has no pass/fail: see below.\n\n", held, len(cs))
}
