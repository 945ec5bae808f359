package dfo

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
	"github.com/sdcbench/sdcbench/studies"
)

// The variants of the paper's first experiment, as the hmkm method's surrogate names.
var Variants = []string{"sbm-I", "sbm-II", "br-I", "br-II", "sbm+br-II", "br+sbm-II"}

// Instance is one (dataset, k, G, random start) of dfo-heuristics with the sse_sst of every
// variant (NaN when missing) and their CPU seconds.
type Instance struct {
	Dataset    string
	K, G, Seed int
	Pos        float64
	IL, CPU    map[string]float64
}

// ParseHeuristics groups the hmkm runs of runs.csv by (dataset, k, g_pos, start_seed).
func ParseHeuristics(t *resultsdir.Table) ([]*Instance, error) {
	need := []string{"dataset", "param_k", "param_g_pos", "param_start_seed", "param_surrogate", "sse_sst", "dfo_g", "status"}
	col := map[string]int{}
	for _, n := range need {
		if col[n] = t.Col(n); col[n] < 0 {
			return nil, fmt.Errorf("dfo: runs.csv has no column %q", n)
		}
	}
	cpuCol := t.Col("dfo_cpu")
	var out []*Instance
	idx := map[string]*Instance{}
	for _, row := range t.Rows {
		if row[col["status"]] != "ok" {
			continue
		}
		key := row[col["dataset"]] + "/" + row[col["param_k"]] + "/" + row[col["param_g_pos"]] + "/" + row[col["param_start_seed"]]
		in, ok := idx[key]
		if !ok {
			k, _ := strconv.Atoi(row[col["param_k"]])
			s, _ := strconv.Atoi(row[col["param_start_seed"]])
			pos, _ := strconv.ParseFloat(row[col["param_g_pos"]], 64)
			g, _ := strconv.ParseFloat(row[col["dfo_g"]], 64)
			in = &Instance{Dataset: row[col["dataset"]], K: k, G: int(g), Seed: s, Pos: pos,
				IL: map[string]float64{}, CPU: map[string]float64{}}
			idx[key] = in
			out = append(out, in)
		}
		v, err := strconv.ParseFloat(row[col["sse_sst"]], 64)
		if err != nil {
			v = math.NaN()
		}
		in.IL[row[col["param_surrogate"]]] = v
		if cpuCol >= 0 {
			c, _ := strconv.ParseFloat(row[cpuCol], 64)
			in.CPU[row[col["param_surrogate"]]] = c
		}
	}
	return out, nil
}

// Tally compares variant a with b over the instances that have both: a better (lower IL by
// more than 1e-9 relative), tied, or worse; and the paired Wilcoxon signed-rank test of IL.
type Tally struct {
	A, B                string
	Better, Tied, Worse int
	Test                stats.Comparison
	MedianDiff          float64 // median of IL(a) − IL(b)
}

// Compare tallies a against b over the instances matching pred.
func Compare(ins []*Instance, a, b string, pred func(*Instance) bool) Tally {
	t := Tally{A: a, B: b}
	var xa, xb, diff []float64
	for _, in := range ins {
		va, okA := in.IL[a]
		vb, okB := in.IL[b]
		if !okA || !okB || math.IsNaN(va) || math.IsNaN(vb) || !pred(in) {
			continue
		}
		switch tol := 1e-9 * math.Max(1, math.Abs(vb)); {
		case va < vb-tol:
			t.Better++
		case va > vb+tol:
			t.Worse++
		default:
			t.Tied++
		}
		xa, xb, diff = append(xa, va), append(xb, vb), append(diff, va-vb)
	}
	if len(xa) > 0 {
		t.Test = stats.SignedRank(xa, xb, nil)
		t.MedianDiff = stats.NewSample(diff).Quantile(0.5)
	}
	return t
}

// N is the number of pairs.
func (t Tally) N() int { return t.Better + t.Tied + t.Worse }

// AtLeast is the share of pairs where a is at least as good as b.
func (t Tally) AtLeast() float64 { return float64(t.Better+t.Tied) / float64(max(t.N(), 1)) }

// OrderVotes compares HM+KM (sbm+br-II) with KM+HM (br+sbm-II) within each (dataset, k) cell
// that has pairs, in the order of Datasets and Ks: the independent units of the order claim.
// The paper's units are its data sets (216 instances × 3 values of k, each run at every G from
// random starts); ours are the 9 (dataset, k), and the pairs of one (5 G × 5 starts, EIA 3
// starts) are repeated measurements on the same data.
func OrderVotes(ins []*Instance) []Tally {
	var out []Tally
	for _, ds := range Datasets {
		for _, k := range Ks {
			o := Compare(ins, "sbm+br-II", "br+sbm-II", func(in *Instance) bool { return in.Dataset == ds && in.K == k })
			if o.N() > 0 {
				out = append(out, o)
			}
		}
	}
	return out
}

// HeuristicsMarkdown writes HEURISTICS.md. man may be nil.
func HeuristicsMarkdown(w io.Writer, ins []*Instance, man *resultsdir.Manifest) error {
	return heuristicsMarkdown(w, ins, man, nil)
}

// heuristicsMarkdown is HeuristicsMarkdown recording its verdicts in t (nil: not recorded).
func heuristicsMarkdown(w io.Writer, ins []*Instance, man *resultsdir.Manifest, t *studies.Tally) error {
	fmt.Fprintf(w, "# dfo-heuristics: experiment 1 of the DFO paper (Araújo & Aloise)\n\n")
	if man != nil {
		fmt.Fprintf(w, "%d runs; sdcbench %s, %s; spec SHA-256 `%.12s`. ", man.Runs, man.Tool, man.GoVersion, man.SpecHash)
	}
	fmt.Fprintf(w, "Full rows: [runs.csv](runs.csv). Method: [docs/dfo.md](../../docs/dfo.md), \"Experiment 1\".\n\n")
	fmt.Fprintf(w, "Each instance is a (dataset, k, G, random start); the six variants start from the same random partition "+
		"(`start_seed`), so they compare in pairs. HM = single best move (`sbm`), KM = batch reassignment (`br`); "+
		"Strategy I = restricted moves, Strategy II = the feasibility routine with the default reading "+
		"(repair after every iteration). The paper ran 216 synthetic instances whose generator it does not give; "+
		"these are the three real datasets at five G in the range of Proposition 1. %d instances.\n\n", len(ins))

	all := func(*Instance) bool { return true }
	hm, km := Compare(ins, "sbm-II", "sbm-I", all), Compare(ins, "br-II", "br-I", all)
	ord := Compare(ins, "sbm+br-II", "br+sbm-II", all)
	fmt.Fprintf(w, "## Claims, with computed verdicts\n\n| claim | paper | ours | test | verdict |\n|---|---|---|---|---|\n")
	for _, c := range []struct {
		name string
		t    Tally
	}{{"HM", hm}, {"KM", km}} {
		fmt.Fprintf(w, "| Strategy II finds better results than Strategy I, %s | \"almost 100 %%\" | II ≥ I in %.0f %% of %d pairs (better %d, tied %d, worse %d); median IL(II) − IL(I) = %.3g | "+
			"Wilcoxon signed-rank p = %.3g; held when II ≥ I in ≥ 90 %% of pairs | %s |\n",
			c.name, 100*c.t.AtLeast(), c.t.N(), c.t.Better, c.t.Tied, c.t.Worse, c.t.MedianDiff, c.t.Test.P, judged(t, "Strategy II finds better results than Strategy I, "+c.name, c.t.AtLeast() >= 0.9))
	}
	votes := OrderVotes(ins)
	hk, kh, tie := 0, 0, 0
	for _, v := range votes {
		switch {
		case v.Better > v.Worse:
			hk++
		case v.Better < v.Worse:
			kh++
		default:
			tie++
		}
	}
	p := BinomTest(hk, hk+kh, 0.5)
	fmt.Fprintf(w, "| HM then KM (HM+KM) is the better order | \"almost 60 %%\" of the runs | HM+KM better in %d, KM+HM in %d, tied %d of %d pairs "+
		"(HM+KM wins %.0f %% of the decided pairs); by (dataset, k): HM+KM wins more pairs in %d, KM+HM in %d, as many in %d of %d | "+
		"sign test over the (dataset, k) cells: p = %.3g; held when HM+KM wins more cells (p < %.2f). The pairs of a cell "+
		"(the G positions and random starts on one dataset and k) are repeated measurements of one instance, not independent evidence | %s |\n\n",
		ord.Better, ord.Worse, ord.Tied, ord.N(), 100*float64(ord.Better)/float64(max(ord.Better+ord.Worse, 1)),
		hk, kh, tie, len(votes), p, Alpha, judged(t, "HM+KM beats KM+HM", hk > kh && p < Alpha))

	fmt.Fprintf(w, "## Per dataset and k\n\n")
	fmt.Fprintf(w, "| dataset | k | pairs | HM: II ≥ I | KM: II ≥ I | HM+KM better / tied / worse than KM+HM (the cell's vote) | mean IL sbm-I / sbm-II / br-I / br-II / HM+KM / KM+HM | mean CPU s, same order |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|\n")
	for _, ds := range Datasets {
		for _, k := range Ks {
			pred := func(in *Instance) bool { return in.Dataset == ds && in.K == k }
			h, m, o := Compare(ins, "sbm-II", "sbm-I", pred), Compare(ins, "br-II", "br-I", pred), Compare(ins, "sbm+br-II", "br+sbm-II", pred)
			if h.N() == 0 {
				continue
			}
			vote := "tie"
			switch {
			case o.Better > o.Worse:
				vote = "HM+KM"
			case o.Better < o.Worse:
				vote = "KM+HM"
			}
			fmt.Fprintf(w, "| %s | %d | %d | %.0f %% | %.0f %% | %d / %d / %d (%s) | %s | %s |\n", ds, k, h.N(),
				100*h.AtLeast(), 100*m.AtLeast(), o.Better, o.Tied, o.Worse, vote, means(ins, pred, false), means(ins, pred, true))
		}
	}
	fmt.Fprintln(w)
	return nil
}

// means renders the mean IL (or CPU seconds) of every variant over the matching instances.
func means(ins []*Instance, pred func(*Instance) bool, cpu bool) string {
	s := ""
	for i, v := range Variants {
		var sum float64
		n := 0
		for _, in := range ins {
			m := in.IL
			if cpu {
				m = in.CPU
			}
			if x, ok := m[v]; ok && pred(in) && !math.IsNaN(x) {
				sum += x
				n++
			}
		}
		if i > 0 {
			s += " / "
		}
		if n == 0 {
			s += "—"
			continue
		}
		s += fmt.Sprintf("%.2f", sum/float64(n))
	}
	return s
}
