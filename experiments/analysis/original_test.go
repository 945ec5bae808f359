package analysis

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/metrics"
)

// TestOriginalReference: the unprotected original of each dataset is measured once, cached in
// original.csv, shown in summary.csv and REPORT.md, and never counted as a configuration.
func TestOriginalReference(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	ctx := context.Background()
	res, err := Run(ctx, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// dld of the identity release: 100 % but for records with an exact twin
	want := map[string]float64{}
	for _, name := range []string{"census", "eia", "tarragona"} {
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := metrics.Evaluate(d, d, "dld")
		if err != nil {
			t.Fatal(err)
		}
		want[name] = v["dld"]
	}
	if want["census"] != 100 || !(want["eia"] < 100) {
		t.Fatalf("dld of the originals %v: census has no twins, eia has", want)
	}
	if len(res.Original) != 3 {
		t.Fatalf("%d original rows, want 3: %+v (notes %v)", len(res.Original), res.Original, res.OriginalNotes)
	}
	for _, o := range res.Original {
		if o.Err != "" || o.Value("sse_sst") != 0 || o.Value("il3") != 0 || o.Value("dld") != want[o.Dataset] {
			t.Errorf("original %s: sse_sst %v, il3 %v, dld %v (err %q); want 0, 0, %v",
				o.Dataset, o.Value("sse_sst"), o.Value("il3"), o.Value("dld"), o.Err, want[o.Dataset])
		}
	}
	for _, c := range res.Plan.Configs {
		if c == OriginalName {
			t.Errorf("the original is a configuration")
		}
	}
	for _, b := range res.Best {
		if b.Config == OriginalName {
			t.Errorf("the original is ranked in best: %+v", b)
		}
	}
	for _, p := range res.Pareto {
		if p.Config == OriginalName {
			t.Errorf("the original is on a Pareto table: %+v", p)
		}
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !strings.Contains(string(sum), "\nsse_sst,original,3,0,0,0,0,0,0,0,0\n") {
		t.Errorf("summary.csv has no original row for sse_sst:\n%s", sum)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, resultsdir.ReportFile))
	for _, s := range []string{"## The unprotected original", "| census | 0 | 100 | 0 |", "| original (reference) |", "| census | mdav k=3 (2.024, 27.15)"} {
		if !strings.Contains(string(rep), s) {
			t.Errorf("REPORT.md lacks %q", s)
		}
	}
	// A second analysis reads the cache: a value changed in it (same key) is what it reports.
	path := filepath.Join(dir, OriginalFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "census,0,100,") {
		t.Fatalf("original.csv:\n%s", data)
	}
	os.WriteFile(path, []byte(strings.Replace(string(data), "census,0,100,", "census,0,42,", 1)), 0o644)
	res, err = Analyze(ctx, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := res.originalOf("census"); o.Value("dld") != 42 {
		t.Errorf("census dld from the cache = %v, want 42", o.Value("dld"))
	}
	// A stale key: measured again.
	os.WriteFile(path, []byte(strings.ReplaceAll(string(data), res.originalKey, "0123456789abcdef")), 0o644)
	res, err = Analyze(ctx, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := res.originalOf("census"); o.Value("dld") != 100 {
		t.Errorf("census dld after a stale cache = %v, want 100", o.Value("dld"))
	}
	// The literature-style tables by dataset start with the original; by dataset and k they
	// leave it out (it has no k).
	res, err = Analyze(ctx, dir, Config{Table: TableConfig{Metrics: []string{"dld"}, Columns: []string{"dataset"}}})
	if err != nil {
		t.Fatal(err)
	}
	pv := res.Pivots[0]
	if pv.Rows[0] != OriginalName || len(pv.Rows) != 5 {
		t.Fatalf("table rows %v, want the original first and the 4 configurations", pv.Rows)
	}
	for k, c := range pv.Cols {
		if pv.Cells[0][k] != want[c] {
			t.Errorf("table: original's dld on %s = %v, want %v", c, pv.Cells[0][k], want[c])
		}
	}
	res, err = Analyze(ctx, dir, Config{Table: TableConfig{Metrics: []string{"dld"}}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(res.Pivots[0].Rows, OriginalName) {
		t.Errorf("a table by dataset and k has an original row: %v", res.Pivots[0].Rows)
	}
}

// TestOriginalUnavailable: a spec whose dataset file is gone still analyses; the report says
// the original was not measured.
func TestOriginalUnavailable(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	mpath := filepath.Join(dir, resultsdir.ManifestFile)
	data, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["spec"] = strings.Replace(m["spec"].(string), `"census", `, `{path = "gone.csv", label = "census"}, `, 1)
	data, _ = json.Marshal(m)
	os.WriteFile(mpath, data, 0o644)
	res, err := Run(context.Background(), dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Original) != 0 || len(res.OriginalNotes) != 1 || !strings.Contains(res.OriginalNotes[0], "gone.csv") {
		t.Errorf("original %+v, notes %q; want none and a note naming gone.csv", res.Original, res.OriginalNotes)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, resultsdir.ReportFile))
	if !strings.Contains(string(rep), "- the unprotected original was not measured: ") {
		t.Errorf("REPORT.md does not say the original was not measured")
	}
}

// TestInapplicableNotRanked: a configuration whose cells are empty (a measure that does not
// apply to its columns) gets no rank and no line in REPORT.md's best table.
func TestInapplicableNotRanked(t *testing.T) {
	dir := t.TempDir()
	runs := "run_id,dataset,method,param_pd,replicate,seed,il1s,seconds,status,error\n" +
		"a1,d,pram,0.75,1,1,,0.1,ok,il1s measures numeric columns; roof is categorical\n" +
		"a2,d,pram,0.75,2,2,,0.1,ok,il1s measures numeric columns; roof is categorical\n" +
		"b1,d,mdav,,1,3,0.5,0.1,ok,\n" +
		"c1,d,noise,,1,4,0.7,0.1,ok,\n" +
		"c2,d,noise,,2,5,0.9,0.1,ok,\n"
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(runs), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), dir, Config{Metrics: []string{"il1s"}})
	if err != nil {
		t.Fatal(err)
	}
	ranks := map[string]int{}
	for _, b := range res.Best {
		if b.Metric == "il1s" {
			ranks[b.Config] = b.Rank
		}
	}
	if r, ok := ranks["pram"]; ranks["mdav"] != 1 || ranks["noise"] != 2 || !ok || r != 0 {
		t.Errorf("ranks %v, want mdav 1, noise 2, pram unranked (0)", ranks)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, resultsdir.ReportFile))
	best := string(rep)[strings.Index(string(rep), "## Best configuration"):]
	best = best[:strings.Index(best[3:], "## ")+3]
	if strings.Contains(best, "pram") {
		t.Errorf("the best table ranks pram:\n%s", best)
	}
}
