package analysis

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
)

// TestSpecConfig: the [analysis] table as the one spec reader (experiments.Decode) gives it.
func TestSpecConfig(t *testing.T) {
	for i, tc := range []struct {
		text    string
		blocks  []string // nil = absent
		empty   bool     // blocks given as []
		plots   bool
		alpha   float64
		wantErr string
	}{
		{text: `name = "x"`, plots: true},
		{text: "name = \"x\"\n[analysis]\nblocks = []\nplots = false\nalpha = 0.1", empty: true, alpha: 0.1},
		{text: "[analysis]\nblocks = [\"dataset\", \"k\"]\ntest = \"rank-sum\"", blocks: []string{"dataset", "k"}, plots: true},
		{text: "[analysis]\nblokcs = []", wantErr: `unknown key "analysis.blokcs"`},
		{text: "[analysis]\ntest = \"t-test\"", wantErr: "test must be"},
		{text: "[analysis]\nalpha = 1.5", wantErr: "alpha must be"},
		{text: "[analysis]\nadjust = \"bonferroni\"", wantErr: "adjust must be"},
		{text: "[analysis]\nscatter = [\"sse_sst\"]", wantErr: "scatter needs two"},
	} {
		var cfg Config
		s, err := experiments.Decode([]byte(tc.text), "spec.toml")
		if err == nil {
			cfg, err = SpecConfig(s)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("case %d: error %v, want %q", i, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if tc.empty != (cfg.Blocks != nil && len(cfg.Blocks) == 0) || (tc.blocks != nil && !slices.Equal(cfg.Blocks, tc.blocks)) {
			t.Errorf("case %d: blocks %#v", i, cfg.Blocks)
		}
		if on(cfg.Plots) != tc.plots || cfg.alpha() != map[bool]float64{true: tc.alpha, false: 0.05}[tc.alpha != 0] {
			t.Errorf("case %d: plots %v alpha %v", i, on(cfg.Plots), cfg.alpha())
		}
	}
}

func TestResolve(t *testing.T) {
	runs, err := ReadRuns(filepath.Join("testdata", "small"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(runs.Values, ","); got != "sse_sst,dld,il3,il3_c1,seconds" {
		t.Fatalf("value columns %s", got)
	}
	// Defaults: k is not set on the noise runs, so it joins the configuration; il3_c1 is a component.
	p, err := Config{}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"metrics", p.Metrics, []string{"sse_sst", "dld", "il3"}},
		{"blocks", p.Blocks, []string{"dataset"}},
		{"configs", p.ConfigCols, []string{"method", "param_k", "param_noise_pct"}},
		{"instances", p.Instances, []string{"dataset"}},
		{"scatter", p.Scatter, []string{"sse_sst", "dld"}},
		{"curves", p.Curves, []string{"param_k", "param_noise_pct"}},
		{"labels", p.Configs, []string{"mdav k=3", "mdav k=5", "noise_additive noise_pct=10", "noise_additive noise_pct=20"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if p.Test != TestSignedRank || len(p.Warnings) != 1 {
		t.Errorf("test %s, warnings %v", p.Test, p.Warnings)
	}
	// Pooled, per method: several runs per block force the rank-sum test.
	p, err = Config{Blocks: []string{"dataset"}, Configs: []string{"method"}, WinsBy: []string{}}.Resolve(runs, []string{"dld"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Test != TestRankSum || !slices.Equal(p.Metrics, []string{"dld"}) || len(p.Configs) != 2 {
		t.Errorf("pooled: test %s metrics %v configs %v", p.Test, p.Metrics, p.Configs)
	}
	for i, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Metrics: []string{"nope"}}, `metrics: no column "nope"`},
		{Config{Blocks: []string{"region"}}, `blocks: no column "region"`},
		{Config{Test: TestSignedRank, Blocks: []string{}}, "signed-rank needs blocks"},
		{Config{Test: TestSignedRank, Blocks: []string{"dataset"}, Configs: []string{"method"}}, "signed-rank impossible"},
		{Config{ReplicateAgg: "mode"}, "replicate_agg must be"},
		{Config{Configs: []string{"replicate"}}, "cannot define a configuration"},
	} {
		if _, err := tc.cfg.Resolve(runs, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("case %d: error %v, want %q", i, err, tc.want)
		}
	}
}

func TestParseRunsErrors(t *testing.T) {
	for i, tc := range []struct{ text, want string }{
		{"", "empty file"},
		{"run_id,method,status\n", `no "dataset" column`},
		{"dataset,method,sse_sst,status\nd,m,abc,ok\n", `:2: column sse_sst: not a number: "abc"`},
		{"dataset,method,sse_sst,status\nd,m,1,ok,extra\n", "wrong number of fields"},
	} {
		if _, err := ParseRuns(strings.NewReader(tc.text), "runs.csv"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("case %d: error %v, want %q", i, err, tc.want)
		}
	}
	// A torn last line is ignored; NaN, +Inf and -Inf parse; error rows carry no values.
	r, err := ParseRuns(strings.NewReader("dataset,method,x,status\nd,m,NaN,ok\nd,m,+Inf,ok\nd,m,-Inf,ok\nd,m,,error\nd,m,1"), "runs.csv")
	if err != nil || len(r.Rows) != 4 || r.Rows[3].OK {
		t.Fatalf("torn line: %v %v", r, err)
	}
}

// TestSpecTradeoffAndBound: tradeoff as one pair or a list of pairs, and risk_bound, read and
// checked at load like the other [analysis] keys; a bound on a column runs.csv lacks is an
// error of Resolve naming the key.
func TestSpecTradeoffAndBound(t *testing.T) {
	for i, tc := range []struct {
		text    string
		pairs   Pairs
		bound   map[string]float64
		wantErr string
	}{
		{text: "[analysis]\ntradeoff = [\"il1s\", \"dld\"]", pairs: Pairs{{"il1s", "dld"}}},
		{text: "[analysis]\ntradeoff = [[\"il1s\", \"dld\"], [\"il1s\", \"interval_disclosure\"]]",
			pairs: Pairs{{"il1s", "dld"}, {"il1s", "interval_disclosure"}}},
		{text: "[analysis]\nrisk_bound = {dld = 10}", bound: map[string]float64{"dld": 10}},
		{text: "[analysis]\nrisk_bound = {dld = 10.5, id_rank = 0.2}", bound: map[string]float64{"dld": 10.5, "id_rank": 0.2}},
		{text: "[analysis]\ntradeoff = [\"il1s\"]", wantErr: "pair 1 needs two metrics"},
		{text: "[analysis]\ntradeoff = [[\"il1s\", \"dld\"], [\"il1s\"]]", wantErr: "pair 2 needs two metrics"},
		{text: "[analysis]\ntradeoff = [\"il1s\", [\"dld\"]]", wantErr: "mixes metric names and pairs"},
		{text: "[analysis]\ntradeoff = \"il1s\"", wantErr: "tradeoff must be a pair"},
		{text: "[analysis]\ntradeoff = [1, 2]", wantErr: "neither a metric name nor a pair"},
		{text: "[analysis]\nrisk_bound = {dld = nan}", wantErr: "risk_bound"},
		{text: "[analysis]\nrisk_bound = {dld = \"ten\"}", wantErr: "dld"},
		{text: "[analysis]\nrisk_bound = 10", wantErr: "risk_bound"},
	} {
		var cfg Config
		s, err := experiments.Decode([]byte(tc.text), "spec.toml")
		if err == nil {
			cfg, err = SpecConfig(s)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("case %d: error %v, want %q", i, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if !slices.EqualFunc(cfg.Tradeoff, tc.pairs, slices.Equal) || len(cfg.RiskBound) != len(tc.bound) {
			t.Errorf("case %d: tradeoff %v bound %v", i, cfg.Tradeoff, cfg.RiskBound)
		}
		for m, v := range tc.bound {
			if cfg.RiskBound[m] != v {
				t.Errorf("case %d: bound %s = %v, want %v", i, m, cfg.RiskBound[m], v)
			}
		}
	}
	runs, err := ReadRuns(filepath.Join("testdata", "small"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Config{RiskBound: map[string]float64{"dbrl": 5}}).Resolve(runs, nil); err == nil || !strings.Contains(err.Error(), `risk_bound: no column "dbrl"`) {
		t.Errorf("bound on a missing column: %v", err)
	}
	if _, err := (Config{Tradeoff: Pairs{{"sse_sst", "dld"}, {"il3", "nope"}}}).Resolve(runs, nil); err == nil || !strings.Contains(err.Error(), `tradeoff: no column "nope"`) {
		t.Errorf("second pair with a missing column: %v", err)
	}
	p, err := (Config{Tradeoff: Pairs{{"sse_sst", "dld"}, {"il3", "dld"}}}).Resolve(runs, nil)
	if err != nil || len(p.Tradeoffs) != 2 || !slices.Equal(p.Tradeoff, []string{"sse_sst", "dld"}) {
		t.Errorf("two pairs: %v %v", p.Tradeoffs, err)
	}
}
