package analysis

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// Result is everything Analyze computed for one results folder.
type Result struct {
	Dir      string
	Name     string               // experiment name (manifest, else the folder name)
	Manifest *resultsdir.Manifest // nil when the folder has none
	Runs     *Runs
	Traces   []Trace
	Plan     *Plan
	Status   map[string]int // runs per status

	Summary  []SummaryRow
	Pairs    []PairRow
	Best     []BestRow
	Cells    map[string][]Cell // per metric
	Wins     []WinRow
	Gaps     []GapRow
	Friedman []FriedmanRow
	// Pareto holds every configuration's (loss, risk) per block with its non-domination rank;
	// ParetoWins how often each is on the front (Plan.Tradeoff).
	Pareto     []ParetoRow
	ParetoWins []ParetoWin
	// Fronts are the Pareto rows of every pair of Plan.Tradeoffs, Fronts[0] being Pareto.
	Fronts [][]ParetoRow
	// Recommend holds the recommendation under Plan.RiskBound per instance and loss metric.
	Recommend []Recommendation
	// Disagree lists the instances where two risk measures order configurations differently.
	Disagree []Disagreement
	// Profiles are the performance profiles per metric.
	Profiles map[string][]ProfileRow
	// Seed is the comparison with the seed's published numbers; SeedFile is where they came from.
	Seed     []SeedRow
	SeedFile string
	// bundled is Config.Bundled, where REPORT.md's notes come from.
	bundled fs.FS
	// Pivots are the literature-style tables of Config.Table.
	Pivots []Pivot
	// Plots are the figures written by Write, by base name (without extension) under plots/.
	Plots []Figure
	// gzipped lists the tables Write stored as NAME.csv.gz (over gzipAbove).
	gzipped []string
	// Original is the unprotected original of each dataset, a reference row beside the
	// configurations (original.go); OriginalNotes says what kept it from being measured.
	Original      []OriginalRow
	OriginalNotes []string
	originalKey   string
	originalCols  []string
	originalCache []OriginalRow // Original as measured, written to original.csv
}

// LoadConfig returns the [analysis] table of the spec stored in dir/manifest.json (SpecConfig),
// or the zero Config when there is no manifest or no table.
func LoadConfig(dir string) (Config, error) {
	m, err := ReadManifest(dir)
	if err != nil || m == nil || m.Spec == "" {
		return Config{}, err
	}
	s, err := experiments.Decode([]byte(m.Spec), filepath.Join(dir, resultsdir.ManifestFile))
	if err != nil {
		return Config{}, fmt.Errorf("analysis: spec: %w", err)
	}
	return SpecConfig(s)
}

// Analyze reads the results folder dir and computes every table of the analysis configured by
// cfg (typically LoadConfig(dir) with command-line overrides). It writes nothing; see Write.
func Analyze(ctx context.Context, dir string, cfg Config) (*Result, error) {
	runs, err := ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	man, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return analyzeRuns(ctx, dir, runs, man, cfg, nil)
}

// analyzeRuns is Analyze on runs already read; pairs, when not nil, restricts the pairwise
// tests to the configuration pairs it accepts.
func analyzeRuns(ctx context.Context, dir string, runs *Runs, man *resultsdir.Manifest, cfg Config, pairs func(a, b string) bool) (*Result, error) {
	var err error
	res := &Result{Dir: dir, Manifest: man, Runs: runs, Name: filepath.Base(filepath.Clean(dir)),
		Status: map[string]int{}, Cells: map[string][]Cell{}, Profiles: map[string][]ProfileRow{}, bundled: cfg.Bundled}
	var specMetrics []string
	if man != nil {
		if man.Name != "" {
			res.Name = man.Name
		}
		if man.Spec != "" {
			s, err := experiments.Decode([]byte(man.Spec), filepath.Join(dir, resultsdir.ManifestFile))
			if err != nil {
				return nil, fmt.Errorf("analysis: spec: %w", err)
			}
			// the measures a rescore added come after the spec's (resultsdir.Manifest.Rescored)
			specMetrics = append(s.Metrics, man.RescoredMetrics()...)
		}
	}
	st := runs.Col("status")
	for _, r := range runs.Rows {
		res.Status[r.Cells[st]]++
	}
	if res.Status["ok"] == 0 {
		return nil, fmt.Errorf("analysis: %s: no run finished ok", dir)
	}
	if res.Traces, err = ReadTraces(dir); err != nil && pairs == nil {
		return nil, err
	}
	p, err := cfg.Resolve(runs, specMetrics)
	if err != nil {
		return nil, err
	}
	res.Plan = p
	p.pairs = pairs
	if pairs == nil { // a baseline comparison has its folder's original already
		res.loadOriginals(specMetrics)
	}
	all := append([]string(nil), p.Metrics...)
	for _, m := range p.BestBy {
		if !contains(all, m) {
			all = append(all, m)
		}
	}
	summaryCols := all
	if runs.ValueCol("seconds") >= 0 && !contains(all, "seconds") {
		summaryCols = append(append([]string(nil), all...), "seconds")
	}
	res.Summary = Summaries(p, runs, summaryCols)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Best = Best(p, runs)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Pairs = Pairwise(p, runs, all)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, m := range p.Metrics {
		if p.Wins || p.Gaps {
			cells := Cells(p, runs, m)
			res.Cells[m] = cells
			if p.Wins {
				res.Wins = append(res.Wins, WinRows(cells)...)
			}
			if p.Gaps {
				res.Gaps = append(res.Gaps, GapRows(cells)...)
			}
		}
		if p.Friedman && len(p.Configs) >= 2 {
			res.Friedman = append(res.Friedman, FriedmanTable(p, runs, m)...)
		}
		res.Profiles[m] = Profiles(p, runs, m)
	}
	res.Pareto, res.ParetoWins = Pareto(p, runs)
	res.Fronts = [][]ParetoRow{res.Pareto}
	for _, pair := range p.Tradeoffs[min(1, len(p.Tradeoffs)):] {
		rows, _ := ParetoOf(p, runs, pair)
		res.Fronts = append(res.Fronts, rows)
	}
	res.bestFront()
	res.Recommend = Recommend(p, runs)
	res.Disagree = Disagreements(p, runs)
	if res.Pivots, err = Pivots(res.pivotRuns(cfg.Table), cfg.Table); err != nil {
		return nil, err
	}
	if pairs != nil { // a baseline comparison: no seed table, no traces
	} else if res.SeedFile = findSeed(dir, res.Name, cfg.Seed, cfg.Bundled); res.SeedFile != "" {
		if res.Seed, err = CompareSeed(res, res.SeedFile); err != nil {
			return nil, err
		}
	} else if cfg.Seed != "" {
		return nil, fmt.Errorf("analysis: seed: %s not found", cfg.Seed)
	}
	return res, ctx.Err()
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// findSeed returns the seed comparison file: name as given (absolute, or relative to dir, the
// working directory or bundled), or by default dir/seed.csv, the study's
// studies/*/<experiment>.expected.csv when the working directory is the repository's root, or
// the bundled <experiment>.expected.csv; "" when there is none. A bundled file is copied into
// dir (as seed.csv by default) to keep the results folder self-contained.
func findSeed(dir, experiment, name string, bundled fs.FS) string {
	var cands []string
	switch {
	case name == "":
		cands = []string{filepath.Join(dir, "seed.csv")}
		if m, _ := filepath.Glob(filepath.Join("studies", "*", experiment+".expected.csv")); len(m) == 1 {
			cands = append(cands, m[0])
		}
	case filepath.IsAbs(name):
		cands = []string{name}
	default:
		cands = []string{filepath.Join(dir, name), name}
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	if bundled == nil || filepath.IsAbs(name) {
		return ""
	}
	src, dst := experiment+".expected.csv", filepath.Join(dir, "seed.csv")
	if name != "" {
		src, dst = filepath.ToSlash(name), filepath.Join(dir, filepath.Base(name))
	}
	if data, err := fs.ReadFile(bundled, src); err == nil {
		if datasets.AtomicWrite(dst, func(w io.Writer) error { _, err := w.Write(data); return err }) == nil {
			return dst
		}
	}
	return ""
}

// Write writes the tables, the plots (unless turned off), REPORT.md and report.html
// (WriteHTML) into out (the results folder when empty). Existing files of the same names are
// replaced. REPORT.md goes through resultsdir.WriteReport, once.
func (r *Result) Write(ctx context.Context, out string) error {
	if out == "" {
		out = r.Dir
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	if err := resultsdir.CheckAnalysisOutputs(out); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	datasets.RemoveStaleTemps(out) // left by a killed run, merge or analysis
	datasets.RemoveStaleTemps(filepath.Join(out, "plots"))
	r.gzipped = nil
	byCols := make([]string, len(r.Plan.WinsBy))
	for i, c := range r.Plan.WinsBy {
		byCols[i] = short(c)
	}
	tables := []struct {
		name   string
		header []string
		rows   func() [][]string
		on     bool
	}{
		{"summary.csv", []string{"metric", "config", "n", "n_missing", "mean", "sd", "min", "q1", "median", "q3", "max"}, func() [][]string {
			var rows [][]string
			for _, s := range r.withOriginalSummaries() {
				rows = append(rows, []string{s.Metric, s.Config, itoa(s.N), itoa(s.Missing), ftoa(s.Mean), ftoa(s.SD), ftoa(s.Min), ftoa(s.Q1), ftoa(s.Median), ftoa(s.Q3), ftoa(s.Max)})
			}
			return rows
		}, true},
		{"wilcoxon.csv", []string{"metric", "config_a", "config_b", "test", "n_a", "n_b", "median_a", "median_b", "statistic", "z", "p_value", "p_holm", "p_bh", "estimate", "ci_low", "ci_high", "conf_level", "a12", "method", "warnings", "effect_r"}, func() [][]string {
			var rows [][]string
			for _, p := range r.Pairs {
				est, lo, hi, lvl := math.NaN(), math.NaN(), math.NaN(), math.NaN()
				if s := p.Shift; s != nil {
					est, lo, hi, lvl = s.Estimate, s.Lo, s.Hi, s.Level
				}
				rows = append(rows, []string{p.Metric, p.A, p.B, r.Plan.Test, itoa(p.N1), itoa(p.N2), ftoa(p.MedianA), ftoa(p.MedianB), ftoa(p.Statistic), ftoa(p.Z), ftoa(p.P), ftoa(p.PHolm), ftoa(p.PBH), ftoa(est), ftoa(lo), ftoa(hi), ftoa(lvl), ftoa(p.A12), p.Method, joinErrs(p.Warnings), ftoa(p.R)})
			}
			return rows
		}, true},
		{"best.csv", append([]string{"metric", "rank", "config", "median", "n", "p_value", "p_holm", "p_bh", "same_as_best", "risk_metric", "risk_median", "pareto_wins", "pareto_instances",
			"test", "estimate", "ci_low", "ci_high", "conf_level", "effect_r", "kind", "warnings"}, shortAll(r.Plan.Units)...), func() [][]string {
			var rows [][]string
			for _, b := range r.Best {
				kind := "replicates"
				if b.Fixed {
					kind = "fixed"
				}
				rows = append(rows, append([]string{b.Metric, itoa(b.Rank), b.Config, ftoa(b.Median), itoa(b.N), ftoa(b.P), ftoa(b.PHolm), ftoa(b.PBH), strconv.FormatBool(b.SameAsBest), b.RiskMetric, ftoa(b.RiskMedian), itoa(b.ParetoWins), itoa(b.ParetoInstances),
					b.Vs.Test, ftoa(b.Vs.Estimate), ftoa(b.Vs.Lo), ftoa(b.Vs.Hi), ftoa(b.Vs.Level), ftoa(b.Vs.Effect), kind, joinErrs(b.Vs.Warnings)}, b.Instance...))
			}
			return rows
		}, true},
		{"wins.csv", append(append([]string{"metric"}, byCols...), "config", "wins", "instances", "win_pct", "n_nan", "n_missing", "pareto_wins", "pareto_instances"), func() [][]string {
			var rows [][]string
			for _, w := range r.Wins {
				pw, pi := r.paretoWinsOf(w.By, w.Config)
				rows = append(rows, append(append([]string{w.Metric}, w.By...), w.Config, itoa(w.Wins), itoa(w.Instances), ftoa(w.Pct), itoa(w.Missing), itoa(w.NoWinner), itoa(pw), itoa(pi)))
			}
			return rows
		}, r.Plan.Wins},
		{"pareto.csv", append(shortAll(r.Plan.TradeoffBy()), "config", "loss_metric", "loss", "risk_metric", "risk", "rank", "front"), func() [][]string {
			var rows [][]string
			for _, front := range r.Fronts {
				for _, pr := range front {
					rows = append(rows, append(append([]string(nil), pr.By...), pr.Config, pr.LossMetric, ftoa(pr.Loss), pr.RiskMetric, ftoa(pr.Risk), itoa(pr.Rank), strconv.FormatBool(pr.Front)))
				}
			}
			return rows
		}, len(r.Pareto) > 0},
		{"recommend.csv", append(append([]string{"loss_metric", "config", "loss_median"}, boundCols(r.Plan)...), "eligible", "total", "runner_up", "runner_up_loss", "test", "estimate", "ci_low", "ci_high", "conf_level", "effect_r", "p_value", "instance"), func() [][]string {
			var rows [][]string
			for _, rc := range r.Recommend {
				row := []string{rc.Loss, rc.Config, ftoa(rc.LossMedian)}
				for _, m := range slices.Sorted(maps.Keys(r.Plan.RiskBound)) {
					v, ok := rc.Risk[m]
					if !ok {
						v = math.NaN()
					}
					row = append(row, ftoa(v))
				}
				rows = append(rows, append(row, itoa(rc.Eligible), itoa(rc.Total), rc.RunnerUp, ftoa(rc.RunnerLoss), rc.Vs.Test, ftoa(rc.Vs.Estimate), ftoa(rc.Vs.Lo), ftoa(rc.Vs.Hi), ftoa(rc.Vs.Level), ftoa(rc.Vs.Effect), ftoa(rc.Vs.P), instanceName(r.Plan.Units, rc.Instance)))
			}
			return rows
		}, len(r.Plan.RiskBound) > 0},
		{"profiles.csv", []string{"metric", "config", "instances", "rho_1", "rho_2", "rho_10"}, func() [][]string {
			var rows [][]string
			for _, m := range r.Plan.Metrics {
				for _, pr := range r.Profiles[m] {
					rows = append(rows, []string{pr.Metric, pr.Config, itoa(pr.Instances), ftoa(pr.Rho1), ftoa(pr.Rho2), ftoa(pr.Rho10)})
				}
			}
			return rows
		}, len(r.Profiles) > 0},
		{"gaps.csv", append(append([]string{"metric"}, byCols...), "config", "n", "n_nan", "gapmin", "median", "mean", "sd", "gapmax"), func() [][]string {
			var rows [][]string
			for _, g := range r.Gaps {
				rows = append(rows, append(append([]string{g.Metric}, g.By...), g.Config, itoa(g.N), itoa(g.NaN), ftoa(g.Min), ftoa(g.Median), ftoa(g.Mean), ftoa(g.SD), ftoa(g.Max)))
			}
			return rows
		}, r.Plan.Gaps},
		{"friedman.csv", []string{"metric", "config", "mean_rank", "blocks", "configs", "statistic", "df", "p_value", "cd", "alpha"}, func() [][]string {
			var rows [][]string
			for _, f := range r.Friedman {
				rows = append(rows, []string{f.Metric, f.Config, ftoa(f.MeanRank), itoa(f.N), itoa(f.K), ftoa(f.Statistic), itoa(f.DF), ftoa(f.P), ftoa(f.CD), ftoa(f.Alpha)})
			}
			return rows
		}, r.Plan.Friedman},
	}
	for _, t := range tables {
		if !t.on {
			continue
		}
		gz, err := writeTableCSV(filepath.Join(out, t.name), t.header, t.rows())
		if err != nil {
			return err
		}
		if gz {
			r.gzipped = append(r.gzipped, t.name)
		}
	}
	if len(r.Seed) > 0 {
		if err := writeCSV(filepath.Join(out, "seed_comparison.csv"), seedHeader, seedRows(r.Seed)); err != nil {
			return err
		}
	}
	r.Plots = nil
	if r.Plan.Plots {
		figs, err := r.Figures()
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !r.Plan.SVG {
			for i := range figs {
				figs[i].noSVG = true
			}
		}
		if r.Plots, err = SaveFigures(filepath.Join(out, "plots"), figs); err != nil {
			return err
		}
	}
	if err := writePivotCSVs(out, r.Pivots); err != nil {
		return err
	}
	if err := r.writeOriginals(out); err != nil {
		return err
	}
	if err := resultsdir.WriteReport(out, func(w io.Writer) error { r.report(w); return nil }); err != nil {
		return err
	}
	return WriteHTML(out) // report.html from REPORT.md and the tables just written
}

// Run analyses dir with cfg and writes everything into dir: Analyze followed by Write.
func Run(ctx context.Context, dir string, cfg Config) (*Result, error) {
	res, err := Analyze(ctx, dir, cfg)
	if err != nil {
		return nil, err
	}
	return res, res.Write(ctx, dir)
}

// Quick is the short analysis for the end of a run (the quickstart): it analyses dir with the
// spec's [analysis] table and the bundled files of Config.Bundled, writes every table, plot
// and REPORT.md into dir, and prints the brief digest of WriteBrief to w (nil for none).
func Quick(ctx context.Context, dir string, bundled fs.FS, w io.Writer) (*Result, error) {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	cfg.Bundled = bundled
	res, err := Run(ctx, dir, cfg)
	if err != nil {
		return nil, err
	}
	if w != nil {
		return res, res.WriteBrief(w)
	}
	return res, nil
}

// gzipAbove is the size above which an analysis table is written gzipped (NAME.csv.gz), as
// runs.csv is, to keep results folders small.
const gzipAbove = 1 << 20

// writeTableCSV writes an analysis table as path, or as path.gz when its text exceeds gzipAbove;
// the other of the two is removed so that a folder never holds both.
func writeTableCSV(path string, header []string, rows [][]string) (gzipped bool, err error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(header)
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		return false, fmt.Errorf("analysis: %s: %w", path, err)
	}
	if buf.Len() <= gzipAbove {
		if err := datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
			return false, fmt.Errorf("analysis: %w", err)
		}
		os.Remove(path + ".gz")
		return false, nil
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(buf.Bytes())
	if err := zw.Close(); err != nil {
		return false, fmt.Errorf("analysis: %s: %w", path, err)
	}
	if err := datasets.AtomicWrite(path+".gz", func(w io.Writer) error { _, err := w.Write(z.Bytes()); return err }); err != nil {
		return false, fmt.Errorf("analysis: %w", err)
	}
	os.Remove(path)
	return true, nil
}

// writeCSV writes a table to path atomically (datasets.AtomicWrite).
func writeCSV(path string, header []string, rows [][]string) error {
	err := datasets.AtomicWrite(path, func(f io.Writer) error {
		w := csv.NewWriter(f)
		w.Write(header)
		w.WriteAll(rows)
		w.Flush()
		return w.Error()
	})
	if err != nil {
		return fmt.Errorf("analysis: %s: %w", path, err)
	}
	return nil
}

// boundCols names recommend.csv's columns of the bounded measures' medians.
func boundCols(p *Plan) []string { return slices.Sorted(maps.Keys(p.RiskBound)) }

func itoa(i int) string { return strconv.Itoa(i) }

// ftoa formats a float as runs.csv does: shortest round-trip form, NaN, +Inf, -Inf.
func ftoa(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func joinErrs(errs []error) string {
	s := make([]string, len(errs))
	for i, e := range errs {
		s[i] = strings.TrimPrefix(e.Error(), "stats: ")
	}
	return strings.Join(s, "; ")
}
