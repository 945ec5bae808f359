package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"gonum.org/v1/gonum/mat"
)

// rescaledByColumns is Rescaled as it was before the one-pass search: one strided pass over
// both tables per column for the largest |value|.
func rescaledByColumns(o, m *datasets.Dataset) (ro, rm *datasets.Dataset) {
	n, p := o.N, o.P
	var exp []int
	for j := 0; j < p; j++ {
		var big float64
		for i := 0; i < n; i++ {
			big = max(big, math.Abs(o.Data[i*p+j]), math.Abs(m.Data[i*p+j]))
		}
		if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) || (big < 0x1p500 && big > 0x1p-500) {
			continue
		}
		if exp == nil {
			exp = make([]int, p)
		}
		_, exp[j] = math.Frexp(big)
	}
	if exp == nil {
		return o, m
	}
	scale := func(d *datasets.Dataset) *datasets.Dataset {
		out := make([]float64, len(d.Data))
		for i, v := range d.Data {
			out[i] = math.Ldexp(v, -exp[i%p])
		}
		return datasets.New(d.Name, d.Names, d.N, d.P, out)
	}
	return scale(o), scale(m)
}

// corEigenvaluesByCopy is corEigenvalues as it was before it read the columns in place: the
// columns copied into an n×q table first.
func corEigenvaluesByCopy(x []float64, n, p int, cols []int, pairwise bool) ([]float64, bool) {
	q := len(cols)
	var r []float64
	if pairwise {
		r = pairwiseCov(scaleNA(x, n, p, cols), n, q)
	} else {
		sub := make([]float64, n*q)
		for i := 0; i < n; i++ {
			for c, l := range cols {
				sub[i*q+c] = x[i*p+l]
			}
		}
		r = covariance.Correlation(covariance.Matrix(sub, n, q), q)
	}
	if hasNaN(r) {
		return nil, false
	}
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(q, r), false) {
		return nil, false
	}
	vals := es.Values(nil)
	slices.Sort(vals)
	slices.Reverse(vals)
	return vals, true
}

// extremeTables returns a random original and release (n×p) whose columns are ordinary,
// constant, huge (near 1e300), tiny (near 1e-300), zero, or hold infinities or missing cells.
func extremeTables(r *rand.Rand, n, p int) (o, m *datasets.Dataset) {
	x := make([]float64, n*p)
	y := make([]float64, n*p)
	for j := 0; j < p; j++ {
		kind := r.IntN(8)
		for i := 0; i < n; i++ {
			v := r.NormFloat64()
			switch kind {
			case 1:
				v = 3
			case 2:
				v *= 1e300
			case 3:
				v *= 1e-300
			case 4:
				v = 0
			case 5:
				if r.IntN(10) == 0 {
					v = math.Inf(1 - 2*r.IntN(2))
				}
			case 6:
				if r.IntN(10) == 0 {
					v = math.NaN()
				}
			}
			x[i*p+j] = v
			y[i*p+j] = v + 0.1*r.NormFloat64()*math.Abs(v)
			if r.IntN(40) == 0 {
				y[i*p+j] = math.NaN()
			}
			if r.IntN(30) == 0 {
				y[i*p+j] = math.Copysign(0, -1)
			}
		}
	}
	names := make([]string, p)
	for j := range names {
		names[j] = string(rune('a' + j))
	}
	return datasets.New("o", names, n, p, x), datasets.New("m", names, n, p, y)
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}

// TestRescaledMatchesByColumns compares Rescaled's one-pass search with the strided
// reference bit for bit (the same tables, or the same rescaled values), and hasMissing with
// hasNaN, on random tables with huge, tiny, zero, constant and infinite columns and missing
// cells.
func TestRescaledMatchesByColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for trial := range 400 {
		n, p := 1+r.IntN(60), 1+r.IntN(7)
		o, m := extremeTables(r, n, p)
		in := &Input{Orig: o, Masked: m}
		ro, rm := in.Rescaled()
		wo, wm := rescaledByColumns(o, m)
		if (ro == o) != (wo == o) || (rm == m) != (wm == m) || !sameBits(ro.Data, wo.Data) || !sameBits(rm.Data, wm.Data) {
			t.Fatalf("trial %d: rescaled tables differ from the strided reference", trial)
		}
		if in.hasMissing() != hasNaN(o.Data, m.Data) {
			t.Fatalf("trial %d: hasMissing %v, hasNaN %v", trial, in.hasMissing(), hasNaN(o.Data, m.Data))
		}
	}
}

// TestCorEigenvaluesMatchesCopy compares corEigenvalues, which reads the kept columns in
// place, with the copying reference bit for bit on random tables and column subsets (all
// columns, some, one), with and without missing cells, and the measures built on it.
func TestCorEigenvaluesMatchesCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	for trial := range 300 {
		n, p := 2+r.IntN(80), 1+r.IntN(7)
		o, m := extremeTables(r, n, p)
		var cols []int
		for j := 0; j < p; j++ {
			if trial%3 == 0 || r.IntN(3) > 0 {
				cols = append(cols, j)
			}
		}
		if len(cols) == 0 {
			cols = []int{r.IntN(p)}
		}
		for _, pairwise := range []bool{false, true} {
			for _, x := range [][]float64{o.Data, m.Data} {
				got, ok := corEigenvalues(x, n, p, cols, pairwise)
				want, wok := corEigenvaluesByCopy(x, n, p, cols, pairwise)
				if ok != wok || !sameBits(got, want) {
					t.Fatalf("trial %d pairwise %v cols %v: %v %v, copying reference %v %v", trial, pairwise, cols, got, ok, want, wok)
				}
			}
		}
		in := &Input{Orig: o, Masked: m}
		cols = in.KeptColumns()
		ro, rm := rescaledByColumns(o, m)
		pw := hasNaN(o.Data, m.Data)
		for _, all := range []bool{false, true} {
			res := eigen(in, 1e-10, all)
			want := math.NaN()
			if len(cols) == 0 {
				if !math.IsNaN(res.Value) {
					t.Fatalf("trial %d: eigen %v without a kept column", trial, res.Value)
				}
				continue
			}
			la, ok := corEigenvaluesByCopy(ro.Data, n, p, cols, pw)
			lb, ok2 := corEigenvaluesByCopy(rm.Data, n, p, cols, pw)
			if ok && ok2 {
				var sum float64
				for j := range la {
					if !all && !(la[j] > 1e-10*la[0]) {
						continue
					}
					sum += math.Abs(la[j]-lb[j]) / la[j]
				}
				want = 100 * sum
			}
			if math.Float64bits(res.Value) != math.Float64bits(want) && !(math.IsNaN(res.Value) && math.IsNaN(want)) {
				t.Fatalf("trial %d all %v: eigen %v, reference %v", trial, all, res.Value, want)
			}
		}
	}
}

// intervalDisclosureRef is IntervalDisclosure as it was before the half-widths were taken
// once per column, on the strided reference's rescaled tables.
func intervalDisclosureRef(o, m *datasets.Dataset, k float64) float64 {
	n, p := o.N, o.P
	if n < 2 {
		return math.NaN()
	}
	ro, rm := rescaledByColumns(o, m)
	sd := sampleSDs(rm.Data, n, p)
	x, xm := ro.Data, rm.Data
	risky := 0
	for i := 0; i < n; i++ {
		inside := true
		for l := 0; l < p && inside; l++ {
			v, mv, w := x[i*p+l], xm[i*p+l], k*sd[l]
			if v < mv-w || v > mv+w {
				inside = false
			}
		}
		if inside {
			risky++
		}
	}
	return 100 * float64(risky) / float64(n)
}

// TestIntervalDisclosureMatchesReference compares interval_disclosure with the reference bit
// for bit on random tables with huge, tiny, constant, infinite columns and missing cells, for
// several k, including releases close enough to the original for records to be at risk.
func TestIntervalDisclosureMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 31))
	atRisk := 0
	for trial := range 300 {
		n, p := 1+r.IntN(80), 1+r.IntN(6)
		o, m := extremeTables(r, n, p)
		k := []float64{0, 0.05, 0.5, 3}[trial%4]
		in := &Input{Orig: o, Masked: m, Opt: Options{IntervalK: k}}
		got, want := IntervalDisclosure(in).Value, intervalDisclosureRef(o, m, in.Opt.intervalK())
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d k %v: interval_disclosure %v, reference %v", trial, k, got, want)
		}
		if got > 0 {
			atRisk++
		}
	}
	if atRisk < 50 {
		t.Fatalf("only %d of 300 trials have records at risk: the tables do not exercise the measure", atRisk)
	}
}
