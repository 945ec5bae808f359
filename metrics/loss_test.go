package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// The references below are SSESST and IL1s as they were before numericLoss read the tables
// row after row: IL1s column by column, SSESST with a closure per cell.
func sseSSTByColumns(in *Input) Result {
	cols := in.KeptColumns()
	n, p := in.Orig.N, in.Orig.P
	if n < 2 || len(cols) == 0 {
		return Result{Value: math.NaN()}
	}
	// The cells in the metric space, computed as Z's tables hold them (Scaling.Cell), without
	// making the tables: two passes of arithmetic cost less than two n×p copies.
	x, xm := in.Orig.Data, in.Masked.Data
	sc := in.Scaling()
	z := func(l int, v float64) float64 { return sc.Cell(l, v) }
	if in.Opt.Standardize == "none" {
		z = func(_ int, v float64) float64 { return v }
	}
	// column means of z over its observed cells (zero in z-space up to rounding; needed for
	// raw SST)
	mean := make([]float64, p)
	cnt := make([]int, p)
	for i := 0; i < n; i++ {
		for _, l := range cols {
			if v := z(l, x[i*p+l]); !math.IsNaN(v) {
				mean[l] += v
				cnt[l]++
			}
		}
	}
	for _, l := range cols {
		mean[l] /= float64(cnt[l])
	}
	var sse, sst float64
	skip := 0
	for i := 0; i < n; i++ {
		row, mrow := x[i*p:(i+1)*p], xm[i*p:(i+1)*p]
		for _, l := range cols {
			a, b := z(l, row[l]), z(l, mrow[l])
			if !both(a, b) {
				skip++
				continue
			}
			d := a - b
			sse += float64(d * d)
			t := a - mean[l]
			sst += float64(t * t)
		}
	}
	if skip == n*len(cols) {
		return nanNote(NoteMissing + "no cell observed in both tables")
	}
	res := Result{Value: 100 * sse / sst, Aux: map[string]float64{"sse": sse, "sst": sst}}
	if skip > 0 {
		res.Aux["nskip"] = float64(skip)
	}
	if k := p - len(cols); k > 0 {
		res.Notes = append(res.Notes, constantNote(k))
	}
	return res
}
func il1sByColumns(in *Input) Result {
	cols := in.KeptColumns()
	s := in.Scaling()
	n, p := in.Orig.N, in.Orig.P
	if len(cols) == 0 || n < 2 {
		return Result{Value: math.NaN()}
	}
	x, xm := in.Orig.Data, in.Masked.Data
	var sum float64
	cells := 0
	for _, l := range cols {
		den := math.Sqrt2 * s.SD[l]
		var col float64
		for i := 0; i < n; i++ {
			a, b := x[i*p+l], xm[i*p+l]
			if !both(a, b) {
				continue
			}
			cells++
			if s.Rescaled(l) { // values near the float64 limit: difference in rescaled units
				col += math.Abs(s.DiffSD(l, a, b)) / math.Sqrt2
			} else {
				col += math.Abs(a-b) / den
			}
		}
		sum += col
	}
	if cells == 0 {
		return nanNote(NoteMissing + "no cell observed in both tables")
	}
	return Result{Value: sum / float64(cells)}
}

// sameResult reports whether two results are equal bit for bit (values, components, notes).
func sameResult(a, b Result) bool {
	if math.Float64bits(a.Value) != math.Float64bits(b.Value) || len(a.Aux) != len(b.Aux) ||
		!slices.Equal(a.Notes, b.Notes) || a.NotApplicable != b.NotApplicable {
		return false
	}
	for k, v := range a.Aux {
		w, ok := b.Aux[k]
		if !ok || math.Float64bits(v) != math.Float64bits(w) {
			return false
		}
	}
	return true
}

// TestLossMatchesSeparateLoops compares IL1s, SSESST and Loss with the column-by-column
// references bit for bit on random tables with and without missing cells, with constant,
// integer, tiny and huge (rescaled) columns, standardized and raw, including tables where no
// cell is observed in both.
func TestLossMatchesSeparateLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	for trial := range 120 {
		n, p := 1+r.IntN(200), 1+r.IntN(7)
		pm := []float64{0, 0, 0.03, 0.3, 1}[trial%5] // share of missing cells
		x, y := make([]float64, n*p), make([]float64, n*p)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				v := r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
				switch (j + trial) % 7 {
				case 1:
					v = 7 // constant
				case 2:
					v = float64(r.IntN(5)) // integers, ties
				case 3:
					v = (1 + r.Float64()) * 1e307 // rescaled
				case 4:
					v = r.Float64() * 1e-310 // subnormal: rescaled
				}
				x[i*p+j] = v
				y[i*p+j] = v + 0.1*r.NormFloat64()*math.Abs(v)
				if r.Float64() < pm {
					x[i*p+j] = math.NaN()
				}
				if r.Float64() < pm {
					y[i*p+j] = math.NaN()
				}
			}
		}
		names := make([]string, p)
		for j := range names {
			names[j] = "v" + itoa(j)
		}
		for _, std := range []string{"", "none"} {
			in := func() *Input {
				return &Input{Orig: datasets.New("x", names, n, p, x), Masked: datasets.New("y", names, n, p, y), Opt: Options{Standardize: std}}
			}
			wantIL, wantSSE := il1sByColumns(in()), sseSSTByColumns(in())
			gotIL, gotSSE := IL1s(in()), SSESST(in())
			bothIL, bothSSE := Loss(in())
			if !sameResult(gotIL, wantIL) || !sameResult(bothIL, wantIL) {
				t.Errorf("trial %d (n=%d p=%d missing %v, standardize %q): il1s %+v, Loss %+v, column by column %+v",
					trial, n, p, pm, std, gotIL, bothIL, wantIL)
			}
			if !sameResult(gotSSE, wantSSE) || !sameResult(bothSSE, wantSSE) {
				t.Errorf("trial %d (n=%d p=%d missing %v, standardize %q): sse_sst %+v, Loss %+v, reference %+v",
					trial, n, p, pm, std, gotSSE, bothSSE, wantSSE)
			}
		}
	}
}

// scalingByScan is scalingOf as it was before it skipped the scan for missing cells in a
// column whose mean is not NaN.
func scalingByScan(d *datasets.Dataset) datasets.Scaling {
	s := datasets.ScalingOf(d)
	n, p := d.N, d.P
	for j := 0; j < p; j++ {
		missing := false
		for i := 0; i < n && !missing; i++ {
			missing = math.IsNaN(d.Data[i*p+j])
		}
		if !missing {
			continue
		}
		// A column with a NaN is never rescaled by datasets.ScalingOf (its largest magnitude
		// is NaN), so overwriting its plain mean and SD is consistent with Exp[j] == 0.
		var sum float64
		cnt := 0
		for i := 0; i < n; i++ {
			if v := d.Data[i*p+j]; !math.IsNaN(v) {
				sum += v
				cnt++
			}
		}
		mean := sum / float64(cnt)
		var ss float64
		for i := 0; i < n; i++ {
			if v := d.Data[i*p+j]; !math.IsNaN(v) {
				t := v - mean
				ss += float64(t * t)
			}
		}
		s.Mean[j], s.SD[j] = mean, math.Sqrt(ss/float64(cnt-1))
		if cnt < 2 {
			s.Mean[j], s.SD[j] = math.NaN(), math.NaN()
		}
	}
	return s
}

// TestScalingOfMatchesScan compares scalingOf with the scanning reference bit for bit on
// random tables with missing cells, infinities (whose mean is NaN without a missing cell),
// huge and constant columns.
func TestScalingOfMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 2))
	for trial := range 200 {
		n, p := 1+r.IntN(50), 1+r.IntN(5)
		x := make([]float64, n*p)
		for k := range x {
			switch u := r.Float64(); {
			case u < 0.05:
				x[k] = math.NaN()
			case u < 0.08 && trial%2 == 0:
				x[k] = math.Inf(1 - 2*r.IntN(2))
			case u < 0.3 && trial%3 == 0:
				x[k] = 1e308
			default:
				x[k] = r.NormFloat64()
			}
		}
		d := datasets.New("x", make([]string, p), n, p, x)
		got, want := scalingOf(d), scalingByScan(d)
		for j := 0; j < p; j++ {
			if math.Float64bits(got.Mean[j]) != math.Float64bits(want.Mean[j]) || math.Float64bits(got.SD[j]) != math.Float64bits(want.SD[j]) ||
				got.Rescaled(j) != want.Rescaled(j) {
				t.Fatalf("trial %d column %d: mean %v sd %v, scanning %v %v", trial, j, got.Mean[j], got.SD[j], want.Mean[j], want.SD[j])
			}
		}
	}
}
