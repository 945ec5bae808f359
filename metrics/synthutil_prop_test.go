package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// randomMixed returns an n-record table of two numeric columns (the second with about 5%
// missing) and two categorical ones (3 and 4 categories, the second with missing values).
func randomMixed(rng *rand.Rand, n int, shift float64) *datasets.Dataset {
	data := make([]float64, 0, 4*n)
	for i := 0; i < n; i++ {
		x2 := rng.NormFloat64()*2 + shift
		if rng.Float64() < 0.05 {
			x2 = math.NaN()
		}
		b := float64(rng.IntN(4))
		if rng.Float64() < 0.04 {
			b = math.NaN()
		}
		a := float64(rng.IntN(3))
		if shift != 0 && rng.Float64() < 0.2 {
			a = 2
		}
		data = append(data, rng.NormFloat64()+shift, x2, a, b)
	}
	d := datasets.New("r", []string{"x1", "x2", "a", "b"}, n, 4, data)
	d.Levels = [][]string{nil, nil, {"u", "v", "w"}, {"p", "q", "r", "s"}}
	return d
}

// permuted returns d's rows in the order perm.
func permuted(d *datasets.Dataset, perm []int) *datasets.Dataset {
	out := d.Clone()
	for i, r := range perm {
		copy(out.Row(i), d.Row(r))
	}
	return out
}

// TestSynthUtilInvariants checks, on random mixed tables, properties every measure must have:
// the order of the records of either table does not change any measure (exactly for the
// counts of kmarginal and for the distances of a shuffled release; to 1e-12 otherwise, the
// original's means and SDs being summed in another order); renaming the categories (another
// reference level in the model) changes neither the fitted values nor the propensity measures
// (ci_overlap does change: its dummies' coefficients are contrasts with the reference); the
// values lie in their ranges (pMSE ≤ c(1−c)², SPECKS in [0, 1], kmarginal in [0, 1000]).
func TestSynthUtilInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	for trial := 0; trial < 5; trial++ {
		orig := randomMixed(rng, 150, 0)
		rel := randomMixed(rng, 150, 0.3*float64(trial))
		opt := Options{Synth: SynthOptions{CIModel: "x1 ~ x2 + a"}}
		ids := []string{"pmse", "s_pmse", "specks", "kmarginal", "ci_overlap", "dcr_median", "nndr_median"}
		base := map[string]float64{}
		for _, id := range ids {
			base[id] = evalID(t, id, &Input{Orig: orig, Masked: rel, Opt: opt}).Value
		}
		if p := base["pmse"]; !(p >= 0 && p <= 0.125) {
			t.Errorf("trial %d: pmse %g outside [0, c(1−c)²]", trial, p)
		}
		if s := base["specks"]; !(s >= 0 && s <= 1) {
			t.Errorf("trial %d: specks %g outside [0, 1]", trial, s)
		}
		if k := base["kmarginal"]; !(k >= 0 && k <= 1000) {
			t.Errorf("trial %d: kmarginal %g outside [0, 1000]", trial, k)
		}
		// shuffled rows: the release's, then the original's (with the release in the same order,
		// as the pairing of rows means nothing to these measures)
		pr, po := rng.Perm(rel.N), rng.Perm(orig.N)
		for _, c := range []struct {
			name string
			in   *Input
		}{
			{"release shuffled", &Input{Orig: orig, Masked: permuted(rel, pr), Opt: opt}},
			{"original shuffled", &Input{Orig: permuted(orig, po), Masked: rel, Opt: opt}},
			{"categories renamed", &Input{Orig: recoded(orig), Masked: recoded(rel), Opt: opt}},
		} {
			for _, id := range ids {
				if id == "ci_overlap" && c.name == "categories renamed" {
					continue // the dummies' coefficients depend on the reference category
				}
				got := evalID(t, id, c.in).Value
				tol := 1e-12 * math.Max(1, math.Abs(base[id]))
				if id == "kmarginal" || (c.name == "release shuffled" && (id == "dcr_median" || id == "nndr_median")) {
					tol = 0 // counts; distances to the same tree
				}
				if id == "ci_overlap" || id == "s_pmse" {
					tol = 1e-9 * math.Max(1, math.Abs(base[id]))
				}
				if math.Abs(got-base[id]) > tol {
					t.Errorf("trial %d, %s: %s = %.17g, was %.17g", trial, c.name, id, got, base[id])
				}
			}
		}
	}
}

// recoded returns d with every category code k of a categorical column replaced by L−1−k
// (the labels reversed with them): the same table under other codes.
func recoded(d *datasets.Dataset) *datasets.Dataset {
	out := d.Clone()
	for _, j := range d.Categorical() {
		L := len(d.Levels[j])
		for i := 0; i < d.N; i++ {
			if v := out.At(i, j); v == v {
				out.Data[i*d.P+j] = float64(L - 1 - int(v))
			}
		}
		lv := make([]string, L)
		for k, l := range d.Levels[j] {
			lv[L-1-k] = l
		}
		out.Levels[j] = lv
	}
	return out
}

// TestSynthUtilCancel: a cancelled evaluation stops the fitted and the combinatorial
// measures with NaN and a note.
func TestSynthUtilCancel(t *testing.T) {
	orig, rel := synthPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, id := range []string{"pmse", "specks", "kmarginal"} {
		r := evalID(t, id, &Input{Orig: orig, Masked: rel, Ctx: ctx})
		if !math.IsNaN(r.Value) || !strings.Contains(strings.Join(r.Notes, ""), "cancelled") {
			t.Errorf("%s after cancel: %+v", id, r)
		}
	}
}
