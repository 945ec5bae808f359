// Package attacks is the attacks study (README.md): its spec and its report, ATTACKS.md, for
// a results folder whose spec lists attack metrics (singling_out, linkability, inference)
// beside classic risk measures: per dataset, the mean of every measure per configuration, the
// Spearman rank correlation of each attack with each classic measure across configurations,
// and the pairs of configurations the two order differently (computed statements only).
package attacks

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"

	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/metrics"
)

// Classic lists the classic risk measures the report compares with, when present.
var Classic = []string{"dld", "interval_disclosure", "dbrl", "id_rank", "prl", "sdid"}

// config is one (method, parameters) configuration on a dataset with its mean values.
type config struct {
	name  string
	means map[string]float64
	n     int
}

// Write reads dir/runs.csv(.gz) and writes dir/ATTACKS.md.
func Write(dir string) error {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return fmt.Errorf("attacks: %w", err)
	}
	var attacks, classic []string
	for _, id := range metrics.AttackMetrics {
		if t.Col(id) >= 0 {
			attacks = append(attacks, id)
		}
	}
	for _, id := range Classic {
		if t.Col(id) >= 0 {
			classic = append(classic, id)
		}
	}
	if len(attacks) == 0 || len(classic) == 0 {
		return fmt.Errorf("attacks: %s: need at least one attack metric (%v) and one classic risk measure (%v) in runs.csv",
			dir, metrics.AttackMetrics, Classic)
	}
	cols := slices.Clone(classic)
	for _, a := range attacks {
		cols = append(cols, a, a+"_ci_low", a+"_ci_high")
	}
	if t.Col("sse_sst") >= 0 {
		cols = append([]string{"sse_sst"}, cols...)
	}
	for _, a := range attacks {
		if t.Col(a+"_n_attacks") >= 0 {
			cols = append(cols, a+"_n_attacks")
		}
	}
	byDS, order := group(t, cols)
	type agg struct {
		rhos  []string
		pairs int
	}
	summary := map[[2]string]*agg{}
	var none []string
	var b strings.Builder
	b.WriteString("# Attacks against the classic risk measures\n\n")
	b.WriteString("Means over replicates per configuration; attack risks R = (r_t − r_c)/(1 − r_c) with the mean of " +
		"their interval ends in brackets (docs/attacks.md). ρ is Spearman's rank correlation across the " +
		"configurations of a dataset, with an approximate 95% interval (Fisher z, SE 1.06/√(n−3)). A disagreement is a pair of " +
		"configurations that a classic measure orders one way by its mean while the attack's mean intervals do not " +
		"overlap and order it the other way.\n\n")
	for _, ds := range order {
		cs := byDS[ds]
		fmt.Fprintf(&b, "## %s\n\n| configuration | runs |", ds)
		for _, c := range cols {
			if !strings.HasSuffix(c, "_ci_low") && !strings.HasSuffix(c, "_ci_high") && !strings.HasSuffix(c, "_n_attacks") {
				fmt.Fprintf(&b, " %s |", c)
			}
		}
		b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(classic)+len(attacks)+boolInt(cols[0] == "sse_sst")) + "\n")
		for _, c := range cs {
			for _, a := range attacks {
				if c.means[a+"_n_attacks"] == 0 {
					none = append(none, fmt.Sprintf("%s on %s", a, ds+" "+c.name))
				}
			}
			fmt.Fprintf(&b, "| %s | %d |", c.name, c.n)
			for _, col := range cols {
				switch {
				case strings.HasSuffix(col, "_ci_low") || strings.HasSuffix(col, "_ci_high") || strings.HasSuffix(col, "_n_attacks"):
				case slices.Contains(attacks, col):
					fmt.Fprintf(&b, " %.3f [%.3f, %.3f] |", c.means[col], c.means[col+"_ci_low"], c.means[col+"_ci_high"])
				default:
					fmt.Fprintf(&b, " %.3f |", c.means[col])
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n| attack | classic | ρ | 95% interval | disagreeing pairs (of " + strconv.Itoa(len(cs)*(len(cs)-1)/2) + ") | example |\n|---|---|---:|---|---:|---|\n")
		for _, a := range attacks {
			for _, cl := range classic {
				x, y := vals(cs, a), vals(cs, cl)
				rho := spearman(x, y)
				lo, hi := fisherCI(rho, len(cs))
				pairs := disagreements(cs, a, cl)
				ex := "—"
				if len(pairs) > 0 {
					ex = pairs[0]
				}
				fmt.Fprintf(&b, "| %s | %s | %.3f | [%.3f, %.3f] | %d | %s |\n", a, cl, rho, lo, hi, len(pairs), ex)
				k := [2]string{a, cl}
				if summary[k] == nil {
					summary[k] = &agg{}
				}
				summary[k].rhos = append(summary[k].rhos, fmt.Sprintf("%s %.2f", ds, rho))
				summary[k].pairs += len(pairs)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("## Summary\n\n")
	for _, a := range attacks {
		for _, cl := range classic {
			x := summary[[2]string{a, cl}]
			fmt.Fprintf(&b, "- %s vs %s: ρ %s; %d disagreeing pairs.\n", a, cl, strings.Join(x.rhos, ", "), x.pairs)
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(&b, "- No attack could be made (no predicate isolates a release record; risk 0) for: %s.\n", strings.Join(none, "; "))
	}
	return datasets.AtomicWrite(filepath.Join(dir, "ATTACKS.md"), func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// group averages the ok rows per dataset and configuration (method and parameters).
func group(t *resultsdir.Table, cols []string) (map[string][]*config, []string) {
	status, ds, me := t.Col("status"), t.Col("dataset"), t.Col("method")
	var params []int
	for i, h := range t.Header {
		if strings.HasPrefix(h, "param_") {
			params = append(params, i)
		}
	}
	byDS := map[string][]*config{}
	var order []string
	find := map[string]*config{}
	sums := map[*config]map[string][2]float64{}
	for _, r := range t.Rows {
		if r[status] != experiments.StatusOK {
			continue
		}
		name := r[me]
		for _, j := range params {
			if r[j] != "" && t.Header[j] != "param_level" {
				name += " " + strings.TrimPrefix(t.Header[j], "param_") + "=" + r[j]
			}
		}
		key := r[ds] + "|" + name
		c := find[key]
		if c == nil {
			c = &config{name: name, means: map[string]float64{}}
			find[key] = c
			sums[c] = map[string][2]float64{}
			if _, ok := byDS[r[ds]]; !ok {
				order = append(order, r[ds])
			}
			byDS[r[ds]] = append(byDS[r[ds]], c)
		}
		c.n++
		for _, col := range cols {
			v, err := strconv.ParseFloat(r[t.Col(col)], 64)
			if err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
				s := sums[c][col]
				sums[c][col] = [2]float64{s[0] + v, s[1] + 1}
			}
		}
	}
	for c, m := range sums {
		for _, col := range cols {
			s := m[col]
			c.means[col] = s[0] / s[1] // NaN when no finite value
		}
	}
	return byDS, order
}

func vals(cs []*config, col string) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = c.means[col]
	}
	return out
}

// spearman is Pearson's correlation of the average ranks (NaN with a NaN value or < 3 points).
func spearman(x, y []float64) float64 {
	if len(x) < 3 {
		return math.NaN()
	}
	return stats.Spearman(x, y)
}

// fisherCI is the approximate 95% interval tanh(atanh ρ ± 1.96·1.06/√(n−3)) (Fieller et al. 1957).
func fisherCI(rho float64, n int) (lo, hi float64) {
	if n < 4 || math.IsNaN(rho) {
		return math.NaN(), math.NaN()
	}
	z := math.Atanh(max(-0.999999, min(0.999999, rho)))
	e := 1.959963984540054 * 1.06 / math.Sqrt(float64(n-3))
	return math.Tanh(z - e), math.Tanh(z + e)
}

// disagreements lists the pairs (A, B) where the classic measure's mean says A is riskier
// than B but the attack's mean interval of B lies entirely above A's, largest gap first.
func disagreements(cs []*config, attack, classic string) []string {
	type pair struct {
		text string
		gap  float64
	}
	var ps []pair
	for _, a := range cs {
		for _, b := range cs {
			ca, cb := a.means[classic], b.means[classic]
			if !(ca > cb) {
				continue
			}
			if gap := b.means[attack+"_ci_low"] - a.means[attack+"_ci_high"]; gap > 0 {
				ps = append(ps, pair{fmt.Sprintf("%s: %s %.3f > %.3f of %s, but %s %.3f [%.3f, %.3f] < %.3f [%.3f, %.3f]",
					classic, a.name, ca, cb, b.name, attack, a.means[attack], a.means[attack+"_ci_low"], a.means[attack+"_ci_high"],
					b.means[attack], b.means[attack+"_ci_low"], b.means[attack+"_ci_high"]), gap})
			}
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].gap > ps[j].gap })
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.text
	}
	return out
}
