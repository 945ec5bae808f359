package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manyConfigs writes a runs.csv of n configurations (additive noise at n levels) on two
// datasets with three replicates, and returns its folder.
func manyConfigs(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("run_id,dataset,method,param_k,param_noise_pct,replicate,seed,sse_sst,il1s,dld,seconds,status,error\n")
	rng := rand.New(rand.NewPCG(1, 2))
	id := 0
	for _, ds := range []string{"census", "tarragona"} {
		for c := 1; c <= n; c++ {
			for r := 1; r <= 3; r++ {
				id++
				fmt.Fprintf(&b, "r%d,%s,noise_additive,,%d,%d,%d,%g,%g,%g,0.01,ok,\n", id, ds, c, r, id,
					float64(c)/10+rng.Float64()/20, rng.Float64(), 100/float64(c)+rng.Float64())
			}
		}
	}
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestManyConfigurationsLinear is issue 25's 1,000 configurations (1.36 GB, a 20 MB
// wilcoxon.csv): past MaxPairwiseConfigs each configuration is tested against the reference
// only, so the pairwise rows are metrics × (n − 1), not metrics × n(n−1)/2, and the verdicts
// per instance are metrics × instances × n rows. Measured on the 1,000-configuration table of
// manyConfigs' kind (analysis without plots, one process each): before, 2.74 GB peak RSS, 102 s CPU
// and a 61.7 MB wilcoxon.csv.gz; after, 44 MB, 0.4 s and a 0.97 MB wilcoxon.csv.
func TestManyConfigurationsLinear(t *testing.T) {
	n := 3 * MaxPairwiseConfigs
	if testing.Short() {
		n = MaxPairwiseConfigs + 5
	}
	dir := manyConfigs(t, n)
	res, err := Analyze(context.Background(), dir, Config{Plots: Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	ms := len(res.Plan.Metrics)
	if len(res.Plan.Configs) != n || len(res.Pairs) != ms*(n-1) {
		t.Fatalf("%d configurations, %d pairs; want %d and %d", len(res.Plan.Configs), len(res.Pairs), n, ms*(n-1))
	}
	// sse_sst grows with the noise level: noise_pct=1 is best on both datasets and is the
	// reference of every sse_sst pair.
	for _, pr := range res.Pairs {
		if pr.Metric == "sse_sst" && pr.A != "noise_additive noise_pct=1" && pr.B != "noise_additive noise_pct=1" {
			t.Fatalf("sse_sst pair %s vs %s without the reference", pr.A, pr.B)
		}
	}
	if len(res.Best) != ms*2*n {
		t.Errorf("%d best rows, want %d", len(res.Best), ms*2*n)
	}
	if !strings.Contains(res.reportText(), "tested against the metric's reference only") {
		t.Error("REPORT.md does not say that the pairs were limited")
	}
	// Up to MaxPairwiseConfigs every pair is tested.
	res, err = Analyze(context.Background(), manyConfigs(t, 10), Config{Plots: Bool(false)})
	if err != nil || len(res.Pairs) != ms*45 {
		t.Fatalf("10 configurations: %d pairs, %v", len(res.Pairs), err)
	}
}

// BenchmarkAnalyzeManyConfigs analyses 1,000 configurations (see TestManyConfigurationsLinear).
func BenchmarkAnalyzeManyConfigs(b *testing.B) {
	dir := manyConfigs(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(context.Background(), dir, Config{Plots: Bool(false)}); err != nil {
			b.Fatal(err)
		}
	}
}
