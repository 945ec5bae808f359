package metrics

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// sdcKeys are the seven categorical keys of sdcMicro's testdata used by its examples.
var sdcKeys = []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}

// testdataNA returns sdcMicro's testdata, or with na the copy of testdata/perrecord/perrecord.R
// with missing key values: roof in every 97th record, water in every 89th, sex in every 251st.
func testdataNA(t *testing.T, na bool) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if !na {
		return d
	}
	d = d.Clone()
	for _, c := range []struct {
		col   string
		every int
	}{{"roof", 97}, {"water", 89}, {"sex", 251}} {
		j := d.ColIndex(c.col)
		for i := c.every - 1; i < d.N; i += c.every {
			d.Data[i*d.P+j] = math.NaN()
		}
	}
	return d
}

// readExpected reads a gzipped CSV of testdata/perrecord as a header and float rows.
func readExpected(t *testing.T, name string) ([]string, [][]float64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "perrecord", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, len(recs)-1)
	for i, rec := range recs[1:] {
		for _, s := range rec {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s line %d: %v", name, i+2, err)
			}
			rows[i] = append(rows[i], v)
		}
	}
	return recs[0], rows
}

// closeTo reports whether got equals want to a relative 1e-12 (absolute near 0).
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*max(1, math.Abs(want))
}

// sdcInput is the Input of sdcMicro's createSdcObj(testdata, keyVars = sdcKeys, w =
// "sampling_weight", hhId = "ori_hid") with suda2's rule for missing keys.
func sdcInput(d *datasets.Dataset) *Input {
	return &Input{Orig: d, Masked: d, Opt: Options{Keys: sdcKeys, Weight: "sampling_weight",
		Household: "ori_hid", SUDAMissing: "ignore"}}
}

// TestPerRecordSdcMicro: every per-record value equals sdcMicro 5.8.1's on testdata and on a
// copy with missing keys (testdata/perrecord/perrecord.R): fk, Fk, risk and hier_risk of
// createSdcObj, and suda2's score, disScore and contributionPercent per key.
func TestPerRecordSdcMicro(t *testing.T) {
	for _, c := range []struct {
		file string
		na   bool
	}{{"testdata.csv.gz", false}, {"testdata_na.csv.gz", true}} {
		t.Run(c.file, func(t *testing.T) {
			header, want := readExpected(t, c.file)
			d := testdataNA(t, c.na)
			rr, err := PerRecord(sdcInput(d))
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != d.N || !slices.Equal(rr.Keys, sdcKeys) {
				t.Fatalf("%d expected rows for %d records, keys %v", len(want), d.N, rr.Keys)
			}
			got := func(i int, col string) float64 {
				switch col {
				case "fk":
					return rr.Fk[i]
				case "Fk":
					return rr.FkW[i]
				case "risk":
					return rr.Risk[i]
				case "hier_risk":
					return rr.HierRisk[i]
				case "suda_score":
					return rr.SUDAScore[i]
				case "dis_score":
					return rr.DIS[i]
				}
				c := slices.Index(sdcKeys, col[len("contrib_"):])
				return rr.Contrib[i*len(sdcKeys)+c]
			}
			worst := map[string]float64{}
			for i, row := range want {
				for j, col := range header {
					g := got(i, col)
					ok := closeTo(g, row[j])
					if col == "dis_score" && c.na {
						// sdcMicro's U (records unique on the full key) enters DIS only through
						// single-precision rounding (U/Dis − U = D·(1−f)/f exactly), and with
						// missing keys its Suda2 counts U otherwise than the uniques: the scores
						// then agree to float32 precision (2^−23 relative), not to the last bit.
						ok = math.Abs(g-row[j]) <= 0x1p-23*math.Abs(row[j])
					}
					if !ok {
						t.Fatalf("record %d %s = %v, sdcMicro %v", i+1, col, g, row[j])
					}
					worst[col] = max(worst[col], math.Abs(g-row[j]))
				}
			}
			t.Logf("largest differences: %v", worst)
		})
	}
}

// TestSUDAContributionsSdcMicro: suda_contrib_max and SUDAContributions equal suda2's
// attribute_contributions (testdata/perrecord/contributions.csv).
func TestSUDAContributionsSdcMicro(t *testing.T) {
	recs := readRecords(t, filepath.Join("testdata", "perrecord", "contributions.csv"))
	want := map[string]map[string]float64{}
	for _, r := range recs[1:] {
		if want[r[0]] == nil {
			want[r[0]] = map[string]float64{}
		}
		want[r[0]][r[1]], _ = strconv.ParseFloat(r[2], 64)
	}
	for table, w := range want {
		in := sdcInput(testdataNA(t, table == "testdata_na"))
		keys, pct, err := SUDAContributions(in)
		if err != nil {
			t.Fatal(err)
		}
		best, bestKey := math.Inf(-1), 0
		for c, k := range keys {
			if !closeTo(pct[c], w[k]) {
				t.Errorf("%s: contribution of %s = %v, sdcMicro %v", table, k, pct[c], w[k])
			}
			if w[k] > best {
				best, bestKey = w[k], c+1
			}
		}
		r := SUDAContribMax(in)
		if !closeTo(r.Value, best) || r.Aux["key"] != float64(bestKey) || !closeTo(r.Aux["relat"], w["relat"]) {
			t.Errorf("%s: suda_contrib_max = %v (key %v), want %v (key %d)", table, r.Value, r.Aux["key"], best, bestKey)
		}
	}
}

// TestRiskyCellsSdcMicro: risky_cells equals sdcMicro riskyCells (useIdentificationLevel =
// FALSE) per dimension, for one threshold, one per dimension and all seven dimensions, on
// testdata with and without missing keys (testdata/perrecord/riskycells.csv).
func TestRiskyCellsSdcMicro(t *testing.T) {
	recs := readRecords(t, filepath.Join("testdata", "perrecord", "riskycells.csv"))
	type cfg struct{ table, threshold, maxDim string }
	want := map[cfg][]float64{}
	var order []cfg
	for _, r := range recs[1:] {
		k := cfg{r[0], r[1], r[2]}
		if want[k] == nil {
			order = append(order, k)
		}
		v, _ := strconv.ParseFloat(r[4], 64)
		want[k] = append(want[k], v)
	}
	for _, k := range order {
		in := sdcInput(testdataNA(t, k.table == "testdata_na"))
		if err := in.Opt.SetOption("risky_cells_threshold", strings.ReplaceAll(k.threshold, " ", ",")); err != nil {
			t.Fatal(err)
		}
		if err := in.Opt.SetOption("risky_cells_max_dim", k.maxDim); err != nil {
			t.Fatal(err)
		}
		r := RiskyCells(in)
		var total float64
		for d, w := range want[k] {
			total += w
			if got := r.Aux["d"+itoa(d+1)]; got != w {
				t.Errorf("%v: %d-key tables: %v unsafe cells, sdcMicro %v", k, d+1, got, w)
			}
		}
		if r.Value != total {
			t.Errorf("%v: risky_cells = %v, sdcMicro %v", k, r.Value, total)
		}
	}
	// the defaults are threshold 2 and 3 dimensions: the first configuration of the file
	in := sdcInput(testdataNA(t, false))
	if r := RiskyCells(in); r.Value != 1+23+245 {
		t.Errorf("risky_cells with the defaults = %v, want %v", r.Value, 1+23+245)
	}
}

// TestPerRecordSumsToMeasures: on random categorical keys (with missing values, weights and
// households) the per-record values sum or average to the measures: Σ risk = global_risk_er,
// mean risk = ind_risk_mean, Σ hier_risk = hier_risk_er, mean DIS = dis_suda_mean, Σ suda score
// = dis_suda_mean's score_sum; #{fk < 3} = kanon_viol_3; and the SUDA contributions weighted by
// the scores give SUDAContributions.
func TestPerRecordSumsToMeasures(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 200 + r.IntN(300)
		names := []string{"a", "b", "c", "d", "w", "h"}
		data := make([]float64, n*len(names))
		for i := 0; i < n; i++ {
			for j := 0; j < 4; j++ {
				data[i*6+j] = float64(r.IntN(2 + j*2))
				if r.IntN(40) == 0 {
					data[i*6+j] = math.NaN()
				}
			}
			data[i*6+4] = 1 + 50*r.Float64()
			data[i*6+5] = float64(i / 3)
		}
		d := datasets.New("t", names, n, len(names), data)
		in := &Input{Orig: d, Masked: d, Opt: Options{Keys: names[:4], Weight: "w", Household: "h", SUDAMissing: "ignore"}}
		rr, err := PerRecord(in)
		if err != nil {
			t.Fatal(err)
		}
		v, err := in.Evaluate("global_risk_er", "ind_risk_mean", "hier_risk_er", "dis_suda_mean", "kanon_viol_3")
		if err != nil {
			t.Fatal(err)
		}
		viol := 0.0
		for _, f := range rr.Fk {
			if f < 3 {
				viol++
			}
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"Σ risk", sum(rr.Risk), v["global_risk_er"]},
			{"mean risk", sum(rr.Risk) / float64(n), v["ind_risk_mean"]},
			{"Σ hier_risk", sum(rr.HierRisk), v["hier_risk_er"]},
			{"mean DIS", sum(rr.DIS) / float64(n), v["dis_suda_mean"]},
			{"Σ score", sum(rr.SUDAScore), disSUDA(in, false).Aux["score_sum"]},
			{"fk < 3", viol, v["kanon_viol_3"]},
		} {
			if c.got != c.want {
				t.Errorf("seed %d: %s = %v, measure %v", seed, c.name, c.got, c.want)
			}
		}
		_, pct, err := SUDAContributions(in)
		if err != nil {
			t.Fatal(err)
		}
		for c := range pct {
			var w float64
			for i, sc := range rr.SUDAScore {
				w += rr.Contrib[i*4+c] * sc
				if sc == 0 && rr.Contrib[i*4+c] != 0 {
					t.Fatalf("seed %d: record %d has no MSU but a contribution", seed, i)
				}
			}
			if want := 100 * w / sum(rr.SUDAScore); math.Abs(pct[c]-want) > 1e-12*want {
				t.Errorf("seed %d: contribution %d = %v, want %v", seed, c, pct[c], want)
			}
		}
	}
}

// TestRiskyCellsReference: risky_cells equals a direct count (cells keyed by the formatted
// values, NaN one category) on random keys, with few categories and with so many that a
// seven-key cell no longer fits a 64-bit mixed-radix code (the byte-string path).
func TestRiskyCellsReference(t *testing.T) {
	for _, levels := range []int{3, 700} {
		r := rand.New(rand.NewPCG(uint64(levels), 4))
		n, m := 900, 7
		names := []string{"a", "b", "c", "d", "e", "f", "g"}
		data := make([]float64, n*m)
		for i := range data {
			data[i] = float64(r.IntN(levels))
			if r.IntN(30) == 0 {
				data[i] = math.NaN()
			}
		}
		d := datasets.New("t", names, n, m, data)
		in := &Input{Orig: d, Masked: d, Opt: Options{RiskyCells: RiskyCellsOptions{Threshold: []int{3}, MaxDim: m}}}
		res := RiskyCells(in)
		want := make([]float64, m)
		for S := 1; S < 1<<m; S++ {
			cells := map[string]int{}
			for i := 0; i < n; i++ {
				k := ""
				for c := 0; c < m; c++ {
					if S>>c&1 == 1 {
						k += strconv.FormatFloat(data[i*m+c], 'g', -1, 64) + ","
					}
				}
				cells[k]++
			}
			for _, f := range cells {
				if f <= 3 {
					want[bitsOn(S)-1]++
				}
			}
		}
		for dim, w := range want {
			if got := res.Aux["d"+itoa(dim+1)]; got != w {
				t.Errorf("%d levels: %d-key tables: %v unsafe cells, want %v", levels, dim+1, got, w)
			}
		}
	}
}

func bitsOn(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestRiskyCellsOptions: bad option values are refused by SetOption naming the key, and
// inconsistent ones (more dimensions than keys, thresholds neither one nor one per dimension)
// give NaN with a note.
func TestRiskyCellsOptions(t *testing.T) {
	for _, c := range [][2]string{{"risky_cells_threshold", "0"}, {"risky_cells_threshold", "2,x"},
		{"risky_cells_threshold", ""}, {"risky_cells_max_dim", "0"}, {"risky_cells_max_dim", "1.5"}} {
		var o Options
		if err := o.SetOption(c[0], c[1]); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c[0]) {
			t.Errorf("%s=%q: err %v, want a bad option naming the key", c[0], c[1], err)
		}
	}
	d := testdataNA(t, false)
	for _, c := range []struct {
		opt  RiskyCellsOptions
		note string
	}{
		{RiskyCellsOptions{MaxDim: 8}, "max_dim 8 exceeds the 7 key columns"},
		{RiskyCellsOptions{Threshold: []int{5, 3}, MaxDim: 3}, "2 thresholds for 3 dimensions"},
	} {
		r := RiskyCells(&Input{Orig: d, Masked: d, Opt: Options{Keys: sdcKeys, RiskyCells: c.opt}})
		if !math.IsNaN(r.Value) || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], c.note) {
			t.Errorf("%+v: %v %q, want NaN and %q", c.opt, r.Value, r.Notes, c.note)
		}
	}
}
