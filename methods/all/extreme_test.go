package all_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// scaled returns d with every value multiplied by 2^k (exact for the census values and |k| ≤ 1000).
func scaled(d *datasets.Dataset, k int) *datasets.Dataset {
	out := make([]float64, len(d.Data))
	for i, v := range d.Data {
		out[i] = math.Ldexp(v, k)
	}
	return datasets.New(d.Name, d.Names, d.N, d.P, out)
}

// protect runs a method with its default parameters and a fixed seed; ok is false when the
// method refuses the data (e.g. the DP methods, which want one-hot rows).
func protect(t *testing.T, m methods.Method, d *datasets.Dataset) (*datasets.Dataset, error) {
	t.Helper()
	p, err := m.Info().Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.(methods.Validator); ok {
		if err := v.Validate(d, p); err != nil {
			return nil, err
		}
	}
	rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return nil, err
	}
	if err := methods.CheckOverflow(m.Info().Name, d, rel.Masked); err != nil {
		return nil, err
	}
	return rel.Masked, nil
}

// TestExtremeMagnitudes is issue 14 item 1: on data near the float64 limits (census × 2^±1000,
// about 1e306 and 1e-296) every method that accepts the census returns a finite release, and
// the release is the census release × 2^±1000 to the last bit: multiplying by a power of two
// is exact, and the scaling, the distances and the group means are computed so that it stays
// exact where the plain formulas would overflow or underflow.
func TestExtremeMagnitudes(t *testing.T) {
	base, err := datasets.Load("census")
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]float64, 0, 60*4)
	for i := 0; i < 60; i++ {
		rows = append(rows, base.Row(i)[:4]...)
	}
	d := datasets.New("census60", base.Names[:4], 60, 4, rows)
	for _, info := range methods.List() {
		m, _ := methods.Lookup(info.Name)
		t.Run(info.Name, func(t *testing.T) {
			if info.Name == "magga" || info.Name == "dfo" {
				if testing.Short() {
					t.Skip("slow in -short")
				}
			}
			want, err := protect(t, m, d)
			if err != nil {
				t.Skipf("refuses the census itself: %v", err)
			}
			inexact := info.NotEquivariant != ""
			for _, k := range []int{1000, -1000} {
				got, err := protect(t, m, scaled(d, k))
				if err != nil {
					t.Fatalf("×2^%d: %v", k, err)
				}
				for i, v := range got.Data {
					if math.IsInf(v, 0) || math.IsNaN(v) {
						t.Fatalf("×2^%d: cell %d is %v", k, i, v)
					}
				}
				if !inexact && !slices.Equal(got.Data, scaled(want, k).Data) {
					t.Errorf("×2^%d: the release is not the census release × 2^%d", k, k)
				}
			}
		})
	}
}

// TestNearLimit is issue 14's own input: columns of finite values between 2e307 and 1.4e308,
// 1e200 and subnormal 1e-310, with z-scores and with raw distances. Every method that accepts
// such a table gives a finite release or an error that says the release overflows: never a
// panic, an "internal error", ±Inf in the output or a "constant column" for a column that is not.
func TestNearLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 40
	data := make([]float64, 0, n*3)
	for i := 0; i < n; i++ {
		data = append(data, 2e307+rng.Float64()*1.2e308, rng.Float64()*1e200, (1+rng.Float64())*1e-310)
	}
	d := datasets.New("near-limit", []string{"huge", "big", "subnormal"}, n, 3, data)
	for _, info := range methods.List() {
		m, _ := methods.Lookup(info.Name)
		spaces := []string{""}
		for _, ps := range info.Params {
			if ps.Name == "standardize" {
				spaces = []string{"zscore", "none"}
			}
		}
		for _, sp := range spaces {
			t.Run(info.Name+"/"+sp, func(t *testing.T) {
				raw := map[string]string{}
				if sp != "" {
					raw["standardize"] = sp
				}
				p, err := info.Resolve(raw)
				if err != nil {
					t.Fatal(err)
				}
				if v, ok := m.(methods.Validator); ok {
					if err := v.Validate(d, p); err != nil {
						if strings.Contains(err.Error(), "constant") {
							t.Fatalf("a non-constant column called constant: %v", err)
						}
						t.Skipf("refused: %v", err)
					}
				}
				rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
				if err == nil {
					err = methods.CheckOverflow(info.Name, d, rel.Masked)
				}
				if err != nil {
					if strings.Contains(err.Error(), "internal error") || strings.Contains(err.Error(), "constant") {
						t.Fatal(err)
					}
					if !strings.Contains(err.Error(), "overflows") && !strings.Contains(err.Error(), "one-hot") {
						t.Fatalf("unclear error: %v", err)
					}
					return
				}
				for i, v := range rel.Masked.Data {
					if math.IsInf(v, 0) || math.IsNaN(v) {
						t.Fatalf("cell %d is %v", i, v)
					}
				}
			})
		}
	}
}

// TestOverflowingRelease checks that a release that cannot be represented (noise on values at
// the float64 limit) is refused with a message naming the cell, never written as ±Inf.
func TestOverflowingRelease(t *testing.T) {
	data := make([]float64, 30*2)
	for i := 0; i < 30; i++ {
		data[2*i], data[2*i+1] = 1.7e308-float64(i)*1e306, float64(i)
	}
	d := datasets.New("edge", []string{"a", "b"}, 30, 2, data)
	m, _ := methods.Lookup("noise_additive")
	p, err := m.Info().Resolve(map[string]string{"noise_pct": "500"})
	if err != nil {
		t.Fatal(err)
	}
	rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	err = methods.CheckOverflow("noise_additive", d, rel.Masked)
	if err == nil || !strings.Contains(err.Error(), `column "a"`) || !strings.Contains(err.Error(), "overflows") {
		t.Fatalf("got %v, want an overflow error naming column a", err)
	}
}
