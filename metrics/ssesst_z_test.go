package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// sseSSTFromZ is SSESST as it was computed before it stopped making the z tables: from Z's
// tables. TestSSESSTMatchesZTables compares the two bit for bit.
func sseSSTFromZ(in *Input) (sse, sst float64, skip int) {
	z, zm := in.Z()
	cols := in.KeptColumns()
	n, p := in.Orig.N, in.Orig.P
	mean := make([]float64, p)
	cnt := make([]int, p)
	for i := 0; i < n; i++ {
		for _, l := range cols {
			if v := z[i*p+l]; !math.IsNaN(v) {
				mean[l] += v
				cnt[l]++
			}
		}
	}
	for _, l := range cols {
		mean[l] /= float64(cnt[l])
	}
	for i := 0; i < n; i++ {
		for _, l := range cols {
			a, b := z[i*p+l], zm[i*p+l]
			if !both(a, b) {
				skip++
				continue
			}
			d := a - b
			sse += d * d
			t := a - mean[l]
			sst += t * t
		}
	}
	return sse, sst, skip
}

// TestSSESSTMatchesZTables: SSESST computes each cell's standardized value on the fly
// (datasets.Scaling.Cell); its sums must be those of the z tables bit for bit, on tables with
// missing cells, a constant column, a column near the float64 limit (rescaled) and integer
// values, standardized and raw.
func TestSSESSTMatchesZTables(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 28))
	for trial := range 60 {
		n, p := 2+r.IntN(300), 1+r.IntN(6)
		x, y := make([]float64, n*p), make([]float64, n*p)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				v := r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
				switch j {
				case 1:
					v = 7 // constant
				case 2:
					v = float64(r.IntN(5))
				case 3:
					v = (1 + r.Float64()) * 1e307 // rescaled
				}
				x[i*p+j] = v
				y[i*p+j] = v + 0.1*r.NormFloat64()*math.Abs(v)
				if r.Float64() < 0.05 {
					x[i*p+j] = math.NaN()
				}
				if r.Float64() < 0.05 {
					y[i*p+j] = math.NaN()
				}
			}
		}
		names := make([]string, p)
		for j := range names {
			names[j] = "v" + itoa(j)
		}
		for _, std := range []string{"", "none"} {
			in := &Input{Orig: datasets.New("x", names, n, p, x), Masked: datasets.New("y", names, n, p, y), Opt: Options{Standardize: std}}
			got := SSESST(in)
			sse, sst, _ := sseSSTFromZ(&Input{Orig: in.Orig, Masked: in.Masked, Opt: in.Opt})
			if math.IsNaN(got.Value) {
				continue // nothing observed in both tables, or every column constant
			}
			if math.Float64bits(got.Aux["sse"]) != math.Float64bits(sse) || math.Float64bits(got.Aux["sst"]) != math.Float64bits(sst) {
				t.Errorf("trial %d (n=%d p=%d, standardize %q): sse %v sst %v, from the z tables %v %v", trial, n, p, std, got.Aux["sse"], got.Aux["sst"], sse, sst)
			}
		}
	}
}
