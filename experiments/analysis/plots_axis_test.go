package analysis

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/metrics"
)

func TestMetricAxis(t *testing.T) {
	lower := direction{better: metrics.Lower}
	for _, tc := range []struct {
		name     string
		values   []float64
		extra    []float64
		log      bool
		min, max float64
	}{
		{"span 1000×: log", []float64{1, 10, 1000}, nil, true, 1 / 1.25, 1000 * 1.25},
		{"span 100×: linear", []float64{1, 100}, nil, false, 1 - 0.05*99, 100 + 0.05*99},
		{"a zero: linear", []float64{0, 0.001, 10}, nil, false, -0.5, 10.5},
		{"the original's 0 off a log axis", []float64{0.01, 5}, []float64{0}, true, 0.01 / 1.25, 5 * 1.25},
		{"the original's 0 on a linear axis", []float64{1, 50}, []float64{0}, false, -2.5, 52.5},
		{"the original's risk widens a log axis", []float64{0.1, 50}, []float64{100}, true, 0.1 / 1.25, 125},
		{"one value", []float64{5, 5}, nil, false, 4.75, 5.25},
	} {
		a := newMetricAxis("sse_sst", lower, [][]float64{tc.values, {math.NaN()}}, tc.extra...)
		if !a.ok || a.Log != tc.log || a.Min != tc.min || a.Max != tc.max {
			t.Errorf("%s: axis %+v, want log %v, [%v, %v]", tc.name, a, tc.log, tc.min, tc.max)
		}
		want := "SSE/SST (%), lower is better"
		if tc.log {
			want += ", log scale"
		}
		if a.Label != want {
			t.Errorf("%s: label %q, want %q", tc.name, a.Label, want)
		}
	}
	if a := newMetricAxis("sse_sst", lower, [][]float64{{math.NaN()}}); a.ok {
		t.Errorf("no finite value: axis %+v, want none", a)
	}
	if a := newMetricAxis("sse_sst", lower, [][]float64{{0.01, 5}}); a.shows(0) || !a.shows(0.01) {
		t.Errorf("a log axis shows 0 or not its minimum")
	}
}

func TestAxisLabels(t *testing.T) {
	for _, tc := range []struct {
		col  string
		dir  direction
		want string
	}{
		{"il3", direction{better: metrics.Lower}, "IL3 (%), lower is better"},
		{"dbrl_sets_s3", direction{better: metrics.Lower}, "DBRL per subset s3 (%), lower is better"},
		{"ldiv_distinct_median_q1", direction{better: metrics.Lower}, "Distinct l-diversity median q1 (count), lower is better"},
		{"seconds", direction{better: metrics.Lower}, "run time (s), lower is better"},
		{"my_score", direction{better: metrics.Higher}, "my_score, higher is better"},
	} {
		if got := axisLabel(tc.col, tc.dir); got != tc.want {
			t.Errorf("axisLabel(%s) = %q, want %q", tc.col, got, tc.want)
		}
	}
}

// TestPanelsShareTheMetricAxis: every panel of a metric's figure has the same labelled range,
// and the original has its legend entry.
func TestPanelsShareTheMetricAxis(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	res, err := Analyze(context.Background(), dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := res.Figures()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range figs {
		if !strings.HasPrefix(f.Name, "box_") && !strings.HasPrefix(f.Name, "rumap_") && !strings.HasPrefix(f.Name, "curve_") {
			continue
		}
		if len(f.Panels) < 2 {
			t.Errorf("%s: %d panels, want one per dataset", f.Name, len(f.Panels))
			continue
		}
		seen++
		p0 := f.Panels[0]
		for _, p := range f.Panels[1:] {
			if p.X.Min != p0.X.Min || p.X.Max != p0.X.Max || p.X.Label.Text != p0.X.Label.Text {
				t.Errorf("%s: x axes differ: [%v, %v] %q vs [%v, %v] %q", f.Name, p.X.Min, p.X.Max, p.X.Label.Text, p0.X.Min, p0.X.Max, p0.X.Label.Text)
			}
			if !strings.HasPrefix(f.Name, "box_") && (p.Y.Min != p0.Y.Min || p.Y.Max != p0.Y.Max || p.Y.Label.Text != p0.Y.Label.Text) {
				t.Errorf("%s: y axes differ", f.Name)
			}
		}
		label := p0.X.Label.Text + " " + p0.Y.Label.Text
		if !strings.Contains(label, "is better") {
			t.Errorf("%s: axis labels %q name no direction", f.Name, label)
		}
		if f.Legend == nil || !slices.ContainsFunc(f.Legend.names, func(s string) bool { return strings.HasPrefix(s, originalLegend) }) {
			t.Errorf("%s: no legend entry for the original", f.Name)
		}
	}
	if seen < 5 {
		t.Errorf("%d box, map and curve figures, want at least 5", seen)
	}
}
