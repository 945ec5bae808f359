package perturb

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// additiveByCopy is noise_additive as it was written before the release was built without a
// copy: the input cloned, then the noise added in place, column by column.
func additiveByCopy(d *datasets.Dataset, w float64, keepZeros bool, rng *rand.Rand) *datasets.Dataset {
	sd := availScalingByScan(d).SD
	out := d.Clone()
	for j := 0; j < d.P; j++ {
		s := w * sd[j]
		for i := 0; i < d.N; i++ {
			e := s * rng.NormFloat64()
			if keepZeros && out.Data[i*d.P+j] == 0 {
				continue
			}
			out.Data[i*d.P+j] += e
		}
	}
	return out
}

// availScalingByScan is availScaling as it was before it took the absence of missing cells
// from the column means: a scan for them first.
func availScalingByScan(d *datasets.Dataset) datasets.Scaling {
	if !d.HasMissing() {
		return datasets.ScalingOf(d)
	}
	s := datasets.Scaling{Mean: make([]float64, d.P), SD: make([]float64, d.P)}
	for j := 0; j < d.P; j++ {
		var col []float64
		for i := 0; i < d.N; i++ {
			if v := d.Data[i*d.P+j]; v == v {
				col = append(col, v)
			}
		}
		if len(col) == 0 {
			s.Mean[j], s.SD[j] = math.NaN(), math.NaN()
			continue
		}
		c := datasets.ScalingOf(datasets.New(d.Name, []string{d.Names[j]}, len(col), 1, col))
		s.Mean[j], s.SD[j] = c.Mean[0], c.SD[0]
	}
	return s
}

// TestAvailScalingMatchesScan compares availScaling with the scanning reference bit for bit
// on random tables with missing cells, infinities and huge (rescaled) columns.
func TestAvailScalingMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 4))
	for trial := range 300 {
		n, p := 1+r.IntN(40), 1+r.IntN(5)
		x := make([]float64, n*p)
		for k := range x {
			switch u := r.Float64(); {
			case u < 0.05 && trial%2 == 0:
				x[k] = math.NaN()
			case u < 0.08 && trial%3 == 0:
				x[k] = math.Inf(1 - 2*r.IntN(2))
			case u < 0.3 && trial%5 == 0:
				x[k] = 1e308
			default:
				x[k] = r.NormFloat64()
			}
		}
		d := datasets.New("t", make([]string, p), n, p, x)
		got, want := availScaling(d), availScalingByScan(d)
		for j := 0; j < p; j++ {
			if math.Float64bits(got.Mean[j]) != math.Float64bits(want.Mean[j]) || math.Float64bits(got.SD[j]) != math.Float64bits(want.SD[j]) ||
				got.Rescaled(j) != want.Rescaled(j) {
				t.Fatalf("trial %d column %d: mean %v sd %v, scanning %v %v", trial, j, got.Mean[j], got.SD[j], want.Mean[j], want.SD[j])
			}
		}
	}
}

// TestAdditiveMatchesCopy compares noise_additive and noise_additive0 with the copying
// reference bit for bit on random tables with zeros, negative zeros, missing values and a
// constant column, and checks that the input is left unchanged.
func TestAdditiveMatchesCopy(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		n, p := 2+r.IntN(300), 1+r.IntN(6)
		data := make([]float64, n*p)
		for k := range data {
			switch u := r.Float64(); {
			case u < 0.1:
				data[k] = 0
			case u < 0.15:
				data[k] = math.Copysign(0, -1)
			case u < 0.25 && seed%2 == 0:
				data[k] = math.NaN()
			default:
				data[k] = r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
			}
		}
		if p > 1 {
			for i := 0; i < n; i++ {
				data[i*p+p-1] = 2.5 // a constant column: SD 0, no noise
			}
		}
		names := make([]string, p)
		for j := range names {
			names[j] = string(rune('a' + j))
		}
		d := datasets.New("t", names, n, p, data)
		orig := append([]float64(nil), data...)
		pct := []float64{0, 5, 150}[seed%3]
		for _, keep := range []bool{false, true} {
			params, err := Additive{KeepZeros: keep}.Info().Resolve(map[string]string{"noise_pct": strconv.FormatFloat(pct, 'g', -1, 64)})
			if err != nil {
				t.Fatal(err)
			}
			want := additiveByCopy(d, pct/100, keep, rand.New(rand.NewPCG(seed, 11)))
			rel, err := Additive{KeepZeros: keep}.Protect(context.Background(), d, params, rand.New(rand.NewPCG(seed, 11)))
			if err != nil {
				t.Fatalf("seed %d keep %v: %v", seed, keep, err)
			}
			got := rel.Masked
			if got.N != n || got.P != p || len(got.Data) != len(want.Data) {
				t.Fatalf("seed %d keep %v: shape %d×%d", seed, keep, got.N, got.P)
			}
			for k := range want.Data {
				if math.Float64bits(got.Data[k]) != math.Float64bits(want.Data[k]) {
					t.Fatalf("seed %d keep %v: cell %d = %v, copying reference %v", seed, keep, k, got.Data[k], want.Data[k])
				}
			}
			for j, c := range want.Names {
				if got.Names[j] != c {
					t.Fatalf("seed %d: names %v, want %v", seed, got.Names, want.Names)
				}
			}
			for k := range orig {
				if math.Float64bits(data[k]) != math.Float64bits(orig[k]) {
					t.Fatalf("seed %d keep %v: the input changed at cell %d", seed, keep, k)
				}
			}
		}
	}
}

// TestCheckScaled compares checkScaled, given availScaling's result, with checkDataMissing on
// tables with ±Inf (alone, both signs in one column, next to missing cells), missing values,
// huge values whose sums overflow (rescaled columns), categorical columns and too few rows:
// the same error, or none, every time; and noise_additive's Protect refuses what its Validate
// refuses, with the same error.
func TestCheckScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	for trial := 0; trial < 400; trial++ {
		n, p := r.IntN(40), 1+r.IntN(5)
		data := make([]float64, n*p)
		for k := range data {
			data[k] = r.NormFloat64()
		}
		for range r.IntN(4) {
			if n == 0 {
				break
			}
			k := r.IntN(n * p)
			switch r.IntN(5) {
			case 0:
				data[k] = math.Inf(1)
			case 1:
				data[k] = math.Inf(-1)
			case 2:
				data[k] = math.NaN()
			case 3:
				data[k] = math.MaxFloat64 * (r.Float64() - 0.5) * 2
			default:
				data[k] = 1e300
			}
		}
		d := datasets.New("t", make([]string, p), n, p, data)
		if r.IntN(8) == 0 {
			d.Levels = make([][]string, p)
			d.Levels[r.IntN(p)] = []string{"a", "b"}
		}
		want := checkDataMissing("noise_additive", d, 2)
		got := checkScaled("noise_additive", d, 2, availScaling(d))
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Fatalf("trial %d (%d×%d): checkScaled %v, checkDataMissing %v", trial, n, p, got, want)
		}
		if want == nil {
			continue
		}
		params, err := Additive{}.Info().Resolve(map[string]string{"noise_pct": "5"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (Additive{}).Protect(context.Background(), d, params, rand.New(rand.NewPCG(1, 2))); err == nil || err.Error() != want.Error() {
			t.Fatalf("trial %d: Protect %v, Validate %v", trial, err, want)
		}
	}
}
