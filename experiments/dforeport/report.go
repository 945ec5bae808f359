// Package dforeport writes DFO.md for the dfo-benchmarks experiment (the folder's REPORT.md,
// the generic analysis, links it): the seed's Tables 1–3 (shared/seeds/001_540d0eed614c4750.txt
// L147–177, shared/spec/dfo.md §13) beside ours, with a verdict per cell, the nine (dataset, k)
// targets and the seed's qualitative claims.
package dforeport

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
)

// Datasets are the three instances of the seed, in its column order.
var Datasets = []string{"tarragona", "census", "eia"}

// SeedRow is one row of the seed's Tables 1–3: IL (%), imp (%) and time (s) per dataset.
type SeedRow struct {
	K      int
	Start  string // "mdav" or "gsms" (the seed's GSMS-T2)
	Gamma0 int
	IL     [3]float64
	Imp    [3]float64
	Time   [3]float64
}

// Seed holds Tables 1–3 of the seed (decimal commas written as points; dfo.md §13).
var Seed = []SeedRow{
	{3, "mdav", 10, [3]float64{16.11, 5.69, 0.48}, [3]float64{4.84, 0, 0}, [3]float64{5.77, 6.71, 278.13}},
	{3, "mdav", 20, [3]float64{16.11, 5.69, 0.48}, [3]float64{4.84, 0, 0}, [3]float64{5.99, 8.57, 348.39}},
	{3, "mdav", 30, [3]float64{15.44, 5.69, 0.48}, [3]float64{8.79, 0, 0}, [3]float64{5.94, 8.46, 355.15}},
	{3, "gsms", 10, [3]float64{16.36, 5.54, 0.41}, [3]float64{0, 0, 0}, [3]float64{8.69, 12.08, 690.10}},
	{3, "gsms", 20, [3]float64{16.36, 5.54, 0.41}, [3]float64{0, 0, 0}, [3]float64{8.85, 13.08, 701.35}},
	{3, "gsms", 30, [3]float64{16.36, 5.54, 0.41}, [3]float64{0, 0, 0}, [3]float64{7.55, 13.33, 714.67}},
	{5, "mdav", 10, [3]float64{21.19, 9.08, 1.66}, [3]float64{5.64, 0, 0}, [3]float64{0.71, 1.80, 206.45}},
	{5, "mdav", 20, [3]float64{20.93, 8.56, 1.24}, [3]float64{6.80, 5.80, 25.33}, [3]float64{3.54, 3.42, 257.60}},
	{5, "mdav", 30, [3]float64{21.07, 8.78, 1.51}, [3]float64{6.15, 3.33, 8.83}, [3]float64{2.35, 2.76, 330.68}},
	{5, "gsms", 10, [3]float64{22.70, 8.56, 0.86}, [3]float64{18.02, 0, 24.49}, [3]float64{7.30, 9.67, 654.02}},
	{5, "gsms", 20, [3]float64{21.19, 8.56, 0.89}, [3]float64{23.46, 0, 21.79}, [3]float64{7.22, 10.81, 662.77}},
	{5, "gsms", 30, [3]float64{21.66, 8.56, 0.79}, [3]float64{21.76, 0, 29.82}, [3]float64{5.40, 10.80, 690.35}},
	{10, "mdav", 10, [3]float64{33.19, 14.15, 2.17}, [3]float64{0, 0, 43.55}, [3]float64{1.08, 1.60, 104.96}},
	{10, "mdav", 20, [3]float64{33.19, 13.27, 2.52}, [3]float64{0, 6.19, 34.33}, [3]float64{1.52, 3.07, 113.67}},
	{10, "mdav", 30, [3]float64{33.19, 14.15, 2.11}, [3]float64{0, 0, 45.00}, [3]float64{2.83, 2.55, 132.63}},
	{10, "gsms", 10, [3]float64{39.03, 13.36, 3.02}, [3]float64{0, 0, 8.02}, [3]float64{3.86, 8.03, 481.34}},
	{10, "gsms", 20, [3]float64{39.03, 13.19, 2.05}, [3]float64{0, 1.30, 37.37}, [3]float64{4.41, 8.79, 502.44}},
	{10, "gsms", 30, [3]float64{39.03, 13.16, 2.05}, [3]float64{0, 1.53, 37.43}, [3]float64{4.58, 9.24, 515.37}},
}

// Target returns the seed's best IL over its grid for a dataset and k (dfo.md §13).
func Target(dataset string, k int) float64 {
	j := slices.Index(Datasets, dataset)
	best := math.Inf(1)
	for _, r := range Seed {
		if r.K == k {
			best = math.Min(best, r.IL[j])
		}
	}
	return best
}

// Margin is the criterion's absolute tolerance in IL points: reproduced when our best ≤
// target + Margin.
const Margin = 0.05

// Run is one row of runs.csv with the fields the report uses.
type Run struct {
	Dataset, Start, Init, Polish string
	K, Gamma0, Restarts          int
	IL, ILStart, Imp, LB         float64
	G0, G, Groups, Evals         int
	Seconds                      float64
	OK                           bool
}

// Block names the part of the grid a run belongs to.
func (r Run) Block() string {
	switch {
	case r.Polish != "none":
		return "polish"
	case r.Init != "warm" || r.Restarts != 1:
		return "kmeanspp"
	}
	return "spec"
}

// Config renders the run's configuration for the tables.
func (r Run) Config() string {
	s := fmt.Sprintf("start=%s γ0=%d", r.Start, r.Gamma0)
	if r.Init != "warm" {
		s += " init=" + r.Init
	}
	if r.Restarts != 1 {
		s += fmt.Sprintf(" restarts=%d", r.Restarts)
	}
	if r.Polish != "none" {
		s += " polish=" + r.Polish
	}
	return s
}

// Parse reads the report's runs from a runs.csv table.
func Parse(t *experiments.Table) ([]Run, error) {
	need := []string{"dataset", "param_k", "param_gamma0", "param_start", "param_init", "param_polish",
		"param_restarts", "sse_sst", "il_start", "imp", "sse_sst_lb", "dfo_g0", "dfo_g", "dfo_groups",
		"dfo_evals", "seconds", "status"}
	col := map[string]int{}
	for _, n := range need {
		if col[n] = t.Col(n); col[n] < 0 {
			return nil, fmt.Errorf("dforeport: runs.csv has no column %q", n)
		}
	}
	var out []Run
	for _, row := range t.Rows {
		f := func(n string) float64 { v, _ := strconv.ParseFloat(row[col[n]], 64); return v }
		i := func(n string) int { return int(f(n)) }
		out = append(out, Run{Dataset: row[col["dataset"]], Start: row[col["param_start"]],
			Init: row[col["param_init"]], Polish: row[col["param_polish"]], K: i("param_k"),
			Gamma0: i("param_gamma0"), Restarts: i("param_restarts"), IL: f("sse_sst"),
			ILStart: f("il_start"), Imp: f("imp"), LB: f("sse_sst_lb"), G0: i("dfo_g0"), G: i("dfo_g"),
			Groups: i("dfo_groups"), Evals: i("dfo_evals"), Seconds: f("seconds"),
			OK: row[col["status"]] == "ok"})
	}
	return out, nil
}

// Write reads dir/runs.csv and writes dir/DFO.md.
func Write(dir string) error {
	t, err := experiments.ReadRuns(dir)
	if err != nil {
		return fmt.Errorf("dforeport: %w", err)
	}
	runs, err := Parse(t)
	if err != nil {
		return err
	}
	man, _ := experiments.ReadManifest(dir)
	return datasets.AtomicWrite(filepath.Join(dir, "DFO.md"), func(w io.Writer) error {
		return Markdown(w, runs, man)
	})
}

// find returns the ok runs matching pred.
func find(runs []Run, pred func(Run) bool) []Run {
	var out []Run
	for _, r := range runs {
		if r.OK && pred(r) {
			out = append(out, r)
		}
	}
	return out
}

// best returns the run with the lowest IL (first on ties), ok false if none.
func best(runs []Run) (Run, bool) {
	if len(runs) == 0 {
		return Run{}, false
	}
	b := runs[0]
	for _, r := range runs[1:] {
		if r.IL < b.IL {
			b = r
		}
	}
	return b, true
}

func verdict(ours, seed float64) string {
	switch d := ours - seed; {
	case d < -0.005:
		return fmt.Sprintf("✓ better by %.2f", -d)
	case d <= Margin:
		return "✓ reproduced"
	default:
		return fmt.Sprintf("✗ worse by %.2f", d)
	}
}

// Markdown writes the report. man may be nil.
func Markdown(w io.Writer, runs []Run, man *experiments.Manifest) error {
	fmt.Fprintf(w, "# dfo-benchmarks: seed 001 Tables 1–3 (DFO over the number of groups)\n\n")
	if man != nil {
		fmt.Fprintf(w, "%d runs; sdcbench %s, %s, %d CPUs (%s/%s); spec SHA-256 `%.12s`. ",
			man.Runs, man.Tool, man.GoVersion, man.CPUs, man.OS, man.Arch, man.SpecHash)
	}
	fmt.Fprintf(w, "Full rows: [runs.csv](runs.csv), per-probe traces: [traces.csv](traces.csv). "+
		"Method and parameters: [docs/dfo.md](../../docs/dfo.md); spec: shared/spec/dfo.md.\n\n")
	fmt.Fprintf(w, "All IL values are `sse_sst` = 100·SSE/SST on z-scored data (%%). `il_start` is the unrefined start, "+
		"`imp` = 100·(il_start − IL)/il_start. Our `seconds` is single-threaded wall time per run on a shared 2-core machine "+
		"(2 runs in parallel, other jobs running); the seed's times are C++ on a 1.2 GHz Pentium Dual Core.\n\n")
	fmt.Fprintf(w, "Blocks of the grid: **spec** = the spec's E2 grid with every default of dfo.md §11 (54 cells); "+
		"**kmeanspp** = the spec's extra block (MDAV start, `init: kmeanspp`, `restarts: 5`, 2 replicates; Tarragona and Census); "+
		"**polish** = a harness extension (not in the seed): the exchange search `polish: every` inside every F′ "+
		"evaluation, from MDAV, GSMS and FDM starts.\n\n")
	fmt.Fprintf(w, "The seed's second start, GSMS-T2, is not described in the seed; our rows `gsms` use the plain GSMS of "+
		"microaggregation.md §3.9 as its substitute (same role: a second, stronger-than-MDAV start with ⌊n/k⌋ groups). "+
		"Its start IL differs from GSMS-T2's (seed implied: Tarragona 16.36/27.68/39.03, Census 5.54/8.56/13.36, EIA 0.41/≈1.13/≈3.28), "+
		"so the `gsms` rows compare different starts.\n\n")

	cells(w, runs)
	tables(w, runs)
	extension(w, runs)
	claims(w, runs)
	return nil
}

// cells writes the nine (dataset, k) verdicts of the criterion.
func cells(w io.Writer, runs []Run) {
	fmt.Fprintf(w, "## The criterion: best IL per (dataset, k) ≤ seed's best + %.2f, and never below sse_sst_lb\n\n", Margin)
	fmt.Fprintf(w, "| dataset | k | seed best | ours, spec block | config | ours, whole grid | config | gap to seed | sse_sst_lb | min IL ≥ lb | verdict |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	pass := 0
	for _, ds := range Datasets {
		for _, k := range []int{3, 5, 10} {
			all := find(runs, func(r Run) bool { return r.Dataset == ds && r.K == k })
			spec := find(all, func(r Run) bool { return r.Block() == "spec" })
			tgt := Target(ds, k)
			bs, ok1 := best(spec)
			ba, ok2 := best(all)
			if !ok1 || !ok2 {
				fmt.Fprintf(w, "| %s | %d | %.2f | — | | — | | | | | missing runs |\n", ds, k, tgt)
				continue
			}
			lbOK := true
			for _, r := range all {
				lbOK = lbOK && r.IL >= r.LB
			}
			v := verdict(ba.IL, tgt)
			if ba.IL <= tgt+Margin && lbOK {
				pass++
			}
			fmt.Fprintf(w, "| %s | %d | %.2f | %.4f | %s | %.4f | %s | %+.4f | %.4f | %s | %s |\n",
				ds, k, tgt, bs.IL, bs.Config(), ba.IL, ba.Config(), ba.IL-tgt, ba.LB, yes(lbOK), v)
		}
	}
	fmt.Fprintf(w, "\n**%d of 9 cells reproduced.** A negative gap is an improvement on the seed's best-known value.\n\n", pass)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "**NO (bug)**"
}

// tables writes the seed's Tables 1–3 beside the spec block.
func tables(w io.Writer, runs []Run) {
	for ti, k := range []int{3, 5, 10} {
		fmt.Fprintf(w, "## Table %d (k = %d): seed beside ours (spec block)\n\n", ti+1, k)
		fmt.Fprintf(w, "| dataset | start | γ0 | seed IL | seed imp | seed s | our il_start | our IL | our imp | our s | G0→G* | F′ evals | verdict |\n")
		fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for j, ds := range Datasets {
			for _, s := range Seed {
				if s.K != k {
					continue
				}
				label := "MDAV"
				if s.Start == "gsms" {
					label = "GSMS (subst. GSMS-T2)"
				}
				rs := find(runs, func(r Run) bool {
					return r.Block() == "spec" && r.Dataset == ds && r.K == k && r.Start == s.Start && r.Gamma0 == s.Gamma0
				})
				if len(rs) == 0 {
					fmt.Fprintf(w, "| %s | %s | %d | %.2f | %.2f | %.2f | — | — | — | — | | | missing |\n",
						ds, label, s.Gamma0, s.IL[j], s.Imp[j], s.Time[j])
					continue
				}
				r := rs[0]
				fmt.Fprintf(w, "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d→%d | %d | %s |\n",
					ds, label, s.Gamma0, s.IL[j], s.Imp[j], s.Time[j], r.ILStart, r.IL, math.Max(r.Imp, 0), r.Seconds,
					r.G0, r.G, r.Evals, verdict(r.IL, s.IL[j]))
			}
		}
		fmt.Fprintln(w)
	}
}

// extension writes the k-means++ and polish blocks, best over γ0 per start.
func extension(w io.Writer, runs []Run) {
	fmt.Fprintf(w, "## The k-means++ block (spec's extra block; mean and min over the replicates)\n\n")
	fmt.Fprintf(w, "| dataset | k | il_start | IL mean | IL min | mean s |\n|---|---|---|---|---|---|\n")
	for _, ds := range Datasets {
		for _, k := range []int{3, 5, 10} {
			rs := find(runs, func(r Run) bool { return r.Block() == "kmeanspp" && r.Dataset == ds && r.K == k })
			if len(rs) == 0 {
				continue
			}
			var sum, secs float64
			for _, r := range rs {
				sum += r.IL
				secs += r.Seconds
			}
			b, _ := best(rs)
			fmt.Fprintf(w, "| %s | %d | %.2f | %.4f | %.4f | %.2f |\n", ds, k, rs[0].ILStart, sum/float64(len(rs)), b.IL, secs/float64(len(rs)))
		}
	}
	fmt.Fprintf(w, "\n## The polish extension (best over γ0 per start; not in the seed)\n\n")
	fmt.Fprintf(w, "| dataset | k | start | il_start | best IL | imp | γ0 of best | G0→G* | groups | mean s | seed best | verdict |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, ds := range Datasets {
		for _, k := range []int{3, 5, 10} {
			for _, st := range []string{"mdav", "gsms", "fdm"} {
				rs := find(runs, func(r Run) bool {
					return r.Block() == "polish" && r.Dataset == ds && r.K == k && r.Start == st
				})
				b, ok := best(rs)
				if !ok {
					continue
				}
				var secs float64
				for _, r := range rs {
					secs += r.Seconds
				}
				fmt.Fprintf(w, "| %s | %d | %s | %.2f | %.4f | %.2f | %d | %d→%d | %d | %.2f | %.2f | %s |\n",
					ds, k, st, b.ILStart, b.IL, b.Imp, b.Gamma0, b.G0, b.G, b.Groups, secs/float64(len(rs)),
					Target(ds, k), verdict(b.IL, Target(ds, k)))
			}
		}
	}
	fmt.Fprintln(w)
}

// claims checks the seed's qualitative findings (L179–187) on the spec block.
func claims(w io.Writer, runs []Run) {
	spec := find(runs, func(r Run) bool { return r.Block() == "spec" })
	fmt.Fprintf(w, "## The seed's qualitative claims (spec block)\n\n")
	improved, maxImp, maxAt := 0, 0.0, ""
	var imps []float64
	for _, r := range spec {
		if r.Imp > 0.005 {
			improved++
			imps = append(imps, r.Imp)
			if r.Imp > maxImp {
				maxImp, maxAt = r.Imp, fmt.Sprintf("%s k=%d %s", r.Dataset, r.K, r.Config())
			}
		}
	}
	slices.Sort(imps)
	rng := "—"
	if len(imps) > 0 {
		rng = fmt.Sprintf("%.2f%% to %.2f%%", imps[0], imps[len(imps)-1])
	}
	fmt.Fprintf(w, "- **Improves its start in about 46%% of the cells (25 of 54), by 1.30%%–45.00%%.** Ours: %d of %d cells, %s; "+
		"the largest gain is %.2f%% (%s). The seed's largest was EIA k=10 from MDAV (45%%).\n", improved, len(spec), rng, maxImp, maxAt)
	varies := 0
	groups := 0
	for _, ds := range Datasets {
		for _, k := range []int{3, 5, 10} {
			for _, st := range []string{"mdav", "gsms"} {
				rs := find(spec, func(r Run) bool { return r.Dataset == ds && r.K == k && r.Start == st })
				if len(rs) == 0 {
					continue
				}
				groups++
				for _, r := range rs[1:] {
					if math.Abs(r.IL-rs[0].IL) > 0.005 {
						varies++
						break
					}
				}
			}
		}
	}
	fmt.Fprintf(w, "- **γ0 has no systematic effect.** Ours: the IL differs between γ0 = 10, 20, 30 in %d of %d (dataset, k, start) groups.\n", varies, groups)
	var parts []string
	for _, ds := range Datasets {
		var ts []string
		for _, k := range []int{3, 5, 10} {
			rs := find(spec, func(r Run) bool { return r.Dataset == ds && r.K == k })
			var s float64
			for _, r := range rs {
				s += r.Seconds
			}
			if len(rs) > 0 {
				ts = append(ts, fmt.Sprintf("%.2f", s/float64(len(rs))))
			}
		}
		parts = append(parts, ds+" "+strings.Join(ts, " / "))
	}
	fmt.Fprintf(w, "- **Time falls with k.** Our mean seconds for k = 3 / 5 / 10: %s.\n", strings.Join(parts, "; "))
	fmt.Fprintf(w, "- **Three new best-known solutions** (bold lost in the text; candidates Tarragona k=3 15.44, k=5 20.93, "+
		"Census k=10 13.16, EIA k=5 0.79, k=10 2.05): see the criterion table for where our best is lower.\n\n")
}
