package recordswap

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// createDat reads testdata/createdat.csv: sdcMicro's createDat(5000) under set.seed(2021),
// 5000 households in 17,670 records (testdata/recordswap.R).
func createDat(t testing.TB) *datasets.Dataset {
	t.Helper()
	d, err := datasets.ReadFile("testdata/createdat.csv", datasets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// swapStats returns the share of households of column hid whose hierarchy values changed and,
// per level, the number of households whose first changed hierarchy column is that level
// (the statistics testdata/recordswap.R computes from sdcMicro's releases).
func swapStats(t testing.TB, orig, rel *datasets.Dataset, hid string, hier []string) []float64 {
	t.Helper()
	hc := orig.ColIndex(hid)
	cols := make([]int, len(hier))
	for l, name := range hier {
		cols[l] = orig.ColIndex(name)
	}
	out := make([]float64, 1+len(hier))
	seen := map[float64]bool{}
	for i := 0; i < orig.N; i++ {
		id := orig.At(i, hc)
		if seen[id] {
			continue
		}
		seen[id] = true
		for l, j := range cols {
			if orig.At(i, j) != rel.At(i, j) {
				out[0]++
				out[1+l]++
				break
			}
		}
	}
	out[0] /= float64(len(seen))
	return out
}

// refStats reads testdata/sdcmicro50.csv: per configuration, the mean and sd over seeds
// 1..50 of sdcMicro's statistics, in the order share, level1, level2, ….
func refStats(t testing.TB) map[string][][2]float64 {
	t.Helper()
	f, err := os.Open("testdata/sdcmicro50.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][2]float64{}
	for r, row := range rows[1:] {
		mean, err1 := strconv.ParseFloat(row[2], 64)
		sd, err2 := strconv.ParseFloat(row[3], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("sdcmicro50.csv row %d: %v", r+2, row)
		}
		out[row[0]] = append(out[row[0]], [2]float64{mean, sd})
	}
	return out
}

// sdcConfigs are the parameter sets of testdata/recordswap.R.
var sdcConfigs = []struct {
	name   string
	params map[string]string
}{
	{"nuts12_k3", map[string]string{"hierarchy": "nuts1,nuts2", "similar": "hsize",
		"risk_variables": "ageGroup,national", "k_anonymity": "3", "swaprate": "0.05", "carry_along": "nuts3,lau2"}},
	{"nuts123_k2", map[string]string{"hierarchy": "nuts1,nuts2,nuts3", "similar": "hsize,htype;hsize",
		"risk_variables": "ageGroup", "k_anonymity": "2", "swaprate": "0.1"}},
	{"nuts123_k0", map[string]string{"hierarchy": "nuts1,nuts2,nuts3", "similar": "hsize",
		"risk_variables": "ageGroup,gender", "k_anonymity": "0", "swaprate": "0.2"}},
	{"nuts123_k3", map[string]string{"hierarchy": "nuts1,nuts2,nuts3", "similar": "hsize",
		"risk_variables": "ageGroup,gender", "k_anonymity": "3", "swaprate": "0.05", "carry_along": "lau2"}},
	{"nuts12_k3_risky", map[string]string{"hierarchy": "nuts1,nuts2", "similar": "hsize",
		"risk_variables": "ageGroup,national,hincome", "k_anonymity": "3", "swaprate": "0.05"}},
}

// TestAgreesWithSdcMicro is issue 26 item 3: over 50 seeds, the share of swapped households
// and the per-level counts of swapped households agree with sdcMicro 5.8.1's recordSwap on
// the same createDat() data and parameters: |z| ≤ 3 for the difference of the two means
// (standard error from both samples' sds), and equal means where both sds are 0.
func TestAgreesWithSdcMicro(t *testing.T) {
	if testing.Short() {
		t.Skip("250 swaps of 17,482 records; skipped with -short")
	}
	d := createDat(t)
	ref := refStats(t)
	const seeds = 50
	for _, cf := range sdcConfigs {
		t.Run(cf.name, func(t *testing.T) {
			cf.params["hid"] = "hid"
			in := RecordSwap{}.Info()
			p, err := in.Resolve(cf.params)
			if err != nil {
				t.Fatal(err)
			}
			hier := strings.Split(cf.params["hierarchy"], ",")
			want := ref[cf.name]
			if len(want) != 1+len(hier) {
				t.Fatalf("sdcmicro50.csv has %d statistics for %s, want %d", len(want), cf.name, 1+len(hier))
			}
			sum := make([]float64, len(want))
			sq := make([]float64, len(want))
			lo := slices.Repeat([]float64{math.Inf(1)}, len(want))
			hi := slices.Repeat([]float64{math.Inf(-1)}, len(want))
			for seed := uint64(1); seed <= seeds; seed++ {
				rel, err := RecordSwap{}.Protect(context.Background(), d, p, rand.New(rand.NewPCG(seed, 26)))
				if err != nil {
					t.Fatal(err)
				}
				for s, v := range swapStats(t, d, rel.Masked, "hid", hier) {
					sum[s] += v
					sq[s] += v * v
					lo[s], hi[s] = min(lo[s], v), max(hi[s], v)
				}
			}
			for s := range want {
				mean := sum[s] / seeds
				sd := math.Sqrt(max(0, (sq[s]-seeds*mean*mean)/(seeds-1)))
				name := "share"
				if s > 0 {
					name = fmt.Sprintf("level%d", s)
				}
				if lo[s] == hi[s] && want[s][1] == 0 { // both constant: the same value
					t.Logf("%s: sdcbench %.10g and sdcMicro %.10g in every run", name, lo[s], want[s][0])
					if math.Abs(lo[s]-want[s][0]) > 1e-12*math.Abs(want[s][0]) {
						t.Errorf("%s: sdcbench %.10g in every run, sdcMicro %.10g", name, lo[s], want[s][0])
					}
					continue
				}
				se := math.Sqrt((sd*sd + want[s][1]*want[s][1]) / seeds)
				z := (mean - want[s][0]) / se
				t.Logf("%s: sdcbench %.5g (sd %.3g), sdcMicro %.5g (sd %.3g), z = %.2f", name, mean, sd, want[s][0], want[s][1], z)
				if math.Abs(z) > 3 {
					t.Errorf("%s: sdcbench mean %.6g (sd %.4g) vs sdcMicro %.6g (sd %.4g): z = %.2f, |z| > 3",
						name, mean, sd, want[s][0], want[s][1], z)
				}
			}
		})
	}
}

// TestRiskLevelsEqualSdcMicro checks the household risks and must-swap levels against
// sdcMicro's own C++ (setRisk_cpp, setLevels_cpp with threshold 1/k, testdata/risklevels.csv)
// on createDat() with hierarchy nuts1 > nuts2 > nuts3, risk variables ageGroup and national
// and k 3: every risk equal to the last bit (both are 1/count), every level equal.
func TestRiskLevelsEqualSdcMicro(t *testing.T) {
	d := createDat(t)
	p, err := RecordSwap{}.Info().Resolve(map[string]string{"hid": "hid", "hierarchy": "nuts1,nuts2,nuts3",
		"risk_variables": "ageGroup,national"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSetup(d, p)
	if err != nil {
		t.Fatal(err)
	}
	pr := s.problem(d, 3)
	ref, err := datasets.ReadFile("testdata/risklevels.csv", datasets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ref.N != pr.n {
		t.Fatalf("risklevels.csv has %d households, sdcbench %d", ref.N, pr.n)
	}
	hc := d.ColIndex("hid")
	levels := map[int]int{}
	for hh, rows := range s.hh {
		if id := d.At(rows[0], hc); id != ref.At(hh, 0) {
			t.Fatalf("household %d: hid %v, risklevels.csv row %d has %v", hh, id, hh+2, ref.At(hh, 0))
		}
		for h := 0; h < 3; h++ {
			if got, want := pr.risk[h][hh], ref.At(hh, 1+h); got != want {
				t.Errorf("hid %v level %d: risk %.17g, sdcMicro %.17g", ref.At(hh, 0), h+1, got, want)
			}
		}
		if got, want := pr.must[hh], int(ref.At(hh, 4)); got != want {
			t.Errorf("hid %v: must-swap level %d, sdcMicro %d", ref.At(hh, 0), got, want)
		}
		levels[pr.must[hh]]++
	}
	// 3410 households must cross nuts3 (level 2), 1590 need not (level 3).
	if levels[2] != 3410 || levels[3] != 1590 {
		t.Errorf("must-swap levels %v, want 3410 at level 2 and 1590 none", levels)
	}
}

// TestSwapCountsAsSdcMicroSuite is sdcMicro's own test "test number of swapped households"
// (tests/testthat/test_recordSwap_outputs.R) on createDat(): with k_anonymity 1 nobody must
// be swapped and exactly swaprate·n households are swapped (n·swaprate/2 is whole here).
func TestSwapCountsAsSdcMicroSuite(t *testing.T) {
	d := createDat(t)
	for _, c := range []struct {
		rate string
		want int
	}{{"0.05", 250}, {"0.1", 500}, {"0.25", 1250}} {
		raw := map[string]string{"hid": "hid", "hierarchy": "nuts1,nuts2,nuts3", "similar": "hsize",
			"risk_variables": "ageGroup,national", "k_anonymity": "1", "swaprate": c.rate}
		p, err := RecordSwap{}.Info().Resolve(raw)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := RecordSwap{}.Protect(context.Background(), d, p, rand.New(rand.NewPCG(2021, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if got := rel.Info["swapped_households"]; got != c.want || rel.Info["must_swap"] != 0 {
			t.Errorf("swaprate %s: Info %v, want %d swapped households", c.rate, rel.Info, c.want)
		}
	}
}
