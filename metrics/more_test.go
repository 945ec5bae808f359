package metrics

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
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

// TestImp checks the DFO paper identity of metrics.md §2.3: 15.44 after 8.79% improvement
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
	in.Diag.Search = &diag.Search{ILStart: 20}
	if got, want := Imp(in).Value, 100*(20-16.4855756738)/20; !near(got, want, 1e-9) {
		t.Errorf("imp = %v, want %v", got, want)
	}
	if got := Imp(table21()).Value; !math.IsNaN(got) {
		t.Errorf("imp without start = %v, want NaN", got)
	}
}

// TestDBRLAttr checks the per-attribute linkage of metrics.md §3.5 on hand-computed cases.
func TestDBRLAttr(t *testing.T) {
	for i, c := range []struct {
		x, xm        []float64
		want1, want2 float64
	}{
		// x' = 2.6 is nearest to 3 (distance 0.4) and second nearest to its own 2 (0.6)
		{x: []float64{1, 2, 3, 4}, xm: []float64{1.1, 2.6, 2.9, 4}, want1: 75, want2: 100},
		// x' = 2 is equidistant from 1 and 3 (z = ∓1/√2 exactly): credit 1/2 each for K = 1
		{x: []float64{1, 3}, xm: []float64{2, 2}, want1: 50, want2: 100},
	} {
		col := func(v []float64) *datasets.Dataset {
			rows := make([][]float64, len(v))
			for j := range v {
				rows[j] = []float64{v[j]}
			}
			return table([]string{"v"}, rows...)
		}
		in := &Input{Orig: col(c.x), Masked: col(c.xm)}
		if got := DBRLAttr(in).Value; !near(got, c.want1, 1e-12) {
			t.Errorf("case %d: dbrl_attr = %v, want %v", i, got, c.want1)
		}
		if got := DBRLAttr2(in).Value; !near(got, c.want2, 1e-12) {
			t.Errorf("case %d: dbrl_attr2 = %v, want %v", i, got, c.want2)
		}
	}
	// first-index ties: record 1 (smallest index among the tied originals 1, 2) wins
	in := &Input{Orig: table([]string{"v"}, []float64{1}, []float64{3}),
		Masked: table([]string{"v"}, []float64{2}, []float64{2}), Opt: Options{DBRLTies: "first"}}
	if got := DBRLAttr(in).Value; got != 50 {
		t.Errorf("dbrl_attr first = %v, want 50", got)
	}
}

// TestIL3Options checks the il3_zero and il3_space options of metrics.md §2.6.
func TestIL3Options(t *testing.T) {
	x := table([]string{"a", "b"}, []float64{0, 1}, []float64{0, 2}, []float64{0, 4}, []float64{0, 3})
	xm := table([]string{"a", "b"}, []float64{0, 1}, []float64{1, 2}, []float64{0, 4}, []float64{2, 3})
	// literal: c1 has 1/0 = +Inf terms, so il3 is +Inf (and NaN terms 0/0 make it NaN)
	lit := IL3(&Input{Orig: x, Masked: xm, Opt: Options{IL3Zero: "literal"}})
	if !math.IsNaN(lit.Value) && !math.IsInf(lit.Value, 1) {
		t.Errorf("literal il3 = %v, want Inf or NaN", lit.Value)
	}
	ex := IL3(&Input{Orig: x, Masked: xm})
	if ex.Aux["nexcl_c1"] != 4 || ex.Value != 0 {
		t.Errorf("exclude: il3 = %v, nexcl_c1 = %v; want 0, 4", ex.Value, ex.Aux["nexcl_c1"])
	}
	// zscore space: unchanged release still has zero loss; the tiny release differs from raw
	in := tiny()
	raw := IL3(in).Value
	in = tiny()
	in.Opt.IL3Space = "zscore"
	if z := IL3(in).Value; math.IsNaN(z) || z == raw {
		t.Errorf("zscore il3 = %v (raw %v)", z, raw)
	}
}
