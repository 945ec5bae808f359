package analysis

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// Previous holds the tables of an earlier analysis of a folder, read before a re-analysis
// overwrites them, so that WriteReanalysis can state what changed.
type Previous struct {
	Pairs map[[3]string]prevPair // by (metric, config_a, config_b)
	Best  map[string][]prevBest  // by metric, in rank order (instance by instance)
	Test  string
	// PerInstance: the previous best.csv ranked per instance (the columns after "warnings");
	// otherwise it had one ranking per metric, pooled over datasets.
	PerInstance bool
}

type prevPair struct {
	n        int
	p, pHolm float64
}

type prevBest struct {
	config   string
	same     bool
	rank     int
	instance string // the instance's values joined by a space; "" when pooled
}

// ReadPrevious reads dir/wilcoxon.csv and dir/best.csv; nil when there is no wilcoxon.csv.
func ReadPrevious(dir string) (*Previous, error) {
	w, err := readTable(filepath.Join(dir, "wilcoxon.csv"))
	if err != nil || w == nil {
		return nil, err
	}
	prev := &Previous{Pairs: map[[3]string]prevPair{}, Best: map[string][]prevBest{}}
	for _, r := range w.rows {
		k := [3]string{r[w.col["metric"]], r[w.col["config_a"]], r[w.col["config_b"]]}
		n, _ := strconv.Atoi(r[w.col["n_b"]])
		prev.Pairs[k] = prevPair{n: n, p: parseOrNaN(r[w.col["p_value"]]), pHolm: parseOrNaN(r[w.col["p_holm"]])}
		prev.Test = r[w.col["test"]]
	}
	b, err := readTable(filepath.Join(dir, "best.csv"))
	if err != nil || b == nil {
		return prev, err
	}
	last, per := b.col["warnings"]
	prev.PerInstance = per
	for _, r := range b.rows {
		m := r[b.col["metric"]]
		pb := prevBest{config: r[b.col["config"]], same: r[b.col["same_as_best"]] == "true"}
		pb.rank, _ = strconv.Atoi(r[b.col["rank"]])
		if per && last+1 < len(r) {
			pb.instance = strings.Join(r[last+1:], " ")
		}
		prev.Best[m] = append(prev.Best[m], pb)
	}
	return prev, nil
}

type csvTable struct {
	col  map[string]int
	rows [][]string
}

func readTable(path string) (*csvTable, error) {
	f, err := os.Open(path)
	var r io.Reader = f
	if os.IsNotExist(err) {
		if f, err = os.Open(path + ".gz"); os.IsNotExist(err) {
			return nil, nil
		}
		if err == nil {
			if r, err = gzip.NewReader(f); err != nil {
				f.Close()
				return nil, fmt.Errorf("analysis: %s.gz: %w", path, err)
			}
			r = datasets.LimitDecompressed(r, path+".gz")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("analysis: %s: %v", path, err)
	}
	t := &csvTable{col: map[string]int{}, rows: recs[1:]}
	for j, h := range recs[0] {
		t.col[h] = j
	}
	for _, need := range []string{"metric"} {
		if _, ok := t.col[need]; !ok {
			return nil, fmt.Errorf("analysis: %s: no column %s", path, need)
		}
	}
	return t, nil
}

func parseOrNaN(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// WriteReanalysis writes dir/reanalysis.md: what the current analysis r concludes differently
// from the previous one — tests whose verdict at alpha flipped (raw and Holm), the sizes the
// tests rest on, the best configuration and the set not significantly different from it, and
// the risk beside the best loss. Every statement is computed from the two sets of tables.
// The file is recorded as a companion report of dir (resultsdir.RecordReports), which the
// next REPORT.md links.
func (r *Result) WriteReanalysis(dir string, prev *Previous) error {
	err := datasets.AtomicWrite(filepath.Join(dir, ReanalysisFile), func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		r.reanalysis(bw, prev)
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	return resultsdir.RecordReports(dir, ReanalysisFile)
}

// ReanalysisFile is the companion report WriteReanalysis writes.
const ReanalysisFile = "reanalysis.md"

func (r *Result) reanalysis(w io.Writer, prev *Previous) {
	p := r.Plan
	alpha := p.Alpha
	fmt.Fprintf(w, "# %s: re-analysis\n\n", r.Name)
	design := fmt.Sprintf("a configuration's replicates in a block enter as their %s, tests pair on the blocks (%s), never on the replicate index", p.ReplicateAgg, names(p.Blocks))
	switch {
	case len(p.Blocks) == 0:
		design = "the tests are unpaired (no blocks), on the observations left after that"
	case p.Test == TestRankSum:
		design = fmt.Sprintf("the tests never pair on the replicate index; with the blocks (%s) unusable for pairing (see REPORT.md's notes) they compare the configurations' replicates as independent samples", names(p.Blocks))
	}
	fmt.Fprintf(w, "This folder's runs were analysed again with the statistics of docs/analysis.md: a deterministic method's identical replicates count once and a randomized method's replicates each, verdicts are per instance with tests that fit the design, %s (%s test now, %s before), small tied samples use the exact conditional distribution, and every pair has a Hodges–Lehmann interval and A12. Generated by `sdcbench analyze --reanalysis`; everything below is computed from the previous and the current tables.\n\n", design, p.Test, prev.Test)
	type flip struct {
		m, a, b          string
		oldP, newP       float64
		oldN, newN       int
		oldHolm, newHolm float64
	}
	var lost, gained []flip
	var rows [][]string
	for _, m := range p.BestBy {
		var nPairs, oldSig, newSig, oldHolm, newHolm, matched int
		var oldN, newN []float64
		for _, pr := range r.Pairs {
			if pr.Metric != m {
				continue
			}
			nPairs++
			o, ok := prev.Pairs[[3]string{m, pr.A, pr.B}]
			if !ok {
				o, ok = prev.Pairs[[3]string{m, pr.B, pr.A}]
			}
			if !ok {
				continue
			}
			matched++
			oldN, newN = append(oldN, float64(o.n)), append(newN, float64(pr.N2))
			os, ns := o.p < alpha, pr.P < alpha
			if os {
				oldSig++
			}
			if ns {
				newSig++
			}
			if o.pHolm < alpha {
				oldHolm++
			}
			if pr.PHolm < alpha {
				newHolm++
			}
			f := flip{m, pr.A, pr.B, o.p, pr.P, o.n, pr.N2, o.pHolm, pr.PHolm}
			if os && !ns {
				lost = append(lost, f)
			} else if !os && ns {
				gained = append(gained, f)
			}
		}
		rows = append(rows, []string{m, strconv.Itoa(matched), medianInt(oldN) + " → " + medianInt(newN),
			fmt.Sprintf("%d → %d", oldSig, newSig), fmt.Sprintf("%d → %d", oldHolm, newHolm)})
	}
	fmt.Fprintf(w, "## Pairwise tests\n\nPairs compared in both analyses; n is the median number of pairs (blocks) a test rests on; significant means p < %g.\n\n", alpha)
	table(w, []string{"metric", "pairs", "median n (before → now)", "significant, raw", "significant, Holm"}, rows)
	list := func(title string, fs []flip) {
		if len(fs) == 0 {
			fmt.Fprintf(w, "%s: none.\n\n", title)
			return
		}
		fmt.Fprintf(w, "%s: %d.\n\n", title, len(fs))
		var rows [][]string
		for i, f := range fs {
			if i == 25 {
				break
			}
			rows = append(rows, []string{f.m, f.a, f.b, fmt.Sprintf("%s (n=%d)", num(f.oldP), f.oldN), fmt.Sprintf("%s (n=%d)", num(f.newP), f.newN)})
		}
		table(w, []string{"metric", "A", "B", "p before", "p now"}, rows)
		if len(fs) > 25 {
			fmt.Fprintf(w, "… and %d more (compare wilcoxon.csv with its previous version).\n\n", len(fs)-25)
		}
	}
	tooFew, total := 0, 0
	for _, pr := range r.Pairs {
		total++
		for _, e := range pr.Warnings {
			if errors.Is(e, stats.ErrTooFew) {
				tooFew++
				break
			}
		}
	}
	if tooFew > 0 {
		fmt.Fprintf(w, "%d of %d tests now rest on too few blocks to ever reach p < %g (their warnings column says so): with n paired blocks the exact two-sided signed-rank p-value is at least 2/2^n, so n ≥ 6 blocks are needed for 0.05.\n\n", tooFew, total, alpha)
	}
	list("Pairs significant before and not now", lost)
	list("Pairs not significant before and significant now", gained)
	r.reanalysisBest(w, prev)
	if !p.Plots {
		fmt.Fprintf(w, "This analysis drew no plots (plots off, to keep the folder small); `sdcbench analyze %s` draws them.\n\n", r.Dir)
	}
	if len(p.Tradeoff) == 2 {
		fmt.Fprintf(w, "The previous analysis had no risk–utility trade-off; now `%s` is read with `%s` (REPORT.md \"Risk–utility trade-off\", pareto.csv).\n", p.Tradeoff[0], p.Tradeoff[1])
	}
}

// maxReanalysisBest bounds the rows of reanalysis.md's best table.
const maxReanalysisBest = 60

// reanalysisBest compares the best configurations now, per instance, with the previous ones:
// per instance when the previous best.csv was, else the previous pooled ranking.
func (r *Result) reanalysisBest(w io.Writer, prev *Previous) {
	p := r.Plan
	fmt.Fprintf(w, "## Best configuration\n\n")
	if !prev.PerInstance {
		fmt.Fprintf(w, "The previous analysis ranked one median per configuration pooled over every dataset it ran on; now each %s is ranked on its own (%s) and each configuration is compared with that %s's best by the test that fits the design (docs/analysis.md \"Best per dataset\"). \"Before\" is the pooled ranking.\n\n", unitWord(p.Units), names(p.Units), unitWord(p.Units))
	}
	var rows [][]string
	more := 0
	for lo := 0; lo < len(r.Best); {
		hi := lo + 1
		for hi < len(r.Best) && r.Best[hi].Metric == r.Best[lo].Metric && slices.Equal(r.Best[hi].Instance, r.Best[lo].Instance) {
			hi++
		}
		bs := r.Best[lo:hi]
		lo = hi
		if len(rows) == maxReanalysisBest {
			more++
			continue
		}
		m, inst := bs[0].Metric, strings.Join(bs[0].Instance, " ")
		var same []string
		for _, b := range bs[1:] {
			if b.SameAsBest {
				same = append(same, b.Config)
			}
		}
		risk := ""
		if bs[0].RiskMetric != "" {
			risk = fmt.Sprintf("%s %s", bs[0].RiskMetric, num(bs[0].RiskMedian))
		}
		var oldBest string
		var oldSame []string
		for _, b := range prev.Best[m] {
			if prev.PerInstance && b.instance != inst {
				continue
			}
			if b.rank == 1 || oldBest == "" && !prev.PerInstance {
				oldBest = b.config
			} else if b.same {
				oldSame = append(oldSame, b.config)
			}
		}
		changed := "same best"
		if oldBest != bs[0].Config {
			changed = "best changed"
		}
		slices.Sort(same)
		slices.Sort(oldSame)
		tie := "unchanged"
		if !slices.Equal(same, oldSame) {
			tie = fmt.Sprintf("%d → %d", len(oldSame), len(same))
		}
		rows = append(rows, []string{m, instanceName(p.Units, bs[0].Instance), oldBest, bs[0].Config, changed, tie, risk})
	}
	table(w, []string{"metric", unitWord(p.Units), "best before", "best now", "", "not significantly different from the best (count)", "risk of the best now"}, rows)
	if more > 0 {
		fmt.Fprintf(w, "%d more instances in best.csv.\n\n", more)
	}
}

func medianInt(x []float64) string {
	if len(x) == 0 {
		return "–"
	}
	slices.Sort(x)
	m := x[len(x)/2]
	if len(x)%2 == 0 {
		m = (x[len(x)/2-1] + x[len(x)/2]) / 2
	}
	return strings.TrimSuffix(strconv.FormatFloat(m, 'f', 1, 64), ".0")
}
