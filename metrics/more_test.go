package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestGini checks metrics.md §7.4 (R laeken::gini).
func TestGini(t *testing.T) {
	for i, c := range []struct {
		x, w []float64
		want float64
	}{
		{x: []float64{1, 2, 3, 4, 10}, want: 40},
		{x: []float64{2, 2, 3, 3, 10}, want: 34},
		{x: []float64{1, 2, 3, 4, 10}, w: []float64{1, 2, 1, 1, 3}, want: 38.0952380952381},
		{x: []float64{2, 2, 3, 3, 10}, w: []float64{1, 2, 1, 1, 3}, want: 35.7142857142857},
		{x: []float64{10, 4, 3, 2, 1}, w: []float64{3, 1, 1, 2, 1}, want: 38.0952380952381}, // unsorted input
		{x: []float64{0, 0, 0}, want: math.NaN()},                                           // Σωx = 0
	} {
		if got := Gini(c.x, c.w); !near(got, c.want, 1e-12) {
			t.Errorf("case %d: Gini = %.15g, want %.15g", i, got, c.want)
		}
	}
	x := table([]string{"v"}, []float64{1}, []float64{2}, []float64{3}, []float64{4}, []float64{10})
	xm := table([]string{"v"}, []float64{2}, []float64{2}, []float64{3}, []float64{3}, []float64{10})
	if got := GiniDiff(&Input{Orig: x, Masked: xm}).Value; !near(got, 6, 1e-12) {
		t.Errorf("gini_diff = %v, want 6", got)
	}
	// weights as a column of the table: not itself an attribute
	xw := table([]string{"v", "w"}, []float64{1, 1}, []float64{2, 2}, []float64{3, 1}, []float64{4, 1}, []float64{10, 3})
	xmw := table([]string{"v", "w"}, []float64{2, 1}, []float64{2, 2}, []float64{3, 1}, []float64{3, 1}, []float64{10, 3})
	got := GiniDiff(&Input{Orig: xw, Masked: xmw, Opt: Options{Weight: "w"}}).Value
	if want := 38.0952380952381 - 35.7142857142857; !near(got, want, 1e-12) {
		t.Errorf("weighted gini_diff = %v, want %v", got, want)
	}
}

// TestScore checks the score identity of metrics.md §7.6 and the §6.4 combinations on
// Table 2.1 (§7.1).
func TestScore(t *testing.T) {
	dr := DROf(10, 20, 30)
	if dr != 22.5 {
		t.Errorf("dr = %v, want 22.5", dr)
	}
	if s := ScoreOf(40, dr); s != 31.25 {
		t.Errorf("score = %v, want 31.25", s)
	}
	checkVectors(t, table21, []vec{
		{name: "fobj1", f: Fobj1, want: 16.4855756738},
		{name: "fobj2", f: Fobj2, want: 20.6975150887},
		{name: "fobj3", f: Fobj3, want: 24.9094545036},
		{name: "il1_dld_mean", f: IL1DLDMean, want: 24.9094545036},
		{name: "fobj4_cal", f: Fobj4Cal, want: 29.1213939184},
		{name: "fobj4", f: Fobj4, want: 0.201049021023},
		{name: "dr", f: DR, want: DROf(29.6296296296296, 3.7037037037037, 0)},
	})
	checkVectors(t, tiny, []vec{
		{name: "fobj5", f: Fobj5, want: 6.27966320724746},
		{name: "fobj5 code", f: Fobj5, opt: &Options{IL3Variant: "code"}, want: 6.07573349576834},
		// dbrl 100, prl 100, id_rank 22.2…, pil 12.887…
		{name: "dr", f: DR, want: DROf(100, 100, 200.0/9)},
		{name: "score", f: Score, want: ScoreOf(12.8873145256, DROf(100, 100, 200.0/9)), tol: 1e-11},
	})
}

// TestSDIDConstantColumn checks metrics.md §7.2: adding d = 7 to X and X' makes sdid NaN
// (R's all() over an NA ratio) while the released-SD interval measure stays defined.
func TestSDIDConstantColumn(t *testing.T) {
	in := tiny()
	if got := SDID(in).Value; !near(got, 100.0/3, 1e-12) {
		// records 1 and 5 are inside on a, b and c (§7.2 inside pattern)
		t.Errorf("sdid without d = %v, want 33.33", got)
	}
	add := func(d *datasets.Dataset) *datasets.Dataset {
		out := make([]float64, 0, d.N*(d.P+1))
		for i := 0; i < d.N; i++ {
			out = append(append(out, d.Row(i)...), 7)
		}
		return datasets.New("d", append(append([]string{}, d.Names...), "d"), d.N, d.P+1, out)
	}
	in = &Input{Orig: add(in.Orig), Masked: add(in.Masked)}
	if got := SDID(in).Value; !math.IsNaN(got) {
		t.Errorf("sdid with constant d = %v, want NaN", got)
	}
	in.Opt.SDIDDist = []float64{0.05, 0.5}
	if r := SDID(in); !math.IsNaN(r.Aux["0.5"]) || len(r.Aux) != 2 {
		t.Errorf("sdid thresholds: %v", r.Aux)
	}
}

// TestSSESSTLowerBound checks the Tarragona reference values of metrics.md §2.2 (8
// significant digits) and that the bound is below MDAV-like partitions of Table 2.1.
func TestSSESSTLowerBound(t *testing.T) {
	d, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		k    int
		want float64
	}{{3, 9.8551163}, {5, 13.927346}, {10, 19.218068}} {
		got := SSESSTLowerBound(&Input{Orig: d, Masked: d, Opt: Options{K: c.k}}).Value
		if !near(got, c.want, 5e-8/c.want*10) {
			t.Errorf("k=%d: sse_sst_lb = %.10g, want %.8g", c.k, got, c.want)
		}
	}
	// Table 2.1: the bound (k from the labels) is below the release's sse_sst.
	in := table21()
	in.Labels = []int32{0, 0, 1, 2, 2, 1, 1, 0, 2}
	lb := SSESSTLowerBound(in)
	if lb.Aux["k"] != 3 || !(lb.Value <= SSESST(in).Value) {
		t.Errorf("Table 2.1: lb %v (k %v) > sse_sst %v", lb.Value, lb.Aux["k"], SSESST(in).Value)
	}
	if v := SSESSTLowerBound(table21()).Value; !math.IsNaN(v) {
		t.Errorf("unknown k: %v, want NaN", v)
	}
}

// TestImp checks the seed 001 identity of metrics.md §2.3: 15.44 after 8.79% improvement
// recovers the MDAV start 16.93 (Table 1, Tarragona).
func TestImp(t *testing.T) {
	if got := 15.44 / (1 - ImpOf(16.93, 15.44)/100); math.Abs(got-16.93) > 1e-12 {
		t.Errorf("imp identity: %v", got)
	}
	// the published, rounded pair: IL/(1 − imp/100) within ±0.01 of the MDAV start (§8.2)
	if got := 15.44 / (1 - 8.79/100); math.Abs(got-16.93) > 0.01 {
		t.Errorf("15.44/(1 − 0.0879) = %v, want 16.93 ± 0.01", got)
	}
	in := table21()
	in.Info = map[string]any{"sse_sst_start": 20.0}
	if got, want := Imp(in).Value, 100*(20-16.4855756738)/20; !near(got, want, 1e-9) {
		t.Errorf("imp = %v, want %v", got, want)
	}
	if got := Imp(table21()).Value; !math.IsNaN(got) {
		t.Errorf("imp without start = %v, want NaN", got)
	}
}
