package analysis

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// report writes REPORT.md: what was analysed, links to every table and plot, the key tables in
// Markdown and, when a seed file was found, the seed's numbers beside ours.
func (r *Result) report(w io.Writer) {
	p := r.Plan
	fmt.Fprintf(w, "# %s: analysis\n\n", r.Name)
	if m := r.Manifest; m != nil {
		fmt.Fprintf(w, "Spec hash `%.12s`, sdcbench %s, %s, %s/%s, %d CPUs; started %s, finished %s.\n\n",
			m.SpecHash, m.Tool, m.GoVersion, m.OS, m.Arch, m.CPUs, stamp(m.Started), stamp(m.Finished))
	}
	r.reportAnswer(w)
	fmt.Fprintf(w, "## Settings\n\n")
	statuses := make([]string, 0, len(r.Status))
	for s, n := range r.Status {
		statuses = append(statuses, fmt.Sprintf("%s %d", s, n))
	}
	slices.Sort(statuses)
	fmt.Fprintf(w, "- Runs: %d (%s); only ok runs are analysed.\n", len(r.Runs.Rows), strings.Join(statuses, ", "))
	fmt.Fprintf(w, "- Configurations (%d): %s, defined by %s.\n", len(p.Configs), backquote(p.Configs), names(p.ConfigCols))
	fmt.Fprintf(w, "- Metrics: %s (direction from the metrics registry; non-finite values are missing, metrics.md §0.4).\n", backquote(p.Metrics))
	blocks := "none (pooled samples)"
	if len(p.Blocks) > 0 {
		blocks = names(p.Blocks)
	}
	fmt.Fprintf(w, "- Blocks: %s; verdicts per %s (%s). A randomized method's replicates are independent observations, equal or not; a deterministic method's identical replicates count once (methods registry). Across blocks a configuration's replicates in a block enter as their %s; the replicate index is never a block (docs/analysis.md).\n", blocks, unitWord(p.Units), names(p.Units), p.ReplicateAgg)
	fmt.Fprintf(w, "- Tests on one %s: as R `wilcox.test` with its defaults (rank-sum, one-sample signed-rank against a deterministic value, or the exact difference of two deterministic values). Pairwise tests across blocks: Wilcoxon %s, two-sided, as R `wilcox.test` except that ties use the exact conditional distribution when small; alpha = %g; p-values adjusted per metric (Holm, BH). Every test carries the Hodges–Lehmann shift with its 95 %% interval (R `conf.int = TRUE`) and the rank-biserial r (A12 too across blocks).\n", unitWord(p.Units), p.Test, p.Alpha)
	if len(p.Tradeoff) == 2 {
		fmt.Fprintf(w, "- Risk–utility trade-off: `%s` (%s) against `%s` (risk), Pareto fronts per %s.\n", p.Tradeoff[0], utilityWord(p.Tradeoff[0]), p.Tradeoff[1], names(p.TradeoffBy()))
	}
	fmt.Fprintf(w, "- Wins and gaps: instances = %s", names(p.Instances))
	if len(p.WinsBy) > 0 {
		fmt.Fprintf(w, ", reported per %s", names(p.WinsBy))
	}
	fmt.Fprintf(w, "; ties within 1e-9·max(1, |v*|) share the win (metrics.md §6.1-6.2).\n")
	fmt.Fprintf(w, "- Quartiles are R's type 7 (`quantile(x)`); SD uses n−1.\n")
	for _, warn := range p.Warnings {
		fmt.Fprintf(w, "- Note: %s.\n", warn)
	}
	r.reportNotes(w)
	r.reportPivots(w)
	if p.Means {
		r.reportMeans(w)
	}
	fmt.Fprintf(w, "\n## Files\n\n")
	page := "this report as one self-contained page: the answer first, sortable tables"
	if len(r.Plots) > 0 {
		page += ", plots inline"
	}
	for _, t := range []struct {
		file, what string
		on         bool
	}{
		{HTMLFile, page, true},
		{"summary.csv", "per configuration and metric: n, mean, sd, median, min, max, quartiles", true},
		{"wilcoxon.csv", "pairwise Wilcoxon tests with raw, Holm and BH p-values, Hodges–Lehmann shift, 95 % interval and A12", true},
		{"best.csv", "configurations ranked by median, with the test against the best and the risk beside the loss", true},
		{"pareto.csv", "every configuration's (loss, risk) per block with its Pareto rank (1 = front)", len(r.Pareto) > 0},
		{"profiles.csv", "performance profiles: share of instances within a factor 1, 2, 10 of the best", len(r.Profiles) > 0},
		{"wins.csv", "win counts per metric and configuration", p.Wins},
		{"gaps.csv", "gap summaries per metric and configuration", p.Gaps},
		{"friedman.csv", "Friedman test, mean ranks and Nemenyi critical difference", p.Friedman && len(r.Friedman) > 0},
		{"seed_comparison.csv", "the seed's published numbers beside ours", len(r.Seed) > 0},
	} {
		if t.on {
			name := t.file
			if slices.Contains(r.gzipped, name) {
				name += ".gz"
			}
			fmt.Fprintf(w, "- [%s](%s): %s\n", name, name, t.what)
		}
	}
	r.reportSummary(w)
	r.reportOriginal(w)
	r.reportBest(w)
	r.reportTradeoff(w)
	r.reportPairs(w)
	r.reportProfiles(w)
	if p.Wins && len(r.Wins) > 0 {
		r.reportWins(w)
	}
	if p.Gaps && len(r.Gaps) > 0 {
		r.reportGaps(w)
	}
	if len(r.Friedman) > 0 {
		r.reportFriedman(w)
	}
	if len(r.Seed) > 0 {
		r.reportSeed(w)
	}
	if len(r.Plots) > 0 {
		fmt.Fprintf(w, "\n## Plots\n\n")
		for _, f := range r.Plots {
			if f.SVG {
				fmt.Fprintf(w, "### %s\n\n![%s](plots/%s.png)\n\n[SVG](plots/%s.svg) · [PNG](plots/%s.png)\n\n", f.Title, f.Title, f.Name, f.Name, f.Name)
			} else {
				fmt.Fprintf(w, "### %s\n\n![%s](plots/%s.png)\n\n", f.Title, f.Title, f.Name)
			}
		}
	}
}

func names(cols []string) string {
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = short(c)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func backquote(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

// num prints a number for a Markdown table: 4 significant digits, "–" for NaN.
func num(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func table(w io.Writer, header []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

func (r *Result) reportSummary(w io.Writer) {
	fmt.Fprintf(w, "\n## Summary\n\nMedian [Q1, Q3] per configuration (n ok values; see summary.csv for mean, sd, min, max).\n\n")
	ms := r.Plan.Metrics
	cells := map[[2]string]SummaryRow{}
	for _, s := range r.Summary {
		cells[[2]string{s.Metric, s.Config}] = s
	}
	header := append([]string{"configuration"}, ms...)
	if r.Runs.ValueCol("seconds") >= 0 && !slices.Contains(ms, "seconds") {
		ms = append(slices.Clone(ms), "seconds")
		header = append(header, "seconds")
	}
	var rows [][]string
	for _, c := range r.Plan.Configs {
		row := []string{c}
		for _, m := range ms {
			s := cells[[2]string{m, c}]
			row = append(row, fmt.Sprintf("%s [%s, %s] (%d)", num(s.Median), num(s.Q1), num(s.Q3), s.N))
		}
		rows = append(rows, row)
	}
	if o := r.originalSummaries(ms); len(o) > 0 { // the reference row (original.go)
		row := []string{OriginalName + " (reference)"}
		for _, m := range ms {
			s := SummaryRow{Summary: stats.NewSample(nil).Summary()}
			for _, x := range o {
				if x.Metric == m {
					s = x
				}
			}
			row = append(row, fmt.Sprintf("%s [%s, %s] (%d)", num(s.Median), num(s.Q1), num(s.Q3), s.N))
		}
		rows = append([][]string{row}, rows...)
	}
	table(w, header, rows)
}

// maxBestRows bounds the rows of REPORT.md's best table; best.csv has them all.
const maxBestRows = 300

func (r *Result) reportBest(w io.Writer) {
	p := r.Plan
	fmt.Fprintf(w, "## Best configuration per %s\n\nBy median on each %s (%s); the five best and every configuration not significantly different from the best (\"same\", %s p ≥ %g), each with its comparison with the best: the difference configuration − best (Hodges–Lehmann, or exact for two deterministic values) with its 95 %% interval, the rank-biserial r and the p-value (docs/analysis.md \"Tests that fit the design\"). Full ranking in best.csv.\n\n",
		unitWord(p.Units), unitWord(p.Units), names(p.Units), adjName(p), p.Alpha)
	var rows [][]string
	more := 0
	for _, b := range r.Best {
		if b.Rank == 0 || !(b.Rank <= 5 || b.SameAsBest) { // Rank 0: no value (a measure that does not apply)
			continue
		}
		if len(rows) == maxBestRows {
			more++
			continue
		}
		same := ""
		if b.SameAsBest {
			same = "same"
		}
		if b.Rank == 1 {
			same = "**best**"
		}
		risk := ""
		if b.RiskMetric != "" {
			risk = b.RiskMetric + " " + num(b.RiskMedian)
		}
		front := ""
		if b.ParetoInstances > 0 {
			front = map[bool]string{true: "yes", false: "no"}[b.ParetoWins > 0]
		}
		diff, ci := "", ""
		if b.Rank > 1 {
			diff = num(b.Vs.Estimate)
			ci = "[" + num(b.Vs.Lo) + ", " + num(b.Vs.Hi) + "]"
		}
		rows = append(rows, []string{b.Metric, instanceName(p.Units, b.Instance), strconv.Itoa(b.Rank), b.Config, num(b.Median), strconv.Itoa(b.N),
			b.Vs.Test, diff, ci, num(b.Vs.Effect), num(b.P), num(b.PHolm), num(b.PBH), same, risk, front})
	}
	table(w, []string{"metric", unitWord(p.Units), "rank", "configuration", "median", "n", "test", "difference", "95 % CI", "r", "p", "p Holm", "p BH", "vs best", "risk (median)", "on front"}, rows)
	if more > 0 {
		fmt.Fprintf(w, "%d more rows in best.csv.\n\n", more)
	}
}

func (r *Result) reportPairs(w io.Writer) {
	ref := ""
	if len(r.Plan.Configs) > MaxPairwiseConfigs {
		ref = fmt.Sprintf(" With %d configurations (more than %d) each is tested against the metric's reference only, the configuration best on the most blocks.", len(r.Plan.Configs), MaxPairwiseConfigs)
	}
	fmt.Fprintf(w, "## Pairwise tests across %s\n\nWilcoxon %s tests over the blocks (each configuration's replicates in a block aggregated by %s): the number of configuration pairs whose difference is significant at alpha = %g (wilcoxon.csv has every pair tested, with the Hodges–Lehmann shift, its interval, A12 and the rank-biserial r).%s\n\n", names(r.Plan.Blocks), r.Plan.Test, r.Plan.ReplicateAgg, r.Plan.Alpha, ref)
	var rows [][]string
	for _, m := range r.Plan.BestBy {
		var n, raw, holm, bh, warn int
		for _, p := range r.Pairs {
			if p.Metric != m {
				continue
			}
			n++
			if p.P < r.Plan.Alpha {
				raw++
			}
			if p.PHolm < r.Plan.Alpha {
				holm++
			}
			if p.PBH < r.Plan.Alpha {
				bh++
			}
			if len(p.Warnings) > 0 {
				warn++
			}
		}
		rows = append(rows, []string{m, strconv.Itoa(n), strconv.Itoa(raw), strconv.Itoa(holm), strconv.Itoa(bh), strconv.Itoa(warn)})
	}
	table(w, []string{"metric", "pairs", "p < alpha", "Holm < alpha", "BH < alpha", "with warnings"}, rows)
}

func (r *Result) reportWins(w io.Writer) {
	fmt.Fprintf(w, "## Wins\n\nWins (percentage of instances). With ties the wins of a row of instances can add up to more than their number; n/a counts instances where the configuration has no finite value.\n\n")
	header := append([]string{"metric"}, shortAll(r.Plan.WinsBy)...)
	header = append(header, "configuration", "wins", "n/a", "no winner")
	var rows [][]string
	for _, x := range r.Wins {
		row := append(append([]string{x.Metric}, x.By...), x.Config, fmt.Sprintf("%d/%d (%.0f%%)", x.Wins, x.Instances, x.Pct), strconv.Itoa(x.Missing), strconv.Itoa(x.NoWinner))
		rows = append(rows, row)
	}
	table(w, header, rows)
}

func (r *Result) reportGaps(w io.Writer) {
	fmt.Fprintf(w, "## Gaps\n\nGap to the best over instances, (s − min)/(max − min) per instance (0 when max = min), MAGGA study Tables 5.6-5.8.\n\n")
	header := append([]string{"metric"}, shortAll(r.Plan.WinsBy)...)
	header = append(header, "configuration", "n", "gapmin", "median", "mean", "sd", "gapmax")
	var rows [][]string
	for _, g := range r.Gaps {
		rows = append(rows, append(append([]string{g.Metric}, g.By...), g.Config, strconv.Itoa(g.N), num(g.Min), num(g.Median), num(g.Mean), num(g.SD), num(g.Max)))
	}
	table(w, header, rows)
}

func (r *Result) reportFriedman(w io.Writer) {
	fmt.Fprintf(w, "## Friedman test\n\nBlocks: %s (complete blocks only). Mean rank 1 is the best; two configurations whose mean ranks differ by more than the Nemenyi CD differ at alpha = %g.\n\n", r.Plan.friedmanBlocks(), r.Plan.Alpha)
	var rows [][]string
	for _, f := range r.Friedman {
		rows = append(rows, []string{f.Metric, f.Config, num(f.MeanRank), strconv.Itoa(f.N), num(f.Statistic), strconv.Itoa(f.DF), num(f.P), num(f.CD)})
	}
	table(w, []string{"metric", "configuration", "mean rank", "blocks", "χ²", "df", "p", "CD"}, rows)
}

func (r *Result) reportSeed(w io.Writer) {
	fmt.Fprintf(w, "## Seed comparison\n\nPublished numbers from `%s` beside ours; verdicts as docs/reproducing.md defines them.\n\n", r.SeedFile)
	count := map[resultsdir.Verdict]int{}
	var rows [][]string
	for _, s := range r.Seed {
		count[s.Verdict]++
		crit := s.Criterion
		switch {
		case s.Expect != "":
			crit += " (" + s.Expect + ")"
		case s.Tolerance != 0:
			crit += " (±" + ftoa(s.Tolerance) + ")"
		}
		ours := s.OursText
		if !math.IsNaN(s.Ours) {
			ours = num(s.Ours)
			if _, err := strconv.ParseFloat(s.Published, 64); err == nil {
				ours = strconv.FormatFloat(s.Ours, 'f', decimals(s.Published)+2, 64)
			}
		}
		rows = append(rows, []string{s.Table, s.Item, string(s.Source), s.Stat + " " + s.Metric, s.Published, ours, num(s.Diff), crit, string(s.Verdict), s.Note})
	}
	table(w, []string{"table", "item", "source", "quantity", "published", "ours", "difference", "criterion", "verdict", "note"}, rows)
	fmt.Fprintf(w, "Verdicts: %d exact, %d within tolerance, %d pattern, %d not reproduced.\n", count[resultsdir.Exact], count[resultsdir.Tolerance], count[resultsdir.Pattern], count[resultsdir.NotReproduced])
}

func shortAll(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = short(c)
	}
	return out
}

// WriteBrief prints a short plain-text digest of r to w, for the end of `sdcbench run` (the
// quickstart): per metric and instance (at most five instances) the best configuration by
// median and those not significantly different from it, and the recommendations under the
// risk bound.
func (r *Result) WriteBrief(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "analysis of %s: %d configurations, alpha %g, verdicts per %s\n", r.Name, len(r.Plan.Configs), r.Plan.Alpha, unitWord(r.Plan.Units))
	for _, m := range r.Plan.BestBy {
		shown := 0
		for i, b := range r.Best {
			if b.Metric != m || b.Rank != 1 {
				continue
			}
			if shown++; shown > 5 {
				fmt.Fprintf(bw, "  %-22s … more in best.csv\n", m)
				break
			}
			risk := ""
			if b.RiskMetric != "" {
				risk = fmt.Sprintf(", at %s %s", b.RiskMetric, num(b.RiskMedian))
			}
			var same []string
			for _, o := range r.Best[i+1:] {
				if o.Metric != m || o.Rank == 1 {
					break
				}
				if o.SameAsBest {
					same = append(same, o.Config)
				}
			}
			fmt.Fprintf(bw, "  %-22s %s: best %s (median %s, %s%s)", m, instanceName(r.Plan.Units, b.Instance), b.Config, num(b.Median), r.Plan.dirs[m], risk)
			if len(same) > maxSame {
				same = append(same[:maxSame], fmt.Sprintf("%d more", len(same)-maxSame))
			}
			if len(same) > 0 {
				fmt.Fprintf(bw, "; not significantly different: %s", strings.Join(same, ", "))
			}
			fmt.Fprintln(bw)
		}
	}
	for i, rc := range r.Recommend {
		if i == 5 {
			fmt.Fprintf(bw, "  … more recommendations in recommend.csv\n")
			break
		}
		if rc.Config != "" {
			fmt.Fprintf(bw, "  recommended on %s under the risk bound, lowest %s: %s (%s)\n", instanceName(r.Plan.Units, rc.Instance), rc.Loss, rc.Config, num(rc.LossMedian))
		} else {
			fmt.Fprintf(bw, "  on %s no configuration meets the risk bound\n", instanceName(r.Plan.Units, rc.Instance))
		}
	}
	return bw.Flush()
}

// reportMeans writes the runner's per-dataset means (issue 2's quickstart table): one row per
// method and parameter set, every metric's mean over replicates.
func (r *Result) reportMeans(w io.Writer) {
	t := &resultsdir.Table{Header: r.Runs.Header}
	for _, row := range r.Runs.Rows {
		t.Rows = append(t.Rows, row.Cells)
	}
	t.Rows = r.withOriginalRows(t.Rows, t.Col("dataset"))
	fmt.Fprintf(w, "\n## Means per dataset\n\n")
	experiments.MeansMarkdown(w, t)
}

// stamp formats a manifest time as RFC 3339, or "" when it is not set.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// reportNotes links the folder's companion reports (the study report's Markdown files and
// reanalysis.md, as recorded in its manifest: resultsdir.CompanionReports) and includes the
// experiment's hand-written notes: dir/notes.md, else the bundled
// <name>.notes.md (Config.Bundled).
func (r *Result) reportNotes(w io.Writer) {
	if others, _ := resultsdir.CompanionReports(r.Dir); len(others) > 0 {
		var links []string
		for _, base := range others {
			if base != "notes.md" {
				links = append(links, fmt.Sprintf("[%s](%s)", base, base))
			}
		}
		if len(links) > 0 {
			fmt.Fprintf(w, "\nCompanion reports in this folder: %s.\n", strings.Join(links, ", "))
		}
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, "notes.md"))
	if err != nil {
		if r.bundled == nil {
			return
		}
		if data, err = fs.ReadFile(r.bundled, r.Name+".notes.md"); err != nil {
			return
		}
	}
	fmt.Fprintf(w, "\n## Notes\n\n%s\n", strings.TrimSpace(string(data)))
}
