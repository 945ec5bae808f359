package perturb

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// correlated2ByCopy is noise_correlated2 as it was before it wrote the release straight into
// a new table: a clone of d overwritten column by column.
func correlated2ByCopy(d *datasets.Dataset, delta float64, rng *rand.Rand) *datasets.Dataset {
	dd := math.Sqrt(1 - delta*delta)
	sc := availScaling(d)
	out := d.Clone()
	for j := 0; j < d.P; j++ {
		mu := sc.Mean[j] * (1 - dd) / delta
		sd := sc.SD[j]
		for i := 0; i < d.N; i++ {
			g := mu + sd*rng.NormFloat64()
			out.Data[i*d.P+j] = dd*d.Data[i*d.P+j] + delta*g
		}
	}
	return out
}

// correlatedByCopy is noise_correlated as it was before: the input always scaled through
// datasets.PowerScaled (a copy), the release a clone of it with z·Lᵀ added in place.
func correlatedByCopy(d *datasets.Dataset, v float64, rng *rand.Rand) *datasets.Dataset {
	s := datasets.PowerScaled(d.Data)
	e := 0
	for i, x := range d.Data {
		if x != 0 && s[i] != x {
			_, ex := math.Frexp(x)
			_, es := math.Frexp(s[i])
			e = ex - es
			break
		}
	}
	in := d.Clone()
	in.Data = s
	cc := completeRows(in)
	cov := covMat(cc.Data, cc.N, cc.P)
	cov.ScaleSym(v, cov)
	l := mvnFactor(cov)
	out := in.Clone()
	lr := l.RawMatrix()
	z := make([]float64, d.P)
	for i := 0; i < d.N; i++ {
		for a := range z {
			z[a] = rng.NormFloat64()
		}
		row := out.Data[i*d.P : (i+1)*d.P]
		for a := range row {
			var t float64
			for b, zb := range z {
				t += lr.Data[a*lr.Stride+b] * zb
			}
			row[a] += t
		}
	}
	if e != 0 {
		for i, x := range out.Data {
			out.Data[i] = math.Ldexp(x, e)
		}
	}
	return out
}

// noiseTable returns a random n×p table with zeros, negative zeros, missing cells (when
// missing), a constant last column and, for scale ≠ 0, every value multiplied by 2^scale.
func noiseTable(r *rand.Rand, n, p int, missing bool, scale int) *datasets.Dataset {
	data := make([]float64, n*p)
	for k := range data {
		switch u := r.Float64(); {
		case u < 0.08:
			data[k] = 0
		case u < 0.12:
			data[k] = math.Copysign(0, -1)
		case u < 0.2 && missing:
			data[k] = math.NaN()
		default:
			data[k] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
		}
		if k%p == p-1 && p > 2 && !math.IsNaN(data[k]) {
			data[k] = 2.5
		}
		data[k] = math.Ldexp(data[k], scale)
	}
	names := make([]string, p)
	for j := range names {
		names[j] = "v" + strconv.Itoa(j)
	}
	return datasets.New("t", names, n, p, data)
}

// sameRelease fails t unless got and want hold the same names and the same values bit for bit.
func sameRelease(t *testing.T, what string, got, want *datasets.Dataset) {
	t.Helper()
	if got.N != want.N || got.P != want.P || !slices.Equal(got.Names, want.Names) || got.Name != want.Name {
		t.Fatalf("%s: %s %d×%d %v, want %s %d×%d %v", what, got.Name, got.N, got.P, got.Names, want.Name, want.N, want.P, want.Names)
	}
	for k := range want.Data {
		if math.Float64bits(got.Data[k]) != math.Float64bits(want.Data[k]) {
			t.Fatalf("%s: cell %d = %v, copying reference %v", what, k, got.Data[k], want.Data[k])
		}
	}
}

// TestCorrelatedMatchesCopy compares noise_correlated2 and noise_correlated, which write their
// release straight into a new table (and noise_correlated no longer copies an input of
// ordinary magnitude for powerScaled), with the copying references bit for bit on random
// tables with zeros, negative zeros, missing cells (correlated2), a constant column and
// extreme magnitudes, and checks that the input is left unchanged.
func TestCorrelatedMatchesCopy(t *testing.T) {
	for seed := uint64(1); seed <= 24; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		n, p := 3+r.IntN(300), 2+r.IntN(5)
		scale := []int{0, 0, 600, -600, 400}[seed%5]
		d := noiseTable(r, n, p, seed%2 == 0, scale)
		before := slices.Clone(d.Data)
		for _, delta := range []float64{0.1, 0.5, 1} {
			params, err := Correlated2{}.Info().Resolve(map[string]string{"delta": strconv.FormatFloat(delta, 'g', -1, 64)})
			if err != nil {
				t.Fatal(err)
			}
			rel, err := Correlated2{}.Protect(context.Background(), d, params, rand.New(rand.NewPCG(seed, 9)))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			sameRelease(t, "noise_correlated2 seed "+strconv.Itoa(int(seed)), rel.Masked, correlated2ByCopy(d, delta, rand.New(rand.NewPCG(seed, 9))))
		}
		if seed%2 == 1 { // complete tables: noise_correlated rejects few complete rows
			for _, pct := range []string{"5", "150"} {
				params, err := Correlated{}.Info().Resolve(map[string]string{"noise_pct": pct})
				if err != nil {
					t.Fatal(err)
				}
				rel, err := Correlated{}.Protect(context.Background(), d, params, rand.New(rand.NewPCG(seed, 10)))
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				v, _ := strconv.ParseFloat(pct, 64)
				sameRelease(t, "noise_correlated seed "+strconv.Itoa(int(seed)), rel.Masked, correlatedByCopy(d, v/100, rand.New(rand.NewPCG(seed, 10))))
			}
		}
		for k := range before {
			if math.Float64bits(d.Data[k]) != math.Float64bits(before[k]) {
				t.Fatalf("seed %d: the input changed at cell %d", seed, k)
			}
		}
	}
}

// TestExtremeMagnitudeMatchesPowerScaled checks that extremeMagnitude is true exactly when
// datasets.PowerScaled changes a value, on tables of zeros, NaN, infinities, subnormal, huge
// and ordinary values.
func TestExtremeMagnitudeMatchesPowerScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 2))
	vals := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 0x1p-500, 0x1p-501,
		0x1p500, 0x1p501, -0x1p501, 1e308, -1e-310, 1, -3.5, 0x1p499}
	for trial := range 2000 {
		x := make([]float64, 1+r.IntN(4))
		for k := range x {
			x[k] = vals[r.IntN(len(vals))]
		}
		s := datasets.PowerScaled(x)
		changed := false
		for k := range x {
			if math.Float64bits(s[k]) != math.Float64bits(x[k]) {
				changed = true
			}
		}
		if got := extremeMagnitude(x); got != changed {
			t.Fatalf("trial %d: extremeMagnitude(%v) = %v, PowerScaled changes it: %v", trial, x, got, changed)
		}
	}
}
