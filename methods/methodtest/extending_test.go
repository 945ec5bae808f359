package methodtest_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/methodtest"
	"github.com/sdcbench/sdcbench/metrics"
)

// The method and the metric of docs/extending.md. TestExtendingDoc checks that the document
// shows this code verbatim, so the guide compiles and cannot rot.

// BEGIN method
func init() { methods.Register(TopCode{}) }

// TopCode is `topcode`: in every column, values above the pct-th percentile
// (gonum's stat.Quantile, LinInterp) are replaced by that percentile.
type TopCode struct{}

func (TopCode) Info() methods.Info {
	return methods.Info{
		Name:        "topcode",
		Description: "top-coding: values above each column's pct-th percentile are set to it",
		Params: []methods.ParamSpec{{Name: "pct", Kind: methods.Float, Default: "95",
			Min: 50, Max: 100, Doc: "percentile at which values are capped"}},
		Missing: "kept missing; the percentile is that of the observed values",
	}
}

func (TopCode) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	out := d.Clone() // never modify d
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		col := slices.DeleteFunc(d.Col(j), math.IsNaN) // the observed values
		slices.Sort(col)
		top := stat.Quantile(p.Float("pct")/100, stat.LinInterp, col, nil)
		for i := 0; i < d.N; i++ {
			out.Data[i*d.P+j] = min(out.Data[i*d.P+j], top) // min(NaN, top) is NaN
		}
	}
	return &methods.Release{Masked: out}, nil
}

// END method

// BEGIN metric
func init() {
	metrics.Register(metrics.Func(metrics.Info{ID: "max_change", Unit: "raw", Better: metrics.Lower,
		Description: "largest |x − x'| over all cells, in SDs of the original column"},
		func(in *metrics.Input) metrics.Result {
			sd := in.Scaling().SD
			worst := 0.0
			for i, x := range in.Orig.Data {
				if s := sd[i%in.Orig.P]; s > 0 {
					worst = max(worst, math.Abs(x-in.Masked.Data[i])/s)
				}
			}
			return metrics.Result{Value: worst}
		}))
}

// END metric

// BEGIN test
func TestTopCode(t *testing.T) {
	d, _ := datasets.Load("census")
	methodtest.Check(t, TopCode{}, map[string]string{"pct": "90"}, d)
	rel, err := methods.Apply(context.Background(), "topcode", d, methods.Set{"pct": 90.0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := metrics.Evaluate(d, rel.Masked, "max_change", "sse_sst")
	if err != nil || !(v["max_change"] > 0) {
		t.Fatalf("Evaluate = %v, %v", v, err)
	}
}

// END test

// TestTopCodeSpec runs the method from a spec, as a user's spec would name it.
func TestTopCodeSpec(t *testing.T) {
	spec := `name = "mine"
datasets = ["census"]
metrics = ["sse_sst", "max_change", "dld"]
[[methods]]
name = "topcode"
grid = {pct = [90, 99]}
`
	if !strings.Contains(extendingDoc(t), spec) {
		t.Errorf("docs/extending.md does not show the spec:\n%s", spec)
	}
	s, err := experiments.Parse([]byte(spec), "mine.toml")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := experiments.Execute(context.Background(), s, experiments.Options{Out: t.TempDir()})
	if err != nil || sum.Failed > 0 || sum.Done != 2 {
		t.Fatalf("Execute: %+v, %v", sum, err)
	}
}

func extendingDoc(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExtendingDoc: every BEGIN/END block of this file appears verbatim in docs/extending.md.
func TestExtendingDoc(t *testing.T) {
	src, err := os.ReadFile("extending_test.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := extendingDoc(t)
	for _, name := range []string{"method", "metric", "test"} {
		_, rest, ok := strings.Cut(string(src), "// BEGIN "+name+"\n")
		block, _, ok2 := strings.Cut(rest, "\n// END "+name)
		if !ok || !ok2 {
			t.Fatalf("no %s block", name)
		}
		if !strings.Contains(doc, strings.TrimSpace(block)) {
			t.Errorf("docs/extending.md does not show the %s block of extending_test.go verbatim", name)
		}
	}
}
