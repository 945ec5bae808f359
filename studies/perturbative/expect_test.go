package perturbative

import (
	"math"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	_ "github.com/sdcbench/sdcbench/datasets/synth"
)

func load(t *testing.T, name string, cols ...string) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = d.Select(cols); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestExpectCheckValues compares the exact expectations with the check values of
// README.md (testdata income/expend/savings, Census columns 1-5) read from
// analytic.reference.csv.
func TestExpectCheckValues(t *testing.T) {
	td := load(t, "testdata", "income", "expend", "savings")
	c5 := load(t, "census", "AFNLWGT", "AGI", "EMCONTRB", "FEDTAX", "PTOTVAL")
	for _, tc := range []struct {
		name   string
		d      *datasets.Dataset
		nz     Noise
		metric string
		cell   string // dataset|cell of analytic.reference.csv
		rel    float64
	}{
		{"additive 5%", td, Noise{Kind: "additive", Level: 0.05}, "interval_disclosure", "testdata|noise_additive noise_pct=5", 1e-4},
		{"additive 5%", td, Noise{Kind: "additive", Level: 0.05}, "il1s_sum_sdc", "testdata|noise_additive noise_pct=5", 1e-5},
		{"additive 5%", td, Noise{Kind: "additive", Level: 0.05}, "mse", "testdata|noise_additive noise_pct=5", 1e-6},
		{"additive 5%", td, Noise{Kind: "additive", Level: 0.05}, "mae", "testdata|noise_additive noise_pct=5", 1e-6},
		{"additive 5%", td, Noise{Kind: "additive", Level: 0.05}, "eigen", "testdata|noise_additive noise_pct=5", 2e-3},
		{"correlated2", td, Noise{Kind: "correlated2", Level: 0.1}, "interval_disclosure", "testdata|noise_correlated2 delta=0.1 noise_pct=0", 2e-3},
		{"correlated2", td, Noise{Kind: "correlated2", Level: 0.1}, "il1s_sum_sdc", "testdata|noise_correlated2 delta=0.1 noise_pct=0", 1e-3},
		{"correlated2", td, Noise{Kind: "correlated2", Level: 0.1}, "mse", "testdata|noise_correlated2 delta=0.1 noise_pct=0", 1e-3},
		{"correlated2", td, Noise{Kind: "correlated2", Level: 0.1}, "eigen", "testdata|noise_correlated2 delta=0.1 noise_pct=0", 2e-3},
		{"correlated 5%", td, Noise{Kind: "correlated", Level: 0.05}, "interval_disclosure", "testdata|noise_correlated noise_pct=5", 0.03},
		{"census additive 5%", c5, Noise{Kind: "additive", Level: 0.05}, "interval_disclosure", "census5|noise_additive noise_pct=5", 1e-3},
		{"census additive 5%", c5, Noise{Kind: "additive", Level: 0.05}, "il1s_sum_sdc", "census5|noise_additive noise_pct=5", 1e-3},
	} {
		want, ok := checkValues()[tc.cell+"|"+tc.metric]
		if !ok {
			t.Errorf("%s %s: no check value in analytic.reference.csv", tc.cell, tc.metric)
			continue
		}
		got := Expect(tc.d, tc.nz)[tc.metric]
		if math.Abs(got-want) > tc.rel*math.Abs(want) {
			t.Errorf("%s %s: %.6g, want %.6g (rel %g)", tc.name, tc.metric, got, want, tc.rel)
		}
	}
}

// TestStudyTables: the published Tables 28 and 34 read from their expected.csv files.
func TestStudyTables(t *testing.T) {
	if len(Table28()) != 18 || len(Table34()) != 10 {
		t.Fatalf("%d and %d rows, want 18 and 10", len(Table28()), len(Table34()))
	}
	if r := Table28()[1]; r.Label != "Indep. noise" || !r.Flag || r.Method != "revmap(noise_additive)" || r.Vals[2] != 16.543 || r.Vals[9] != 21.50 {
		t.Errorf("Table28[1] = %+v", r)
	}
	if r := Table34()[9]; r.Method != "restrict(shuffle_ds)" || !r.Flag || r.Vals[1] != 2.6e4 {
		t.Errorf("Table34[9] = %+v", r)
	}
}

// TestReferenceTables: Table 29 from table29.expected.csv and the reference values read from
// analytic.reference.csv and sdcmicro.reference.csv.
func TestReferenceTables(t *testing.T) {
	if studyOrigCol1() != [7]float64{0, 2878, 69813, 541879, 419794, 120476104, 4.754e12} {
		t.Errorf("Table 29: %v", studyOrigCol1())
	}
	if len(checkValues()) != 12 || checkValues()["testdata|noise_additive noise_pct=5|mse"] != 1.397507e12 || checkValues()["census5|noise_additive noise_pct=5|il1s_sum_sdc"] != 152.33 {
		t.Errorf("analytic check values: %d, %v", len(checkValues()), checkValues())
	}
	if len(sdcCheck()) != 10 || sdcCheck()["egadp_sdcmicro"] != [3]float64{0, 39276, 423} || sdcCheck()["revmap(noise_additive)"][2] != 1.67 {
		t.Errorf("sdcMicro check values: %d, %v", len(sdcCheck()), sdcCheck())
	}
}

// TestStudyTablesCategoricalGini: the categorical stage's values and Table 44 read from their
// expected.csv files.
func TestStudyTablesCategoricalGini(t *testing.T) {
	if len(Categorical()) != 11 || Categorical()[10].Value != "0.25%, 1.03%, 1.44%" {
		t.Errorf("Categorical: %d rows, last %+v", len(Categorical()), Categorical()[len(Categorical())-1])
	}
	if studyGini()[3] != [3]float64{79.1964, 71.6055, 65.0962} {
		t.Errorf("studyGini[3] = %v", studyGini()[3])
	}
}

// TestTargets: the exact checks read from categorical-targets.reference.csv, with the DIS-SUDA
// bin counts last.
func TestTargets(t *testing.T) {
	if len(Targets()) != 36 {
		t.Fatalf("%d targets, want 36", len(Targets()))
	}
	want := Target{"original", keys, "water", "1", "dis_suda_mean", 0.00214652640203, 5e-15, "suda2, original scores"}
	if Targets()[10] != want {
		t.Errorf("Targets[10] = %+v, want %+v", Targets()[10], want)
	}
	if last := Targets()[35]; last.Metric != "dis_suda_mean_bin_gt0.7" || last.Want != 0 || last.Note != "DIS-SUDA bin count" {
		t.Errorf("last target %+v", last)
	}
	if w := Targets()[12]; w.Dataset != "keys_weighted" || w.Want != 10.77829892 {
		t.Errorf("Targets[12] = %+v", w)
	}
}

// TestStudyValue: the published values the pattern checks quote, looked up in Tables 28 and 34.
func TestStudyValue(t *testing.T) {
	if v := studyValue(Table34(), "restrict(egadp_sdcmicro)", "interval_disclosure"); v != 2.36 {
		t.Errorf("Table 34 restricted EGADP risk %v, want 2.36", v)
	}
	if v := studyValue(Table28(), "rankswap", "eigen"); v != 16.780 {
		t.Errorf("Table 28 rank swapping eigen %v, want 16.780", v)
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing method does not panic")
		}
	}()
	studyValue(Table28(), "no_such_method", "eigen")
}
