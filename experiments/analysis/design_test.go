package analysis

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/sdcbench/sdcbench/methods/all" // the registry says which methods are randomized
)

// designRuns returns runs.csv text of the issue that asked for verdicts per dataset and tests
// that fit the design: mdav (deterministic) on a survey file and on its stratified copy,
// additive noise and rank swapping (randomized) on the survey file only, 20 replicates each.
// noise at 150 % discloses nothing in every run (interval_disclosure 0, 20 equal values);
// rank swapping 15.7–16.6. il1s: mdav 0.0091 (0.0291 stratified), noise 0.846 (all equal),
// rank swapping 0.05–0.069.
func designRuns() string {
	var b strings.Builder
	b.WriteString("run_id,dataset,method,param_k,param_noise_pct,replicate,seed,sse_sst,il1s,dld,interval_disclosure,seconds,status,error\n")
	id := 0
	row := func(ds, m, k, pct string, rep int, sse, il1s, dld, id2 float64) {
		id++
		fmt.Fprintf(&b, "r%03d,%s,%s,%s,%s,%d,%d,%g,%g,%g,%g,0.1,ok,\n", id, ds, m, k, pct, rep, id, sse, il1s, dld, id2)
	}
	for r := 1; r <= 20; r++ {
		row("survey", "mdav", "3", "", r, 0.69, 0.0091, 8.5, 30)
		row("survey_strata", "mdav", "3", "", r, 2.78, 0.0291, 6.5, 28)
		row("survey", "noise_additive", "", "150", r, 1.00+float64(r%7)/1000, 0.846, 2.0+float64(r%5)/10, 0)
		row("survey", "rankswap", "", "", r, 1.5+float64(r)/100, 0.05+float64(r%20)/1000, 12+float64(r%3), 15.7+0.9*float64(r-1)/19)
	}
	return b.String()
}

func designResult(t *testing.T, cfg Config) *Result {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(designRuns()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Plots = Bool(false)
	res, err := Analyze(context.Background(), dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Write(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	return res
}

func bestRow(t *testing.T, res *Result, metric, dataset, config string) BestRow {
	t.Helper()
	for _, b := range res.Best {
		if b.Metric == metric && b.Config == config && len(b.Instance) > 0 && b.Instance[0] == dataset {
			return b
		}
	}
	t.Fatalf("no best.csv row %s %s %s", metric, dataset, config)
	return BestRow{}
}

// TestBestPerDataset: pooled over the datasets it ran on, mdav's median SSE/SST (0.69 and
// 2.78: 1.735) lost to noise's 1.00, although mdav is lower on the one dataset both ran on. The
// best is per dataset: mdav on survey, and alone on survey_strata; the across-datasets ranks
// use only the blocks every configuration shares.
func TestBestPerDataset(t *testing.T) {
	res := designResult(t, Config{Metrics: []string{"sse_sst", "il1s", "dld", "interval_disclosure"}})
	if b := bestRow(t, res, "sse_sst", "survey", "mdav"); b.Rank != 1 || b.Median != 0.69 {
		t.Errorf("survey: mdav rank %d median %v, want the best at 0.69", b.Rank, b.Median)
	}
	if b := bestRow(t, res, "sse_sst", "survey", "noise_additive"); b.Rank != 2 || b.SameAsBest || b.Vs.Test != VsOneSample {
		t.Errorf("survey: noise %+v, want rank 2, significantly worse by the one-sample test", b)
	}
	if b := bestRow(t, res, "sse_sst", "survey_strata", "mdav"); b.Rank != 1 || b.Median != 2.78 {
		t.Errorf("survey_strata: %+v", b)
	}
	for _, b := range res.Best {
		if b.Instance[0] == "survey_strata" && b.Config != "mdav" {
			t.Errorf("%s ranked on survey_strata where it never ran", b.Config)
		}
	}
	for _, f := range res.Friedman {
		if f.Metric == "sse_sst" && f.N != 1 {
			t.Errorf("Friedman over %d blocks; only survey has every configuration", f.N)
		}
	}
	if !strings.Contains(res.reportText(), "### survey_strata") {
		t.Error("REPORT.md has no section per dataset")
	}
	// Pooling asked for (blocks = []) is refused when the configurations ran on different
	// datasets: the verdicts stay per dataset, with a note.
	res = designResult(t, Config{Metrics: []string{"sse_sst"}, Blocks: []string{}})
	if !slices.Equal(res.Plan.Units, []string{"dataset"}) || !slices.ContainsFunc(res.Plan.Warnings, func(w string) bool {
		return strings.Contains(w, "did not all run on the same datasets")
	}) {
		t.Errorf("blocks = []: units %v, warnings %q", res.Plan.Units, res.Plan.Warnings)
	}
	if b := bestRow(t, res, "sse_sst", "survey", "mdav"); b.Rank != 1 {
		t.Errorf("blocks = []: mdav rank %d on survey", b.Rank)
	}
	// No block has every configuration: REPORT.md says there is no aggregation across datasets.
	res = designResult(t, Config{Metrics: []string{"sse_sst"}, Configs: []string{"method", "dataset"}})
	if !strings.Contains(res.reportText(), "so there is no rank aggregation across") {
		t.Error("REPORT.md aggregates ranks over no shared block")
	}
}

// TestDeterministicVersusRandom: mdav's one value 0.0091 against noise's 20 replicates of 0.846
// is the one-sample signed-rank test of the replicates against 0.0091 (R: wilcox.test(rep(0.846,
// 20), mu = 0.0091)), significant, where one observation per method could never be.
func TestDeterministicVersusRandom(t *testing.T) {
	res := designResult(t, Config{Metrics: []string{"il1s"}})
	b := bestRow(t, res, "il1s", "survey", "noise_additive")
	// R: wilcox.test(rep(0.846, 20), mu = 0.0091)$p.value (ties: the normal approximation).
	const want = 8.5535026514417513e-06
	if b.Vs.Test != VsOneSample || b.N != 20 || math.Abs(b.P-want) > 1e-12*want || b.SameAsBest || b.Vs.Effect != 1 {
		t.Errorf("noise vs mdav: test %q n %d p %v (want %v) same %v r %v", b.Vs.Test, b.N, b.P, want, b.SameAsBest, b.Vs.Effect)
	}
	if math.Abs(b.Vs.Estimate-(0.846-0.0091)) > 1e-12 {
		t.Errorf("difference %v, want 0.846 − 0.0091", b.Vs.Estimate)
	}
	if m := bestRow(t, res, "il1s", "survey", "mdav"); m.Rank != 1 || m.N != 1 || !m.Fixed {
		t.Errorf("mdav: %+v, want the best, one fixed value", m)
	}
	// The other way round: on dld noise (randomized) is best and mdav's fixed 8.5 is compared
	// with its replicates, reported as mdav − noise. R: x <- 2.0 + ((1:20) %% 5)/10;
	// wilcox.test(x, mu = 8.5, conf.int = TRUE): p 8.9150762702950505e-05, estimate
	// 2.2000000000000002, interval [2.1499894659652528, 2.2500105340347476], V = 0.
	res = designResult(t, Config{Metrics: []string{"dld"}})
	m := bestRow(t, res, "dld", "survey", "mdav")
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"p", m.P, 8.9150762702950505e-05}, {"estimate", m.Vs.Estimate, 8.5 - 2.2000000000000002},
		{"ci_low", m.Vs.Lo, 8.5 - 2.2500105340347476}, {"ci_high", m.Vs.Hi, 8.5 - 2.1499894659652528}, {"r", m.Vs.Effect, 1},
	} {
		if math.Abs(c.got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("mdav vs noise on dld: %s = %.17g, want %.17g", c.what, c.got, c.want)
		}
	}
	if m.Rank != 2 || m.Vs.Test != VsOneSample || !m.Vs.FixedA || m.Vs.FixedB {
		t.Errorf("mdav vs noise on dld: %+v", m)
	}
}

// TestEqualReplicatesKept: noise's 20 zeros of interval_disclosure are 20 independent
// observations (a randomized method), not one; against rank swapping's 20 values the rank-sum
// test gives R's 8.0065e-09 (wilcox.test(rep(0, 20), 15.7 + 0.9*(0:19)/19)), not "same".
func TestEqualReplicatesKept(t *testing.T) {
	res := designResult(t, Config{Metrics: []string{"interval_disclosure"}})
	if b := bestRow(t, res, "interval_disclosure", "survey", "noise_additive"); b.Rank != 1 || b.N != 20 {
		t.Fatalf("noise: rank %d n %d, want the best with 20 observations", b.Rank, b.N)
	}
	b := bestRow(t, res, "interval_disclosure", "survey", "rankswap")
	if b.Vs.Test != VsRankSum || b.N != 20 || math.Abs(b.P-8.006545033944717e-09) > 1e-12*8e-9+1e-20 || b.SameAsBest {
		t.Errorf("rankswap vs noise: test %q n %d p %.17g same %v", b.Vs.Test, b.N, b.P, b.SameAsBest)
	}
	// Two deterministic values: no test, the exact difference.
	res = designResult(t, Config{Metrics: []string{"il1s"}, Blocks: []string{}})
	for _, r := range res.Best {
		if r.Vs.Test == VsDifference && !math.IsNaN(r.P) {
			t.Errorf("a difference with a p-value: %+v", r)
		}
	}
}

// TestRecommendationAndDisagreement: with risk_bound = {dld = 10} the recommendation on survey
// is mdav (lowest il1s among dld ≤ 10; rank swapping's dld 12–14 is out), with noise as the
// runner-up and the one-sample test as evidence; dld and interval_disclosure order mdav and
// rank swapping oppositely, which the report says in a sentence. Two trade-off pairs give two fronts.
func TestRecommendationAndDisagreement(t *testing.T) {
	res := designResult(t, Config{Metrics: []string{"il1s", "dld", "interval_disclosure"},
		Tradeoff: Pairs{{"il1s", "dld"}, {"il1s", "interval_disclosure"}}, RiskBound: map[string]float64{"dld": 10}})
	var rec *Recommendation
	for i, rc := range res.Recommend {
		if rc.Instance[0] == "survey" {
			rec = &res.Recommend[i]
		}
	}
	if rec == nil || rec.Config != "mdav" || rec.RunnerUp != "noise_additive" || rec.Eligible != 2 || rec.Total != 3 ||
		rec.Vs.Test != VsOneSample || !(rec.Vs.P < 0.05) || rec.Risk["dld"] != 8.5 {
		t.Fatalf("recommendation %+v", rec)
	}
	if len(res.Fronts) != 2 || len(res.Fronts[1]) == 0 || res.Fronts[1][0].RiskMetric != "interval_disclosure" {
		t.Fatalf("fronts: %d", len(res.Fronts))
	}
	found := false
	for _, d := range res.Disagree {
		if d.Instance[0] == "survey" && d.M1 == "dld" && d.M2 == "interval_disclosure" && d.Discordant > 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no disagreement of dld and interval_disclosure on survey: %+v", res.Disagree)
	}
	text := res.reportText()
	for _, want := range []string{"Recommended under `dld` ≤ 10", "The risk measures disagree", "`il1s` (loss) and `interval_disclosure` (risk)"} {
		if !strings.Contains(text, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	if strings.Index(text, "## The answer") > strings.Index(text, "## Settings") {
		t.Error("REPORT.md does not lead with the answer")
	}
	if data, err := os.ReadFile(filepath.Join(res.Dir, "recommend.csv")); err != nil || !strings.Contains(string(data), "il1s,mdav,0.0091,8.5,2,3,noise_additive") {
		t.Errorf("recommend.csv: %s %v", data, err)
	}
}

// reportText renders REPORT.md to a string.
func (r *Result) reportText() string {
	var b strings.Builder
	r.report(&b)
	return b.String()
}

// TestSeedBestPerInstance: a seed row's where selects best.csv's instance.
func TestSeedBestPerInstance(t *testing.T) {
	res := designResult(t, Config{Metrics: []string{"sse_sst", "dld"}})
	for _, tc := range []struct {
		stat, where, want string
		v                 float64
	}{
		{"best", "dataset=survey", "mdav", math.NaN()},
		{"best", "dataset=survey_strata", "mdav", math.NaN()},
		{"rank", "dataset=survey;method=rankswap", "", 3},
		{"rank", "dataset=survey_strata;method=mdav", "", 1},
		{"same_as_best", "dataset=survey;method=noise_additive", "", 0},
	} {
		v, text, err := res.seedValue(SeedRow{Stat: tc.stat, Metric: "sse_sst", Where: tc.where})
		if tc.where == "dataset=survey_strata" { // dld: noise is best on survey, mdav on the stratified copy
			v, text, err = res.seedValue(SeedRow{Stat: tc.stat, Metric: "dld", Where: tc.where})
		}
		if err != nil || (tc.want != "" && text != tc.want) || (!math.IsNaN(tc.v) && v != tc.v) {
			t.Errorf("%s %s: %v %q %v", tc.stat, tc.where, v, text, err)
		}
	}
}
