package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestParetoRanks(t *testing.T) {
	nan := math.NaN()
	for i, tc := range []struct {
		x, y []float64
		want []int
	}{
		{[]float64{1}, []float64{1}, []int{1}},
		// a staircase: all on the front
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, []int{1, 1, 1}},
		// a chain: each dominates the next
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, []int{1, 2, 3}},
		// identical points share a rank; a point equal in x and worse in y is dominated
		{[]float64{1, 1, 1, 2}, []float64{2, 2, 3, 1}, []int{1, 1, 2, 1}},
		// equal y, worse x is dominated
		{[]float64{1, 2}, []float64{5, 5}, []int{1, 2}},
		// missing values are not ranked
		{[]float64{1, nan, 2, 0.5}, []float64{1, 0, math.Inf(1), 3}, []int{1, 0, 0, 1}},
		// two layers: (5,5) is dominated by (4,4) only
		{[]float64{1, 4, 5, 6, 2}, []float64{6, 4, 5, 1, 7}, []int{1, 1, 2, 1, 2}},
	} {
		if got := ParetoRanks(tc.x, tc.y); !slices.Equal(got, tc.want) {
			t.Errorf("case %d: %v, want %v", i, got, tc.want)
		}
	}
}

// TestParetoRanksBrute: the rank of a point is 1 + the largest rank of the points dominating
// it, on random integer grids with many ties.
func TestParetoRanksBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for trial := range 200 {
		n := 1 + rng.IntN(25)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(rng.IntN(6)), float64(rng.IntN(6))
		}
		got := ParetoRanks(x, y)
		want := make([]int, n)
		for done := 0; done < n; {
			for i := range want {
				if want[i] != 0 {
					continue
				}
				r := 1
				ready := true
				for j := range x {
					if x[j] <= x[i] && y[j] <= y[i] && (x[j] < x[i] || y[j] < y[i]) {
						if want[j] == 0 {
							ready = false
							break
						}
						r = max(r, want[j]+1)
					}
				}
				if ready {
					want[i] = r
					done++
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: x=%v y=%v: %v, want %v", trial, x, y, got, want)
		}
	}
}

// TestParetoAnalysis: additive noise with the lowest loss but the highest risk is on the front
// (nothing beats its loss), and a configuration worse in both is not; the best-loss row of
// best.csv carries its risk.
func TestParetoAnalysis(t *testing.T) {
	runs, err := ParseRuns(stringsReader(pseudoReplicated()), "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Config{}.Resolve(runs, []string{"sse_sst", "dld"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Tradeoff, []string{"sse_sst", "dld"}) {
		t.Fatalf("tradeoff %v", p.Tradeoff)
	}
	rows, wins := Pareto(p, runs)
	if len(rows) != 12 {
		t.Fatalf("%d pareto rows, want 3 configurations × 4 blocks", len(rows))
	}
	// dld = 100 − sse_sst: every configuration trades one for the other, so all are on the front.
	for _, r := range rows {
		if !r.Front {
			t.Errorf("%v %s not on the front: %+v", r.By, r.Config, r)
		}
	}
	for _, w := range wins {
		if w.Wins != w.Instances || w.Instances != 2 { // per k: 2 datasets
			t.Errorf("pareto wins %+v", w)
		}
	}
	// Make pca dominated: same loss as rand would not; with Tradeoff = (sse_sst, sse_sst) the
	// front is the single lowest configuration.
	p.Tradeoff = []string{"sse_sst", "sse_sst"}
	rows, _ = Pareto(p, runs)
	for _, r := range rows {
		if r.Front != (r.Config == "mdav") {
			t.Errorf("one-dimensional front: %s front=%v", r.Config, r.Front)
		}
	}
}

// TestProfiles: on every block mdav is best, pca is 1 worse and rand 2.3 worse on average, so
// ρ(1) is 1 for mdav and 0 for the others, and the ratios are (base+1)/base.
func TestProfiles(t *testing.T) {
	runs, err := ParseRuns(stringsReader(pseudoReplicated()), "runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Config{}.Resolve(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Profiles(p, runs, "sse_sst") {
		if pr.Instances != 4 {
			t.Errorf("%s: %d instances", pr.Config, pr.Instances)
		}
		switch pr.Config {
		case "mdav":
			if pr.Rho1 != 1 {
				t.Errorf("mdav ρ(1) = %v", pr.Rho1)
			}
		case "pca":
			// blocks: base 3, 5, 13, 15 → ratios 4/3, 6/5, 14/13, 16/15, all within 2
			want := []float64{16.0 / 15, 14.0 / 13, 6.0 / 5, 4.0 / 3}
			for i, r := range pr.Ratios {
				if math.Abs(r-want[i]) > 1e-12 {
					t.Errorf("pca ratios %v, want %v", pr.Ratios, want)
					break
				}
			}
			if pr.Rho1 != 0 || pr.Rho2 != 1 {
				t.Errorf("pca ρ(1)=%v ρ(2)=%v", pr.Rho1, pr.Rho2)
			}
		}
	}
	if r := ratio(0, 0); r != 1 {
		t.Errorf("ratio(0, 0) = %v", r)
	}
	if r := ratio(1, 0); !math.IsInf(r, 1) {
		t.Errorf("ratio(1, 0) = %v", r)
	}
}

// TestUtilityWord checks the role a trade-off's first measure is given in REPORT.md and
// report.html: "utility" for a higher-is-better measure, "loss" otherwise.
func TestUtilityWord(t *testing.T) {
	for _, c := range []struct{ col, want string }{
		{"kmarginal", "utility"},
		{"il1s", "loss"},
		{"sse_sst", "loss"},
		{"seconds", "loss"},
		{"no_such_column", "loss"},
	} {
		if got := utilityWord(c.col); got != c.want {
			t.Errorf("utilityWord(%q) = %q, want %q", c.col, got, c.want)
		}
	}
}
