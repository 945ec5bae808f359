package synth

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// §7.1: the membership update with m = 1.5 (exponent 2).
func TestMembershipVectors(t *testing.T) {
	cases := []struct{ e, want []float64 }{
		{[]float64{1, 4}, []float64{0.941176470588, 0.058823529412}},
		{[]float64{1e-100, 2.5}, []float64{1, 1.6e-201}},
		{[]float64{2, 2, 4}, []float64{0.444444444444, 0.444444444444, 0.111111111111}},
	}
	for _, c := range cases {
		row := make([]float64, len(c.e))
		membership(append([]float64(nil), c.e...), 2, row)
		for j := range row {
			if math.Abs(row[j]-c.want[j]) > 1e-12*math.Max(1, c.want[j]) || math.IsNaN(row[j]) {
				t.Errorf("E = %v: U = %v, want %v", c.e, row, c.want)
				break
			}
		}
	}
}

// §7.3 and §5.3: fcrm with c = 1 is OLS, i.e. ipso_a, in both modes.
func TestFCRMOneClusterIsIPSOA(t *testing.T) {
	want := []float64{2.571428571429, 3.342857142857, 4.114285714286, 4.885714285714, 5.657142857143, 6.428571428571}
	rel := protect(t, "fcrm", toy73(), map[string]string{"preds": "x", "c": "1"}, 1)
	for i, w := range want {
		if got := rel.Masked.At(i, 1); math.Abs(got-w) > 1e-11 {
			t.Errorf("y'[%d] = %.12f, want %.12f", i, got, w)
		}
	}
	for _, set := range []string{"census_s1", "census_s2", "census_s3_d4_n15"} {
		d := load(t, set)
		a := protect(t, "ipso_a", d, nil, 1)
		var ymax float64
		for _, v := range d.Data {
			ymax = math.Max(ymax, math.Abs(v))
		}
		for _, mode := range []string{"per_attribute", "joint"} {
			f := protect(t, "fcrm", d, map[string]string{"c": "1", "mode": mode}, 1)
			for i, v := range f.Masked.Data {
				if math.Abs(v-a.Masked.Data[i]) > 1e-7*ymax {
					t.Errorf("%s %s: fcrm c=1 differs from ipso_a at %d: %v vs %v", set, mode, i, v, a.Masked.Data[i])
					break
				}
			}
		}
	}
}

// §5.4: memberships are a fuzzy partition; iterations within the cap; outputs finite.
func TestFCRMMembershipProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 20 {
		n, s, tt := 20+rng.IntN(80), 1+rng.IntN(4), 1+rng.IntN(2)
		x := make([]float64, n*s)
		y := make([]float64, n*tt)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for i := range y {
			y[i] = rng.NormFloat64() + x[(i/tt)*s]
		}
		c := 1 + rng.IntN(8)
		cfg := FCRMConfig{C: c, M: 1.2 + rng.Float64(), Eps: 1e-5, RMax: 1 + rng.IntN(40), Intercept: rng.IntN(2) == 0,
			FCM: FCMConfig{M: 1.5, Lambda: 1e-5, MaxIter: 300}, Ginv: Ginv(rng.IntN(2))}
		r := FCRM(x, s, y, tt, n, cfg, rng)
		for k := range n {
			var sum float64
			for i := range c {
				u := r.U[k*c+i]
				if u < 0 || u > 1 || math.IsNaN(u) {
					t.Fatalf("trial %d: U[%d,%d] = %v", trial, k, i, u)
				}
				sum += u
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("trial %d: row %d sums to %.15g", trial, k, sum)
			}
		}
		if r.Iters > cfg.RMax || r.Iters < 1 {
			t.Errorf("trial %d: iters %d, rmax %d", trial, r.Iters, cfg.RMax)
		}
		for _, v := range r.Fit {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("trial %d: non-finite fit", trial)
			}
		}
		if math.IsNaN(r.Objective) || math.IsNaN(r.LastDelta) {
			t.Errorf("trial %d: NaN diagnostics", trial)
		}
	}
}

// FCM's memberships are a fuzzy partition and a point on a centroid shares equally.
func TestFCMProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	a := []float64{0, 0, 0, 0, 10, 10, 10, 10}
	u, _ := FCM(a, 4, 2, FCMConfig{C: 2, M: 1.5, Lambda: 1e-9, MaxIter: 100}, rng)
	for k := range 4 {
		if math.Abs(u[2*k]+u[2*k+1]-1) > 1e-12 {
			t.Errorf("row %d sums to %v", k, u[2*k]+u[2*k+1])
		}
	}
	if math.Abs(u[0]-u[2]) > 1e-12 || math.Abs(u[4]-u[6]) > 1e-12 || math.Max(u[0], u[1]) < 0.999 {
		t.Errorf("two tight clusters not found: %v", u)
	}
}

// More clusters fit better on the toy data: the synthesized y moves closer to y.
func TestFCRMToyLossFalls(t *testing.T) {
	d := load(t, "fcrm_toy")
	prev := math.Inf(1)
	for _, c := range []string{"1", "3", "10"} {
		rel := protect(t, "fcrm", d, map[string]string{"c": c}, 9)
		var sse float64
		for i := range d.N {
			e := rel.Masked.At(i, 1) - d.At(i, 1)
			sse += e * e
		}
		if sse >= prev {
			t.Errorf("c = %s: SSE %g not below %g", c, sse, prev)
		}
		prev = sse
	}
}

func TestFCRMDeterministicAndDegenerate(t *testing.T) {
	d := load(t, "census_s2")
	a := protect(t, "fcrm", d, map[string]string{"c": "4"}, 5)
	b := protect(t, "fcrm", d, map[string]string{"c": "4"}, 5)
	for i := range a.Masked.Data {
		if a.Masked.Data[i] != b.Masked.Data[i] {
			t.Fatal("same seed, different release")
		}
	}
	if f := a.Diag.FCRM; f == nil || math.IsNaN(f.Iters) || math.IsNaN(f.LastDelta) || math.IsNaN(f.Objective) {
		t.Errorf("Diag.FCRM = %+v", f)
	}
	// A constant target is released unchanged; collinear predictors go through the g-inverse.
	cy := datasets.New("cy", []string{"x", "x2", "y", "k"}, 8, 4, []float64{
		1, 2, 2, 5, 2, 4, 4, 5, 3, 6, 5, 5, 4, 8, 4, 5, 5, 10, 5, 5, 6, 12, 7, 5, 7, 14, 6, 5, 8, 16, 9, 5})
	for _, g := range []string{"pinv", "pivot"} {
		for _, c := range []string{"1", "2", "8"} {
			rel := protect(t, "fcrm", cy, map[string]string{"preds": "x,x2", "c": c, "ginv": g}, 1)
			for i := range 8 {
				if rel.Masked.At(i, 3) != 5 {
					t.Fatalf("constant target changed")
				}
				if v := rel.Masked.At(i, 2); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("ginv %s c %s: non-finite output", g, c)
				}
			}
		}
	}
	for _, e := range []struct {
		raw  map[string]string
		want string
	}{
		{map[string]string{"preds": "x", "c": "7"}, "c = 7 exceeds the number of records 6"},
		{map[string]string{"preds": "x", "m": "1"}, "bad parameter"},
	} {
		_, err := tryProtect("fcrm", toy73(), e.raw, 1)
		if err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%v: error %v, want %q", e.raw, err, e.want)
		}
	}
	rel := protect(t, "fcm", load(t, "fcrm_toy"), map[string]string{"c": "5"}, 1)
	if v := rel.Masked.At(0, 1); math.IsNaN(v) {
		t.Error("fcm: NaN")
	}
}
