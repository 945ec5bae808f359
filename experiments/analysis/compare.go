package analysis

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// SummaryRow is one line of summary.csv: a configuration's summary of one metric over its ok runs
// (non-finite values counted as missing, R type-7 quartiles).
type SummaryRow struct {
	Metric, Config string
	stats.Summary
}

// values returns the observations of metric m per configuration: for every setting (dataset
// and parameters) the finite values of its replicates, each for a randomized method (equal or
// not, they are independent draws), and for a deterministic one once when they are all equal
// (its replicates repeat one run, docs/analysis.md "Replicates"). A setting without a finite value contributes one NaN, so that the missing
// count stays visible.
func (p *Plan) values(runs *Runs, m string) [][]float64 { return p.valuesWhere(runs, m, nil) }

// valuesWhere is values restricted to the runs i with keep(i) (all when keep is nil).
func (p *Plan) valuesWhere(runs *Runs, m string, keep func(i int) bool) [][]float64 {
	j := runs.ValueCol(m)
	type group struct {
		c    int
		vals []float64
	}
	idx := map[string]int{}
	var groups []group
	for i, r := range runs.Rows {
		c := p.config[i]
		if c < 0 || keep != nil && !keep(i) {
			continue
		}
		k := fmt.Sprint(c, "\x1e", p.cell[i])
		g, ok := idx[k]
		if !ok {
			g = len(groups)
			idx[k] = g
			groups = append(groups, group{c: c})
		}
		groups[g].vals = append(groups[g].vals, r.Values[j])
	}
	out := make([][]float64, len(p.Configs))
	for _, g := range groups {
		f := finite(g.vals)
		switch {
		case len(f) == 0:
			out[g.c] = append(out[g.c], math.NaN())
		case !p.random[g.c] && allEqual(f):
			out[g.c] = append(out[g.c], f[0])
		default:
			out[g.c] = append(out[g.c], f...)
		}
	}
	return out
}

func allEqual(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// aggregate reduces the replicates of one configuration in one block by the plan's
// ReplicateAgg over the finite values; NaN when there is none.
func (p *Plan) aggregate(x []float64) float64 {
	f := finite(x)
	switch {
	case len(f) == 0:
		return math.NaN()
	case allEqual(f):
		return f[0]
	case p.ReplicateAgg == AggMedian:
		return stats.NewSample(f).Median()
	}
	return stat.Mean(f, nil)
}

// byBlock returns, per configuration, metric m's value in each block: its replicates there
// aggregated by the plan's ReplicateAgg (Resolve makes sure a block holds one setting of a
// configuration before it chooses the paired test).
func (p *Plan) byBlock(runs *Runs, m string) []map[string]float64 {
	j := runs.ValueCol(m)
	raw := make([]map[string][]float64, len(p.Configs))
	for c := range raw {
		raw[c] = map[string][]float64{}
	}
	for i, r := range runs.Rows {
		if c := p.config[i]; c >= 0 {
			raw[c][p.block[i]] = append(raw[c][p.block[i]], r.Values[j])
		}
	}
	out := make([]map[string]float64, len(p.Configs))
	for c := range out {
		out[c] = make(map[string]float64, len(raw[c]))
		for b, x := range raw[c] {
			out[c][b] = p.aggregate(x)
		}
	}
	return out
}

// Summaries returns the summary of every (metric, configuration), metrics in plan order and
// configurations in order of appearance.
func Summaries(p *Plan, runs *Runs, metrics []string) []SummaryRow {
	var out []SummaryRow
	for _, m := range metrics {
		for c, v := range p.values(runs, m) {
			out = append(out, SummaryRow{Metric: m, Config: p.Configs[c], Summary: stats.NewSample(v).Summary()})
		}
	}
	return out
}

// PairRow is one line of wilcoxon.csv: the test of configuration A against B on one metric.
type PairRow struct {
	Metric, A, B string
	stats.Comparison
	MedianA, MedianB float64
	// PHolm and PBH are adjusted within the metric's family of pairwise tests.
	PHolm, PBH float64
}

// Pairwise runs the test of the plan between every pair of configurations, for each metric,
// and adjusts the p-values per metric with Holm and BH. Paired tests use the blocks where both
// configurations have a finite value (each configuration's replicates in a block aggregated);
// unpaired ones the observations of values (identical replicates counted once). Every row
// carries the Hodges–Lehmann shift of A − B with its 95 % interval and the A12 effect size. Tests run in parallel on
// GOMAXPROCS goroutines, each writing its own slot, so the result does not depend on scheduling.
//
// With more than MaxPairwiseConfigs configurations only the pairs of every configuration with
// the metric's reference are tested (the configuration that is best on the most blocks,
// referenceConfig), so that the tests, wilcoxon.csv and memory grow linearly with the
// configurations.
func Pairwise(p *Plan, runs *Runs, metrics []string) []PairRow {
	type job struct {
		m    string
		a, b int
	}
	var jobs []job
	vals := map[string][][]float64{}
	blocks := map[string][]map[string]float64{}
	for _, m := range metrics {
		vals[m] = p.values(runs, m)
		if p.Test == TestSignedRank || len(p.Configs) > MaxPairwiseConfigs {
			blocks[m] = p.byBlock(runs, m)
		}
		if len(p.Configs) > MaxPairwiseConfigs {
			ref := referenceConfig(blocks[m], p.dirs[m])
			for c := range p.Configs {
				a, b := min(c, ref), max(c, ref)
				if c != ref && (p.pairs == nil || p.pairs(p.Configs[a], p.Configs[b])) {
					jobs = append(jobs, job{m, a, b})
				}
			}
			if p.Test != TestSignedRank {
				delete(blocks, m)
			}
			continue
		}
		for a := range p.Configs {
			for b := a + 1; b < len(p.Configs); b++ {
				if p.pairs == nil || p.pairs(p.Configs[a], p.Configs[b]) {
					jobs = append(jobs, job{m, a, b})
				}
			}
		}
	}
	out := make([]PairRow, len(jobs))
	opt := &stats.WilcoxonOptions{Alpha: p.Alpha, ConfInt: true, ExactTies: true}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k, jb := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			xa, xb := finite(vals[jb.m][jb.a]), finite(vals[jb.m][jb.b])
			row := PairRow{Metric: jb.m, A: p.Configs[jb.a], B: p.Configs[jb.b],
				MedianA: stats.NewSample(xa).Median(), MedianB: stats.NewSample(xb).Median()}
			if p.Test == TestSignedRank {
				x, y := pairs(blocks[jb.m][jb.a], blocks[jb.m][jb.b])
				row.Comparison = stats.SignedRank(x, y, opt)
			} else {
				row.Comparison = stats.RankSum(xa, xb, opt)
			}
			out[k] = row
		}()
	}
	wg.Wait()
	// Adjust per metric.
	for lo := 0; lo < len(out); {
		hi := lo
		for hi < len(out) && out[hi].Metric == out[lo].Metric {
			hi++
		}
		ps := make([]float64, hi-lo)
		for i := range ps {
			ps[i] = out[lo+i].P
		}
		holm, bh := stats.Adjust(nil, ps, stats.Holm), stats.Adjust(nil, ps, stats.BH)
		for i := range ps {
			out[lo+i].PHolm, out[lo+i].PBH = holm[i], bh[i]
		}
		lo = hi
	}
	return out
}

// MaxPairwiseConfigs is the largest number of configurations whose every pair Pairwise tests
// (1,225 pairs per metric); past it each configuration is tested against the metric's
// reference only (docs/analysis.md "Many configurations").
const MaxPairwiseConfigs = 50

// referenceConfig returns the configuration that is best (lowest score) on the most blocks,
// the first in plan order among equals; 0 when no block has a finite value.
func referenceConfig(blocks []map[string]float64, d direction) int {
	bestScore := map[string]float64{}
	for _, bs := range blocks {
		for b, v := range bs {
			if s := d.score(v); !math.IsNaN(s) {
				if cur, ok := bestScore[b]; !ok || s < cur {
					bestScore[b] = s
				}
			}
		}
	}
	ref, most := 0, -1
	for c, bs := range blocks {
		n := 0
		for b, v := range bs {
			if s := d.score(v); !math.IsNaN(s) && s == bestScore[b] {
				n++
			}
		}
		if n > most {
			ref, most = c, n
		}
	}
	return ref
}

// finite returns the finite values of x (metrics.md §0.4).
func finite(x []float64) []float64 {
	out := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// pairs returns the values of two configurations in the blocks where both are finite, in block
// order.
func pairs(a, b map[string]float64) (x, y []float64) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, vb := a[k], b[k]
		if _, ok := b[k]; !ok || math.IsNaN(va) || math.IsInf(va, 0) || math.IsNaN(vb) || math.IsInf(vb, 0) {
			continue
		}
		x, y = append(x, va), append(y, vb)
	}
	return x, y
}

// cmpScore orders lower-better scores with NaN last.
func cmpScore(a, b float64) int {
	switch na, nb := math.IsNaN(a), math.IsNaN(b); {
	case na && nb:
		return 0
	case na:
		return 1
	case nb:
		return -1
	}
	return cmp.Compare(a, b)
}
