package categorical

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
)

// randomCat returns an n×p categorical table with L levels per column and about 5% missing.
func randomCat(rng *rand.Rand, n, p, L int) *datasets.Dataset {
	data := make([]float64, n*p)
	for i := range data {
		data[i] = float64(rng.IntN(L))
		if rng.Float64() < 0.05 {
			data[i] = math.NaN()
		}
	}
	names := make([]string, p)
	lv := make([][]string, p)
	for j := range names {
		names[j] = string(rune('a' + j))
		for k := 0; k < L; k++ {
			lv[j] = append(lv[j], string(rune('A'+k)))
		}
	}
	d := datasets.New("rand", names, n, p, data)
	d.Levels = lv
	return d
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestPRAMProperties: input untouched, deterministic per seed, missing stays missing, codes
// stay levels, pd = 1 or alpha = 0 changes nothing, and over many records the changes match
// their expectation given the matrix (within 4 SE).
func TestPRAMProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 20; trial++ {
		d := randomCat(rng, 200+rng.IntN(300), 1+rng.IntN(3), 2+rng.IntN(5))
		before := slices.Clone(d.Data)
		p := resolve(t, PRAM{}, map[string]string{"pd": "0.6", "alpha": "0.7"})
		r1, err := PRAM{}.Protect(context.Background(), d, p, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		r2, _ := PRAM{}.Protect(context.Background(), d, p, rand.New(rand.NewPCG(3, 4)))
		if !sameBits(d.Data, before) {
			t.Fatal("pram modified its input")
		}
		if !sameBits(r1.Masked.Data, r2.Masked.Data) {
			t.Fatal("pram is not deterministic for a seed")
		}
		for i, v := range r1.Masked.Data {
			if math.IsNaN(v) != math.IsNaN(before[i]) || (!math.IsNaN(v) && (v < 0 || int(v) >= len(d.Levels[i%d.P]))) {
				t.Fatalf("cell %d: %v → %v", i, before[i], v)
			}
		}
		if e := r1.Diag.PRAM.InvarianceErr; e > 1e-12 {
			t.Errorf("invariance error %g", e)
		}
		for _, raw := range []map[string]string{{"pd": "1"}, {"alpha": "0"}} {
			r, _ := PRAM{}.Protect(context.Background(), d, resolve(t, PRAM{}, raw), rand.New(rand.NewPCG(1, 1)))
			if !sameBits(r.Masked.Data, before) {
				t.Errorf("%v changed the data", raw)
			}
		}
	}
	// Expected number of changes: 100 replicates on one table.
	d := randomCat(rng, 2000, 1, 4)
	var diff []float64
	for rep := 0; rep < 100; rep++ {
		r, _ := PRAM{}.Protect(context.Background(), d, resolve(t, PRAM{}, map[string]string{"pd": "0.5"}), rand.New(rand.NewPCG(uint64(rep), 9)))
		diff = append(diff, r.Info["pram_changed"].(float64)-r.Diag.PRAM.ExpectedChanged)
	}
	var m, v float64
	for _, x := range diff {
		m += x / float64(len(diff))
	}
	for _, x := range diff {
		v += (x - m) * (x - m) / float64(len(diff)-1)
	}
	if se := math.Sqrt(v / float64(len(diff))); math.Abs(m) > 4*se {
		t.Errorf("changed − expected = %.2f, SE %.2f: beyond 4 SE", m, se)
	}
}

// TestPRAMExplicitAndStrata: an explicit identity-like matrix on one level; strata rows are
// untouched and per-stratum matrices are one per stratum.
func TestPRAMExplicitAndStrata(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := randomCat(rng, 500, 2, 2)
	// Rows (1, 0), (0.05, 0.95): level A never changes, B goes to A with probability 0.05.
	r, err := PRAM{}.Protect(context.Background(), d, resolve(t, PRAM{}, map[string]string{"matrix": "1,0;0.05,0.95"}), rng)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range d.Data {
		if v == 0 && r.Masked.Data[i] != 0 {
			t.Fatalf("cell %d: level A changed under row (1, 0)", i)
		}
	}
	for _, mode := range []string{"global", "per_stratum"} {
		r, err := PRAM{}.Protect(context.Background(), d, resolve(t, PRAM{}, map[string]string{"strata": "b", "strata_matrix": mode}), rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < d.N; i++ {
			if math.Float64bits(r.Masked.At(i, 1)) != math.Float64bits(d.At(i, 1)) {
				t.Fatalf("%s: strata column changed at row %d", mode, i)
			}
		}
		want := 1
		if mode == "per_stratum" {
			want = 3 // levels A, B and missing
		}
		if got := len(r.Info["pram_matrices"].([][][]float64)); got != want {
			t.Errorf("%s: %d matrices, want %d", mode, got, want)
		}
		// The typed matrices are the same, named by column, stratum and categories.
		typed := r.Diag.PRAM.Matrices
		wantStrata := []string{""}
		if mode == "per_stratum" {
			wantStrata = []string{"A", "B", "NA"}
		}
		if len(typed) != want {
			t.Fatalf("%s: %d typed matrices, want %d", mode, len(typed), want)
		}
		for k, m := range typed {
			if m.Column != "a" || m.Stratum != wantStrata[k] || !slices.Equal(m.Levels, d.Levels[0]) {
				t.Errorf("%s: matrix %d is of column %q, stratum %q, levels %q; want a, %q, %q", mode, k, m.Column, m.Stratum, m.Levels, wantStrata[k], d.Levels[0])
			}
			for i, row := range m.P {
				if !slices.Equal(row, r.Info["pram_matrices"].([][][]float64)[k][i]) {
					t.Errorf("%s: matrix %d row %d = %v, Info has %v", mode, k, i, row, r.Info["pram_matrices"].([][][]float64)[k][i])
				}
			}
		}
	}
}

// TestLocalSuppProperties: only key_var changes, only to missing, exactly where the risk of
// the input exceeds the threshold; with threshold 1 nothing changes.
func TestLocalSuppProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 20; trial++ {
		d := randomCat(rng, 50+rng.IntN(200), 2+rng.IntN(3), 2+rng.IntN(4))
		thr := []string{"0.2", "0.34", "0.5", "1"}[rng.IntN(4)]
		key := d.Names[rng.IntN(d.P)]
		rel, err := LocalSupp{}.Protect(context.Background(), d, resolve(t, LocalSupp{}, map[string]string{"key_var": key, "threshold": thr}), nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := keyRisk(d)
		j := d.ColIndex(key)
		var th float64
		switch thr {
		case "0.2":
			th = 0.2
		case "0.34":
			th = 0.34
		case "0.5":
			th = 0.5
		default:
			th = 1
		}
		for i := 0; i < d.N; i++ {
			for l := 0; l < d.P; l++ {
				a, b := d.At(i, l), rel.Masked.At(i, l)
				wantNA := l == j && r[i] > th
				if wantNA && !math.IsNaN(b) || !wantNA && math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("trial %d row %d col %d: %v → %v (r = %v, threshold %v)", trial, i, l, a, b, r[i], th)
				}
			}
		}
	}
}

func TestRecodeAndTopBot(t *testing.T) {
	d := datasets.New("n", []string{"x"}, 6, 1, []float64{0, 5, 10, 11, 20, 21})
	rel, err := GlobalRecode{}.Protect(context.Background(), d, resolve(t, GlobalRecode{}, map[string]string{"breaks": "0,10,20"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for i := 0; i < d.N; i++ {
		labels = append(labels, rel.Masked.Label(i, 0))
	}
	want := []string{"[0,10]", "[0,10]", "[0,10]", "(10,20]", "(10,20]", "NA"}
	if !slices.Equal(labels, want) || rel.Info["outside"].(int) != 1 {
		t.Errorf("breaks: %q (outside %v), want %q (1)", labels, rel.Info["outside"], want)
	}
	c, _ := d.Categorize([]string{"x"})
	rel, err = GlobalRecode{}.Protect(context.Background(), c, resolve(t, GlobalRecode{}, map[string]string{"map": "0:low;5:low;10:low"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rel.Masked.Levels[0]; !slices.Equal(got, []string{"11", "20", "21", "low"}) || rel.Masked.Label(1, 0) != "low" || rel.Masked.Label(4, 0) != "20" {
		t.Errorf("map: levels %q", got)
	}
	rel, _ = TopBot{}.Protect(context.Background(), d, resolve(t, TopBot{}, map[string]string{"value": "15", "replacement": "16"}), nil)
	if got := rel.Masked.Data; !slices.Equal(got, []float64{0, 5, 10, 11, 16, 16}) {
		t.Errorf("top coding: %v", got)
	}
	rel, _ = TopBot{}.Protect(context.Background(), c, resolve(t, TopBot{}, map[string]string{"kind": "bottom", "value": "10"}), nil)
	if got := rel.Masked.Label(0, 0) + rel.Masked.Label(1, 0) + rel.Masked.Label(3, 0); got != "101011" {
		t.Errorf("bottom coding of an ordinal column: %q", got)
	}
}

// TestSemanticRecode: a hand example. Combinations (a, x) ×3, (a, y) ×2, (b, y) ×1, (c, z) ×1.
// With k_target 2, (b, y) (the rarest, first in row order) joins (a, y), the only combination at
// distance 1; then (c, z), at distance 2 from both combinations left (3 records each), joins the
// first in row order, (a, x).
func TestSemanticRecode(t *testing.T) {
	d := datasets.New("s", []string{"u", "v"}, 7, 2, []float64{0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 2, 2})
	d.Levels = [][]string{{"a", "b", "c"}, {"x", "y", "z"}}
	rel, err := SemanticRecode{}.Protect(context.Background(), d, resolve(t, SemanticRecode{}, map[string]string{"k_target": "2"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := 0; i < d.N; i++ {
		got = append(got, rel.Masked.Label(i, 0)+rel.Masked.Label(i, 1))
	}
	want := []string{"ax", "ax", "ax", "ay", "ay", "ay", "ax"}
	if !slices.Equal(got, want) || rel.Info["iterations"].(int) != 2 || rel.Info["recoded"].(int) != 2 {
		t.Errorf("got %v (info %v), want %v after 2 iterations", got, rel.Info, want)
	}
}

// TestPRAMStopsAtDeadline: the invariant matrix of a column with many categories takes O(L³)
// time; pram checks its context while building it, so a run abandoned at its time limit stops
// instead of computing on (issue 25).
func TestPRAMStopsAtDeadline(t *testing.T) {
	d := randomCat(rand.New(rand.NewPCG(1, 2)), 3000, 1, MaxPRAMLevels)
	p := resolve(t, PRAM{}, map[string]string{"pd": "0.6", "alpha": "0.7"})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := PRAM{}.Protect(ctx, d, p, rand.New(rand.NewPCG(3, 4)))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline's", err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("pram returned %s after its 50 ms deadline", el)
	}
}
