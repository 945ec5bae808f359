package metrics

import (
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// mask3 returns d with each run of 3 consecutive rows replaced by its column means, each mean
// computed once and copied to the three rows (metrics.md §7.7).
func mask3(d *datasets.Dataset) *datasets.Dataset {
	groups := make([][]int, 0, d.N/3)
	for i := 0; i+2 < d.N; i += 3 {
		groups = append(groups, []int{i, i + 1, i + 2})
	}
	return groupMeans(d, groups)
}

// TestIntegration checks the dataset-level vectors of metrics.md §7.7 (R 4.2 / sdcMicro 5.8.1
// on the public CASC files with the deterministic 3-row masking), relative tolerance 1e-8.
func TestIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("O(n²) metrics on EIA")
	}
	type row struct {
		name string
		f    func(*Input) Result
		opt  *Options
		aux  string
		want [3]float64 // Tarragona, Census, EIA11
	}
	none := &Options{Standardize: "none"}
	all := &Options{DBRLSubsets: []int{0}}
	k10 := &Options{IntervalK: 0.1}
	rows := []row{
		{"sse_sst z", SSESST, nil, "", [3]float64{39.8981603665, 61.7323310680, 54.6744319877}},
		{"sse_sst raw", SSESST, none, "", [3]float64{42.5143820033, 32.4087052268, 53.8250881591}},
		{"dld", DLD, nil, "", [3]float64{2.8776978417, 2.5925925926, 0.6598240469}},
		{"dbrl s3", DBRL, nil, "s3", [3]float64{3.0375699440, 1.6666666667, 0.4317367221}},
		{"dbrl s5", DBRL, nil, "s5", [3]float64{3.1974420464, 2.3456790123, 0.6028022157}},
		{"dbrl s8", DBRL, nil, "s8", [3]float64{3.5971223022, 3.3333333333, 0.8064516129}},
		{"dbrl", DBRL, nil, "", [3]float64{3.2773780975, 2.4485596708, 0.6136635169}},
		{"dbrl2", DBRL2, nil, "", [3]float64{6.5547561950, 4.8971193416, 1.2273270338}},
		{"dbrl all", DBRL, all, "", [3]float64{5.1558752998, 3.3641975309, 0.8145975888}},
		{"il1s", IL1s, nil, "", [3]float64{0.179608812278, 0.412764847109, 0.280896628472}},
		{"il1s_sum_sdc", IL1sSumSDC, nil, "", [3]float64{1947.3187427211, 5795.2184534100, 12643.7190408002}},
		{"il1rel_sum_sdc", IL1RelSumSDC, nil, "", [3]float64{6965375.485991, 6334684.794866, 42583855.804541}},
		{"eigen", Eigen, nil, "", [3]float64{581.8704525705, 128.3791602439, 298.9887016499}},
		{"eigen nexcl", Eigen, nil, "nexcl", [3]float64{0, 1, 0}},
		{"interval_disclosure", IntervalDisclosure, nil, "", [3]float64{0, 0, 0.8797653959}},
		{"interval_disclosure k=0.1", IntervalDisclosure, k10, "", [3]float64{1.1990407674, 0, 4.3499511241}},
		{"id_rank", IDRank, nil, "", [3]float64{29.6190739716, 18.1282051282, 22.1627565982}},
		{"il3", IL3, nil, "", [3]float64{151.7067593308, 126.5275595353, 232.1921710266}},
		{"il3_code", IL3Code, nil, "", [3]float64{146.2982365750, 118.2670129772, 221.8683641245}},
		{"il3 c1", IL3, nil, "c1", [3]float64{6.4703906047, 4.5118837570, 9.8703974699}},
		{"il3 zero cells", IL3, nil, "nexcl_c1", [3]float64{77, 0, 1869}},
		{"pil", PIL, nil, "", [3]float64{55.0041508302, 71.9107643781, 73.4398895961}},
		{"mse", MSE, nil, "", [3]float64{6.040366043e10, 328417059.9, 9.639295755e10}},
		{"mae", MAE, nil, "", [3]float64{60361.14647, 9737.532099, 104139.8072}},
		{"mse_cor", MSECor, nil, "", [3]float64{0.03967570698, 0.003637700869, 0.001571882981}},
		{"mae_cor", MAECor, nil, "", [3]float64{0.1692770092, 0.04063043939, 0.0274203729}},
	}
	for s, name := range []string{"tarragona", "census", "eia"} {
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		m := mask3(d)
		for _, r := range rows {
			in := &Input{Orig: d, Masked: m}
			if r.opt != nil {
				in.Opt = *r.opt
			}
			res := r.f(in)
			got := res.Value
			if r.aux != "" {
				got = res.Aux[r.aux]
			}
			want := r.want[s]
			if !near(got, want, 1e-8) {
				t.Errorf("%s %s: got %.12g, want %.12g (rel %.2g)", name, r.name, got, want, (got-want)/want)
			}
		}
	}
}
