package perturb

import (
	"encoding/csv"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"gonum.org/v1/gonum/stat"
)

// naTestdata is testdata's expend, income and savings with the missing values of
// testdata/na.R: row i (1-based) loses expend when 7 | i, income when 11 | i, savings when
// 13 | i, and all three when 50 | i.
func naTestdata(t *testing.T) *datasets.Dataset {
	t.Helper()
	td, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	d, err := td.Select([]string{"expend", "income", "savings"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < d.N; i++ {
		for j, m := range []int{7, 11, 13} {
			if (i+1)%m == 0 || (i+1)%50 == 0 {
				d.Data[i*d.P+j] = math.NaN()
			}
		}
	}
	return d
}

// readRef reads a reference CSV of testdata/na.R: its header and rows of cells.
func readRef(t *testing.T, file string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[0], rows[1:]
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	if s == "NA" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// relClose reports whether got equals want to a relative 1e-13 (the rounding of a sum of 4,000
// terms; R accumulates in long double), NaN matching NaN.
func relClose(got, want float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-13*math.Abs(want)
}

// TestMissingStats checks the statistics the noise methods take over the available values
// against sdcMicro's (R's mean, sd with na.rm = TRUE and cov(na.omit(x))).
func TestMissingStats(t *testing.T) {
	d := naTestdata(t)
	_, rows := readRef(t, "testdata/na_stats.csv")
	sc := availScaling(d)
	cc := completeRows(d)
	cov := covMat(cc.Data, cc.N, cc.P)
	for j, r := range rows {
		if got, want := sc.Mean[j], num(t, r[1]); !relClose(got, want) {
			t.Errorf("%s: mean %.17g, R %.17g", r[0], got, want)
		}
		if got, want := sc.SD[j], num(t, r[2]); !relClose(got, want) {
			t.Errorf("%s: sd %.17g, R %.17g", r[0], got, want)
		}
		for b := 0; b < 3; b++ {
			if got, want := cov.At(j, b), num(t, r[3+b]); !relClose(got, want) {
				t.Errorf("cov(%s, %d) = %.17g, R %.17g", r[0], b, got, want)
			}
		}
		if n, _ := strconv.Atoi(r[6]); cc.N != n {
			t.Errorf("%d complete rows, R %d", cc.N, n)
		}
	}
}

// TestRestrMissing checks noise_restr (deterministic) on testdata with missing values against
// sdcMicro's addNoise(method = "restr", noise = 150), every cell, missing where R's is.
func TestRestrMissing(t *testing.T) {
	d := naTestdata(t)
	got := protect(t, "noise_restr", d, map[string]string{"noise_pct": "150"}, 1)
	_, rows := readRef(t, "testdata/na_restr.csv")
	bad := 0
	for i, r := range rows {
		for j, s := range r {
			if g, w := got.At(i, j), num(t, s); !relClose(g, w) {
				if bad++; bad <= 5 {
					t.Errorf("row %d, %s: %.17g, sdcMicro %.17g", i+1, d.Names[j], g, w)
				}
			}
		}
	}
}

// TestNoiseMissingMC checks noise_additive and noise_correlated2 on testdata with missing
// values against one sdcMicro release each, within Monte Carlo error (4 standard errors of
// the difference of two independent estimates), and that missing cells stay missing.
func TestNoiseMissingMC(t *testing.T) {
	d := naTestdata(t)
	_, rows := readRef(t, "testdata/na_noise.csv")
	add := protect(t, "noise_additive", d, map[string]string{"noise_pct": "150"}, 1)
	c2 := protect(t, "noise_correlated2", d, map[string]string{"delta": "0.5"}, 1)
	for j, r := range rows {
		var e, y []float64
		for i := 0; i < d.N; i++ {
			x := d.At(i, j)
			if math.IsNaN(x) {
				if !math.IsNaN(add.At(i, j)) || !math.IsNaN(c2.At(i, j)) {
					t.Fatalf("row %d, %s: missing in, %v and %v out", i+1, r[0], add.At(i, j), c2.At(i, j))
				}
				continue
			}
			e = append(e, add.At(i, j)-x)
			y = append(y, c2.At(i, j))
		}
		n := float64(len(e))
		if want, _ := strconv.Atoi(r[4]); len(e) != want {
			t.Errorf("%s: %d available, R %d", r[0], len(e), want)
		}
		_, sd := meanSD(e)
		if want := num(t, r[1]); !within(sd, want, math.Sqrt2*want/math.Sqrt(2*n)) {
			t.Errorf("%s: additive noise SD %.6g, sdcMicro's release %.6g", r[0], sd, want)
		}
		m, s := meanSD(y)
		wm, ws := num(t, r[2]), num(t, r[3])
		if !within(m, wm, math.Sqrt2*ws/math.Sqrt(n)) || !within(s, ws, math.Sqrt2*ws/math.Sqrt(2*n)) {
			t.Errorf("%s: correlated2 mean %.6g sd %.6g, sdcMicro's release %.6g %.6g", r[0], m, s, wm, ws)
		}
	}
}

// TestMissingKept checks the methods that keep missing cells missing (rankswap, shuffle_ds,
// noise_mult, noise_correlated, egadp_sdcmicro): same missing cells, finite elsewhere, and
// for rankswap and shuffle_ds each column's available values a permutation of the original's.
func TestMissingKept(t *testing.T) {
	d := naTestdata(t)
	for _, c := range []struct {
		name string
		raw  map[string]string
		perm bool
	}{
		{"rankswap", nil, true},
		{"shuffle_ds", nil, false}, // the filled cells take part in the reverse mapping
		{"noise_mult", nil, false},
		{"noise_correlated", nil, false},
		{"egadp_sdcmicro", map[string]string{"preds": "savings"}, false},
	} {
		got := protect(t, c.name, d, c.raw, 3)
		for j := 0; j < d.P; j++ {
			var a, b []float64
			for i := 0; i < d.N; i++ {
				x, y := d.At(i, j), got.At(i, j)
				if math.IsNaN(x) != math.IsNaN(y) || math.IsInf(y, 0) {
					t.Fatalf("%s: row %d, %s: %v in, %v out", c.name, i+1, d.Names[j], x, y)
				}
				if !math.IsNaN(x) {
					a, b = append(a, x), append(b, y)
				}
			}
			if c.perm {
				slices.Sort(a)
				slices.Sort(b)
				if !slices.Equal(a, b) {
					t.Errorf("%s: %s's available values are not a permutation of the original's", c.name, d.Names[j])
				}
			}
		}
	}
}

// TestRankSwapMissingMC checks rankswap on testdata with missing values against 20 sdcMicro
// rankSwap releases (defaults: 5 % top and bottom coding, R0 = 0.95; testdata/na_rankswap.csv):
// each column's mean correlation between original and release over the available cells within
// 4 standard errors of the difference of the two means.
func TestRankSwapMissingMC(t *testing.T) {
	d := naTestdata(t)
	_, rows := readRef(t, "testdata/na_rankswap.csv")
	const reps = 20
	cors := make([][]float64, d.P)
	for r := range reps {
		got := protect(t, "rankswap", d, map[string]string{"r0": "0.95", "top_pct": "5", "bottom_pct": "5"}, uint64(r+1))
		for j := 0; j < d.P; j++ {
			var a, b []float64
			for i := 0; i < d.N; i++ {
				if x := d.At(i, j); !math.IsNaN(x) {
					a, b = append(a, x), append(b, got.At(i, j))
				}
			}
			cors[j] = append(cors[j], stat.Correlation(a, b, nil))
		}
	}
	for j, r := range rows {
		m, s := meanSD(cors[j])
		wm, ws := num(t, r[1]), num(t, r[2])
		se := math.Sqrt((s*s + ws*ws) / reps)
		t.Logf("%s: mean correlation %.6f, sdcMicro %.6f, se %.2g", r[0], m, wm, se)
		if !within(m, wm, se) {
			t.Errorf("%s: mean correlation %.6f (sd %.2g), sdcMicro %.6f (sd %.2g)", r[0], m, s, wm, ws)
		}
	}
}

// TestPostMissing: revmap and restrict keep the missing cells of a release missing; revmap maps
// the original's available values onto the release's available cells by rank, and refuses a
// release whose missing cells are not as many as the original's.
func TestPostMissing(t *testing.T) {
	nan := math.NaN()
	x := table([]string{"a"}, []float64{5, nan, 1, 3, nan, 0})
	y := table([]string{"a"}, []float64{2.5, nan, -1, 9, nan, -0.5})
	got, err := Revmap{}.Apply(x, y, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{3, nan, 0, 5, nan, 1}
	for i, w := range want {
		if g := got.Data[i]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
			t.Errorf("revmap row %d = %v, want %v", i+1, g, w)
		}
	}
	r, err := Restrict{}.Apply(x, y, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	wantR := []float64{2.5, nan, 1, 9, nan, 0}
	for i, w := range wantR {
		if g := r.Data[i]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
			t.Errorf("restrict row %d = %v, want %v", i+1, g, w)
		}
	}
	holed := table([]string{"a"}, []float64{2.5, nan, nan, 9, nan, -0.5})
	if _, err := (Revmap{}).Apply(x, holed, []int{0}); err == nil {
		t.Error("revmap accepted a release with another number of missing cells")
	}
	// the radix path (n ≥ 2^15) as well
	n := 1 << 16
	bx, by := make([]float64, n), make([]float64, n)
	for i := range bx {
		bx[i], by[i] = float64((i*7919)%n), float64((i*104729)%n)+0.5
		if i%10 == 0 {
			bx[i], by[i] = nan, nan
		}
	}
	big, err := Revmap{}.Apply(table([]string{"a"}, bx), table([]string{"a"}, by), []int{0})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range big.Data {
		if math.IsNaN(v) != (i%10 == 0) {
			t.Fatalf("radix revmap: row %d = %v", i+1, v)
		}
	}
}
