package microagg_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// protect runs the registered method name on d with the parameters raw and returns the release
// and its sse_sst.
func protect(t testing.TB, name string, d *datasets.Dataset, raw map[string]string, rng *rand.Rand) (*methods.Release, float64) {
	t.Helper()
	m, err := methods.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := m.Protect(context.Background(), d, p, rng)
	if err != nil {
		t.Fatal(err)
	}
	return rel, metrics.SSESST(&metrics.Input{Orig: d, Masked: rel.Masked}).Value
}

func load(t testing.TB, name string) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// refRow is one row of a reference table: sse_sst at k = 3, 4, 5, 10 (NaN: not checked).
type refRow struct {
	data, method string
	params       map[string]string
	want         [4]float64
}

var refK = [4]int{3, 4, 5, 10}

func checkRef(t *testing.T, rows []refRow) {
	for _, r := range rows {
		d := load(t, r.data)
		for i, k := range refK {
			if math.IsNaN(r.want[i]) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s%v/k=%d", r.data, r.method, r.params, k), func(t *testing.T) {
				raw := map[string]string{"k": fmt.Sprint(k)}
				for key, v := range r.params {
					raw[key] = v
				}
				rel, got := protect(t, r.method, d, raw, nil)
				if rd := math.Round(got*1e4) / 1e4; rd != r.want[i] {
					t.Errorf("sse_sst = %.6f, want %.4f", got, r.want[i])
				}
				if rel.Labels != nil {
					checkSizes(t, rel.Labels, k)
				}
			})
		}
	}
}

// TestSdcMicroReference checks shared/spec/microaggregation.md §6.2: sdcMicro 5.8.1's single,
// pca, pppca and onedims on z-scored input, sse_sst to 4 decimals.
func TestSdcMicroReference(t *testing.T) {
	checkRef(t, []refRow{
		{"tarragona", "single", nil, [4]float64{39.8982, 45.7943, 51.5424, 56.5749}},
		{"tarragona", "pca", nil, [4]float64{23.8886, 30.6309, 33.2875, 39.9075}},
		{"tarragona", "pppca", nil, [4]float64{26.2020, 30.0778, 34.0711, 39.8598}},
		{"tarragona", "onedims", nil, [4]float64{2.2402, 5.0394, 8.5446, 14.0238}},
		{"census", "single", nil, [4]float64{61.9339, 69.9706, 74.2679, 83.2632}},
		{"census", "pca", nil, [4]float64{26.7161, 30.0541, 32.4366, 36.2164}},
		{"census", "pppca", nil, [4]float64{27.1324, 30.8321, 33.0936, 36.5557}},
		{"census", "onedims", nil, [4]float64{0.1073, 0.2417, 0.3375, 0.8951}},
		{"eia", "single", nil, [4]float64{15.8876, 17.5387, 23.5784, 32.9141}},
		{"eia", "pca", nil, [4]float64{18.5641, 21.3088, 22.4446, 25.3549}},
		{"eia", "pppca", nil, [4]float64{20.1148, 22.4365, 23.6924, 26.7947}},
		{"eia", "onedims", nil, [4]float64{0.0237, 0.0289, 0.0737, 0.2079}},
		{"eia10", "single", nil, [4]float64{17.8172, 19.8580, 21.0042, 24.0524}},
		{"eia10", "pca", nil, [4]float64{14.1450, 16.5805, 17.8814, 19.9857}},
		{"eia10", "pppca", nil, [4]float64{15.3101, 16.9481, 18.0985, 20.3052}},
		{"eia10", "onedims", nil, [4]float64{0.0259, 0.0316, 0.0748, 0.2100}},
	})
}
