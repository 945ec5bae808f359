package analysis

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pseudoReplicated returns runs.csv text for two deterministic methods on two datasets with
// k ∈ {3, 5} and five replicates that repeat one run each (identical values), plus a
// randomized method whose replicates differ.
func pseudoReplicated() string {
	var b strings.Builder
	b.WriteString("run_id,dataset,method,param_k,replicate,seed,sse_sst,dld,seconds,status,error\n")
	id := 0
	for di, d := range []string{"census", "tarragona"} {
		for _, k := range []int{3, 5} {
			for r := 1; r <= 5; r++ {
				base := float64(di*10 + k)
				for mi, m := range []string{"mdav", "pca", "rand"} {
					v := base + float64(mi) // pca is always worse than mdav by 1
					if m == "rand" {
						v += float64(r) / 10
					}
					id++
					fmt.Fprintf(&b, "r%d,%s,%s,%d,%d,%d,%g,%g,0.01,ok,\n", id, d, m, k, r, id, v, 100-v)
				}
			}
		}
	}
	return b.String()
}

// TestPseudoReplication: five identical replicates of a deterministic method are one
// observation. mdav vs pca on 2 datasets × 2 values of k gives 4 real blocks, so the exact
// signed-rank p-value cannot go below 2/2^4 = 0.125, however many replicates were asked for.
func TestPseudoReplication(t *testing.T) {
	runs, err := ParseRuns(strings.NewReader(pseudoReplicated()), "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Config{}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Test != TestSignedRank || strings.Join(p.Blocks, ",") != "dataset,param_k" {
		t.Fatalf("test %s blocks %v", p.Test, p.Blocks)
	}
	found := false
	for _, pr := range Pairwise(p, runs, []string{"sse_sst"}) {
		if pr.A == "mdav" && pr.B == "pca" {
			found = true
			if pr.N2 != 4 || pr.P < 0.125 || pr.Shift == nil || pr.Shift.Estimate != -1 || pr.A12 != 0 {
				t.Errorf("mdav vs pca: n=%d p=%v shift=%+v a12=%v, want 4 pairs, p ≥ 0.125, shift −1, A12 0",
					pr.N2, pr.P, pr.Shift, pr.A12)
			}
		}
		if pr.N2 != 4 {
			t.Errorf("%s vs %s: %d pairs, want 4 (the replicate index is not a block)", pr.A, pr.B, pr.N2)
		}
	}
	if !found {
		t.Fatal("no mdav vs pca row")
	}
	// Summaries count a deterministic method's setting once, a randomized one's replicates each.
	for _, s := range Summaries(p, runs, []string{"sse_sst"}) {
		want := map[string]int{"mdav": 4, "pca": 4, "rand": 20}[s.Config]
		if s.N != want {
			t.Errorf("summary %s: n=%d, want %d", s.Config, s.N, want)
		}
	}
	// Unpaired (no blocks): still 4 observations per deterministic method.
	p, err = Config{Blocks: []string{}}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Pairwise(p, runs, []string{"sse_sst"}) {
		if pr.A == "mdav" && pr.B == "pca" && (pr.N1 != 4 || pr.N2 != 4) {
			t.Errorf("rank-sum mdav vs pca: n=%d,%d, want 4,4", pr.N1, pr.N2)
		}
	}
	// Asking for the replicate as a block is refused with a warning, not obeyed.
	p, err = Config{Blocks: []string{"dataset", "k", "replicate"}}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Blocks, ",") != "dataset,param_k" || len(p.Warnings) == 0 {
		t.Errorf("replicate as block: blocks %v warnings %v", p.Blocks, p.Warnings)
	}
}

// TestReplicateAgg: the randomized method's replicates enter a block as their mean or median.
func TestReplicateAgg(t *testing.T) {
	p := &Plan{ReplicateAgg: AggMean}
	x := []float64{1, 2, 6, math.NaN()}
	if got := p.aggregate(x); got != 3 {
		t.Errorf("mean: %v, want 3", got)
	}
	p.ReplicateAgg = AggMedian
	if got := p.aggregate(x); got != 2 {
		t.Errorf("median: %v, want 2", got)
	}
	if got := p.aggregate([]float64{math.NaN()}); got == got {
		t.Errorf("all missing: %v, want NaN", got)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// TestWriteTableGzip: a table over gzipAbove is written as NAME.csv.gz and replaces NAME.csv;
// a small one replaces NAME.csv.gz; ReadPrevious reads either.
func TestWriteTableGzip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wilcoxon.csv")
	header := []string{"metric", "config_a", "config_b", "test", "n_b", "p_value", "p_holm"}
	var rows [][]string
	for i := 0; len(rows)*40 < 2*gzipAbove; i++ {
		rows = append(rows, []string{"sse_sst", fmt.Sprint("a", i), fmt.Sprint("b", i), "signed-rank", "4", "0.125", "1"})
	}
	if gz, err := writeTableCSV(path, header, rows); err != nil || !gz {
		t.Fatalf("big table: gz=%v err=%v", gz, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s left beside its .gz", path)
	}
	prev, err := ReadPrevious(dir)
	if err != nil || prev == nil || len(prev.Pairs) != len(rows) {
		t.Fatalf("ReadPrevious of the .gz: %v", err)
	}
	if gz, err := writeTableCSV(path, header, rows[:3]); err != nil || gz {
		t.Fatalf("small table: gz=%v err=%v", gz, err)
	}
	if _, err := os.Stat(path + ".gz"); !os.IsNotExist(err) {
		t.Errorf("stale .gz left beside %s", path)
	}
}

// TestOneBlock: with a single dataset (one block) the paired test would rest on one pair, so the
// analysis compares the configurations' replicates as independent samples (rank-sum).
func TestOneBlock(t *testing.T) {
	text := "run_id,dataset,method,replicate,seed,x,seconds,status,error\n"
	for r := 1; r <= 8; r++ {
		text += fmt.Sprintf("a%d,d,m1,%d,%d,%d,0,ok,\nb%d,d,m2,%d,%d,%d,0,ok,\n", r, r, r, r, r, r, r+100, 10+r)
	}
	runs, err := ParseRuns(strings.NewReader(text), "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Config{}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Test != TestRankSum || len(p.Warnings) == 0 {
		t.Fatalf("one block: test %s warnings %v", p.Test, p.Warnings)
	}
	pr := Pairwise(p, runs, []string{"x"})[0]
	// 1..8 against 11..18: W = 0, exact p = 2/C(16, 8) = 2/12870.
	if pr.N1 != 8 || pr.N2 != 8 || math.Abs(pr.P-2.0/12870) > 1e-15 {
		t.Errorf("rank-sum: n=%d,%d p=%v", pr.N1, pr.N2, pr.P)
	}
}
