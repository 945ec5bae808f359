package perturb

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// inPlaceMethod is a method with ProtectInPlace (Additive, Correlated2).
type inPlaceMethod interface {
	methods.Method
	ProtectInPlace(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, bool, error)
}

// TestProtectInPlaceMatchesProtect checks ProtectInPlace against Protect on a copy of the same
// table with generators in the same state, for noise_additive, noise_additive0 and
// noise_correlated2: the same error, or the same release bit for bit (names, levels, Info)
// written over the input's values, the generator left in the same state, and clean exactly
// when methods.CheckOverflow and methods.CheckHoles pass Protect's release against the
// original. Tables: random, with zeros, −0, missing cells and a constant column, of ordinary
// magnitude, huge (2^600) and near the float64 limit (where the noise overflows or the input
// holds ±Inf), a categorical column, a single row, δ = 0; and Protect's errors are Validate's.
func TestProtectInPlaceMatchesProtect(t *testing.T) {
	ms := []inPlaceMethod{Additive{}, Additive{KeepZeros: true}, Correlated2{}}
	var clean, unclean, failed int
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 17))
		n, p := 1+r.IntN(200), 1+r.IntN(5)
		if seed%10 != 0 {
			n++ // seed 10, 20, …: sometimes a single row
		}
		scale := []int{0, 0, 600, 1010, 1022}[seed%5]
		d := noiseTable(r, n, p, seed%2 == 0, scale)
		if seed%13 == 0 {
			d.Levels = make([][]string, p)
			d.Levels[0] = []string{"a", "b"}
			for i := range n {
				d.Data[i*p] = float64(i % 2)
			}
		}
		for _, m := range ms {
			name := m.Info().Name
			vals := map[string]string{"noise_pct": []string{"0", "5", "150", "1e6"}[seed%4]}
			if _, ok := m.(Correlated2); ok {
				vals = map[string]string{"delta": []string{"0.1", "0.5", "1", "0"}[seed%4]}
			}
			params, err := m.Info().Resolve(vals)
			if err != nil {
				t.Fatal(err)
			}
			what := name + " seed " + strconv.Itoa(int(seed))
			orig := d.Clone()
			rngA := rand.New(rand.NewPCG(seed, 23))
			want, errA := m.Protect(context.Background(), d.Clone(), params, rngA)
			own := d.Clone()
			rngB := rand.New(rand.NewPCG(seed, 23))
			got, ok, errB := m.ProtectInPlace(context.Background(), own, params, rngB)
			if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
				t.Fatalf("%s: error %v, Protect's %v", what, errB, errA)
			}
			// Protect's checks are Validate's, whatever shortcut they take
			if errV := m.(methods.Validator).Validate(orig, params); (errA == nil) != (errV == nil) || errA != nil && errA.Error() != errV.Error() {
				t.Fatalf("%s: error %v, Validate's %v", what, errA, errV)
			}
			if errA != nil {
				failed++
				continue
			}
			sameRelease(t, what, got.Masked, want.Masked)
			if &got.Masked.Data[0] != &own.Data[0] {
				t.Fatalf("%s: the release is not written over the input", what)
			}
			if !reflect.DeepEqual(got.Masked.Levels, want.Masked.Levels) || !reflect.DeepEqual(got.Info, want.Info) {
				t.Fatalf("%s: levels %v, info %v; Protect's %v, %v", what, got.Masked.Levels, got.Info, want.Masked.Levels, want.Info)
			}
			if a, b := rngA.Uint64(), rngB.Uint64(); a != b {
				t.Fatalf("%s: the generators differ after the release", what)
			}
			pass := methods.CheckOverflow(name, orig, want.Masked) == nil && methods.CheckHoles(name, orig, want) == nil
			if ok != pass {
				t.Fatalf("%s: clean %v, but the checks pass: %v", what, ok, pass)
			}
			if ok {
				clean++
			} else {
				unclean++
			}
		}
	}
	t.Logf("cases: %d clean, %d unclean, %d errors", clean, unclean, failed)
	if clean == 0 || unclean < 3 || failed == 0 {
		t.Fatalf("cases: %d clean, %d unclean, %d errors: every kind must occur", clean, unclean, failed)
	}
}

// TestProtectInPlaceUncleanCells checks clean on single cells: a release cell that overflows
// to ±Inf, or turns missing where the input has a value, makes it false; a missing input
// cell that stays missing does not.
func TestProtectInPlaceUncleanCells(t *testing.T) {
	big := math.MaxFloat64 * 0.95
	for _, c := range []struct {
		data  []float64
		clean bool
	}{
		{[]float64{1, 2, 3, 4}, true},
		{[]float64{1, math.NaN(), 3, 4}, true},
		// the means are finite, the SD huge: the noise overflows
		{[]float64{big, -big, big, -big, big, -big, big, -big}, false},
	} {
		for _, m := range []inPlaceMethod{Additive{}, Correlated2{}} {
			params, err := m.Info().Resolve(map[string]string{"noise_pct": "1e6"})
			if _, ok := m.(Correlated2); ok {
				params, err = m.Info().Resolve(map[string]string{"delta": "0.5"})
			}
			if err != nil {
				t.Fatal(err)
			}
			d := datasets.New("t", []string{"x"}, len(c.data), 1, slices.Clone(c.data))
			_, ok, err := m.ProtectInPlace(context.Background(), d, params, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.clean {
				t.Errorf("%s on %v: clean %v, want %v (release %v)", m.Info().Name, c.data, ok, c.clean, d.Data)
			}
		}
	}
}
