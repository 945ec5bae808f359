package fcrm

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// Run is one ok row of an fcrm-* runs.csv with the fields the report uses.
type Run struct {
	Method, Dataset, Variant  string // Variant: ipso_b_variant, or "" for other methods
	Mode, Order               string // fcrm mode and census_order
	Intercept                 bool
	C, D, N                   int // c (fcrm), and S3's d and n (0 elsewhere)
	PIL, PILKDE, DR, Score    float64
	ScoreKDE, DBRL, PRL, ID   float64
	Iters, LastDelta, Seconds float64
}

// Config is the label of a run's configuration: "fcrm c=3", "ipso_b seed", "ipso_c".
func (r Run) Config() string {
	switch {
	case r.Method == "fcrm":
		return "fcrm c=" + strconv.Itoa(r.C)
	case r.Variant != "":
		return r.Method + " " + r.Variant
	}
	return r.Method
}

// Parse reads the ok rows of a runs table. Rows with another status are counted in bad.
func Parse(t *resultsdir.Table) (runs []Run, bad int, err error) {
	col := func(name string) int { return t.Col(name) }
	need := []string{"method", "dataset", "pil", "pil_kde", "dr", "score", "score_kde", "dbrl_sets", "prl",
		"id_rank", "seconds", "status"}
	for _, n := range need {
		if col(n) < 0 {
			return nil, 0, fmt.Errorf("fcrm: runs.csv has no column %q", n)
		}
	}
	f := func(row []string, name string) float64 {
		j := col(name)
		if j < 0 || row[j] == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(row[j], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	s := func(row []string, name string) string {
		if j := col(name); j >= 0 {
			return row[j]
		}
		return ""
	}
	for _, row := range t.Rows {
		if s(row, "status") != "ok" {
			bad++
			continue
		}
		r := Run{Method: s(row, "method"), Dataset: s(row, "dataset"), Mode: s(row, "param_mode"),
			Order: s(row, "param_census_order"), Intercept: s(row, "param_intercept") != "false",
			PIL: f(row, "pil"), PILKDE: f(row, "pil_kde"), DR: f(row, "dr"), Score: f(row, "score"),
			ScoreKDE: f(row, "score_kde"), DBRL: f(row, "dbrl_sets"), PRL: f(row, "prl"), ID: f(row, "id_rank"),
			Iters: f(row, "fcrm_iters"), LastDelta: f(row, "fcrm_last_delta"), Seconds: f(row, "seconds")}
		if r.Method == "ipso_b" {
			r.Variant = s(row, "param_ipso_b_variant")
		}
		if r.Method == "fcrm" {
			r.C = int(f(row, "param_c"))
		}
		if strings.HasPrefix(r.Dataset, "census_s3_") {
			fmt.Sscanf(r.Dataset, "census_s3_d%d_n%d", &r.D, &r.N)
		}
		runs = append(runs, r)
	}
	return runs, bad, nil
}

// Agg is the mean and sample SD of a measure over the runs of one configuration.
type Agg struct {
	N                         int
	PIL, PILKDE, DR, Score    float64
	ScoreKDE, Iters, SDPILKDE float64
	SDDR, MaxDelta, Converged float64 // Converged: share of runs with fcrm_iters < rmax cap (30)
	DBRL, PRL, ID             float64
}

func aggregate(runs []Run) Agg {
	var a Agg
	a.N = len(runs)
	if a.N == 0 {
		return a
	}
	var pk, dr []float64
	for _, r := range runs {
		a.PIL += r.PIL
		a.PILKDE += r.PILKDE
		a.DR += r.DR
		a.Score += r.Score
		a.ScoreKDE += r.ScoreKDE
		a.Iters += r.Iters
		a.DBRL += r.DBRL
		a.PRL += r.PRL
		a.ID += r.ID
		a.MaxDelta = math.Max(a.MaxDelta, r.LastDelta)
		if r.Iters < 30 {
			a.Converged++
		}
		pk = append(pk, r.PILKDE)
		dr = append(dr, r.DR)
	}
	fn := float64(a.N)
	for _, p := range []*float64{&a.PIL, &a.PILKDE, &a.DR, &a.Score, &a.ScoreKDE, &a.Iters, &a.DBRL, &a.PRL, &a.ID, &a.Converged} {
		*p /= fn
	}
	a.SDPILKDE, a.SDDR = sd(pk), sd(dr)
	return a
}

func sd(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	var m, s float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// byConfig groups runs by Config and aggregates them.
func byConfig(runs []Run) map[string]Agg {
	g := map[string][]Run{}
	for _, r := range runs {
		g[r.Config()] = append(g[r.Config()], r)
	}
	out := map[string]Agg{}
	for k, v := range g {
		out[k] = aggregate(v)
	}
	return out
}

// cs returns the sorted distinct fcrm c values.
func cs(runs []Run) []int {
	var out []int
	for _, r := range runs {
		if r.Method == "fcrm" && !slices.Contains(out, r.C) {
			out = append(out, r.C)
		}
	}
	slices.Sort(out)
	return out
}

// Spearman returns Spearman's rank correlation of x and y (average ranks for ties).
func Spearman(x, y []float64) float64 { return stats.Spearman(x, y) }
