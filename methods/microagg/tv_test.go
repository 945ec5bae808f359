package microagg_test

import (
	"math"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// assertGroups fails unless labels are n canonical labels whose groups have k..2k−1 records.
func assertGroups(t testing.TB, labels []int32, n, k int) {
	t.Helper()
	if len(labels) != n {
		t.Fatalf("%d labels for %d records", len(labels), n)
	}
	next := int32(0)
	for i, l := range labels {
		if l < 0 || l > next {
			t.Fatalf("labels not canonical at record %d: %v", i, labels)
		}
		if l == next {
			next++
		}
	}
	for g, s := range microagg.GroupSizes(labels) {
		if s < k || s > 2*k-1 {
			t.Fatalf("group %d has %d records, want %d..%d", g, s, k, 2*k-1)
		}
	}
}

// tv1 is MAGGA study Table 2.1 (docs/microaggregation.md §5 TV-1): idade, renda.
func tv1() *datasets.Dataset {
	return datasets.New("tv1", []string{"idade", "renda"}, 9, 2, []float64{
		24, 21000, 31, 19500, 32, 22000, 57, 43480, 49, 39220, 43, 32285, 39, 40500, 20, 20000, 51, 43050})
}

func tv1Z(t testing.TB) []float64 {
	z, _, err := datasets.ZScore(tv1())
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestTV1Methods checks the TV-1 table: labels and sse_sst (4 decimals) at k = 3.
func TestTV1Methods(t *testing.T) {
	a := []int32{0, 0, 1, 2, 2, 1, 1, 0, 2}
	b := []int32{0, 0, 0, 1, 1, 1, 1, 0, 1}
	c := []int32{0, 0, 1, 2, 1, 1, 2, 0, 2}
	for i, tc := range []struct {
		method string
		params map[string]string
		labels []int32
		sseSST float64 // NaN: not given
	}{
		{"cbfs", nil, a, 16.4856},
		{"gsms", nil, a, 16.4856},
		{"single", map[string]string{"var": "0"}, a, 16.4856},
		{"mhm", map[string]string{"var": "0"}, a, 16.4856},
		{"pca", nil, a, 16.4856},
		{"pppca", nil, a, 16.4856},
		{"vmdav", map[string]string{"gamma": "0.2"}, a, 16.4856},
		{"vmdav", map[string]string{"gamma": "1"}, b, 16.2985},
		{"vmdav", map[string]string{"gamma": "1.1"}, b, 16.2985},
		{"mhm", map[string]string{"var": "1"}, b, 16.2985},
		{"fdm", nil, b, 16.2985},
		{"single", map[string]string{"var": "1"}, c, math.NaN()},
	} {
		raw := map[string]string{"k": "3"}
		for key, v := range tc.params {
			raw[key] = v
		}
		rel, got := protect(t, tc.method, tv1(), raw, nil)
		if !slices.Equal(rel.Labels, tc.labels) {
			t.Errorf("case %d %s%v: labels %v, want %v", i, tc.method, tc.params, rel.Labels, tc.labels)
		}
		if !math.IsNaN(tc.sseSST) && math.Round(got*1e4)/1e4 != tc.sseSST {
			t.Errorf("case %d %s%v: sse_sst %.6f, want %.4f", i, tc.method, tc.params, got, tc.sseSST)
		}
	}
}

// TestTV1Components checks TV-1's PCA direction, PP1 direction and scores, and the
// farthest-insertion tours.
func TestTV1Components(t *testing.T) {
	z := tv1Z(t)
	v, deg := microagg.PC1(z, 9, 2)
	if !near(v, []float64{0.7071068, 0.7071068}, 1e-7) || deg {
		t.Errorf("PC1 = %v (degenerate %v), want (0.7071068, 0.7071068)", v, deg)
	}
	v, m := microagg.PP1(z, 9, 2, 1)
	if !near(m, []float64{0.043917, 0.100156}, 1e-6) {
		t.Errorf("PP1 median = %v, want (0.043917, 0.100156)", m)
	}
	if !near(v, []float64{0.681653, 0.731676}, 1e-6) {
		t.Errorf("PP1 v = %v, want (0.681653, 0.731676)", v)
	}
	want := []float64{-1.58926, -1.315875, -1.088976, 1.744685, 1.01879, 0.215539, 0.568527, -1.874004, 1.391618}
	if s := microagg.Project(nil, z, m, v); !near(s, want, 1e-6) {
		t.Errorf("PP1 scores = %v, want %v", s, want)
	}

	tour, edges := microagg.FarthestInsertion(z, 9, 2, 0)
	if !slices.Equal(tour, []int{0, 1, 2, 5, 4, 3, 8, 6, 7}) {
		t.Errorf("tour from 0 = %v", tour)
	}
	wantE := []float64{0.571250, 0.249327, 1.304792, 0.809464, 0.749858, 0.476041, 0.978784, 2.452670, 0.330044}
	if !near(edges, wantE, 1e-6) {
		t.Errorf("edges from 0 = %v, want %v", edges, wantE)
	}
	var sum float64
	for _, e := range edges {
		sum += e
	}
	if math.Abs(sum-7.922230) > 1e-5 {
		t.Errorf("tour length %.6f, want 7.922230", sum)
	}
	if tour, _ := microagg.FarthestInsertion(z, 9, 2, 3); !slices.Equal(tour, []int{3, 4, 5, 2, 1, 0, 7, 6, 8}) {
		t.Errorf("fdm tour from 3 = %v, want 3 4 5 2 1 0 7 6 8", tour)
	}
}

// TestTV1OneDims checks TV-1's individual ranking: raw X' and sse_sst 14.9470.
func TestTV1OneDims(t *testing.T) {
	rel, got := protect(t, "onedims", tv1(), map[string]string{"k": "3"}, nil)
	if rel.Labels != nil {
		t.Errorf("onedims returned labels")
	}
	age := []float64{25, 25, 38, 52.3333, 52.3333, 38, 38, 25, 52.3333}
	inc := []float64{20166.67, 20166.67, 31168.33, 42343.33, 31168.33, 31168.33, 42343.33, 20166.67, 42343.33}
	if !near(rel.Masked.Col(0), age, 1e-4) || !near(rel.Masked.Col(1), inc, 1e-2) {
		t.Errorf("X' = %v / %v", rel.Masked.Col(0), rel.Masked.Col(1))
	}
	if math.Round(got*1e4)/1e4 != 14.9470 {
		t.Errorf("sse_sst = %.6f, want 14.9470", got)
	}
}

// TestTV2MHM checks TV-2 (1-D, standardize none) and TV-3 (SegmentDP's larger-predecessor tie
// rule).
func TestTV2MHM(t *testing.T) {
	for i, tc := range []struct {
		x      []float64
		labels []int32
		sse    float64
	}{
		{[]float64{1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 40}, []int32{0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, 279.75},
		{[]float64{5, 1, 9, 2, 8, 3, 7}, []int32{0, 0, 1, 0, 1, 0, 1}, 10.75},
	} {
		if got := microagg.MHM(tc.x, 1, 3, 0, false); !slices.Equal(got, tc.labels) {
			t.Errorf("case %d: labels %v, want %v", i, got, tc.labels)
		}
		order := make([]int, len(tc.x))
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int { return int(tc.x[a] - tc.x[b]) })
		if _, sse := microagg.SegmentDP(tc.x, 1, order, nil, 3); sse != tc.sse {
			t.Errorf("case %d: SSE %v, want %v", i, sse, tc.sse)
		}
		// the same through the registry, standardize none
		d := datasets.New("tv", []string{"x"}, len(tc.x), 1, tc.x)
		rel, _ := protect(t, "mhm", d, map[string]string{"k": "3", "standardize": "none"}, nil)
		if !slices.Equal(rel.Labels, tc.labels) {
			t.Errorf("case %d: mhm labels %v, want %v", i, rel.Labels, tc.labels)
		}
	}
}

// TestTV4FixedGroups checks TV-4.
func TestTV4FixedGroups(t *testing.T) {
	for _, tc := range []struct {
		n     int
		sizes []int
	}{{11, []int{3, 3, 5}}, {5, []int{5}}, {12, []int{3, 3, 3, 3}}, {3, []int{3}}} {
		order := make([]int, tc.n)
		for i := range order {
			order[i] = tc.n - 1 - i // reversed: labels must still be canonical
		}
		labels := microagg.FixedGroups(order, 3)
		sizes := microagg.GroupSizes(labels)
		slices.Reverse(sizes) // groups are numbered from record 0, the end of the order
		if !slices.Equal(sizes, tc.sizes) {
			t.Errorf("n=%d: sizes %v, want %v", tc.n, sizes, tc.sizes)
		}
	}
}

// TestTV5GroupCounts checks TV-5: ⌈n/(2k−1)⌉ ≤ G ≤ ⌊n/k⌋ for the variable-size methods on
// Tarragona (167..278 at k=3).
func TestTV5GroupCounts(t *testing.T) {
	d := load(t, "tarragona")
	for _, m := range []string{"vmdav", "gsms", "fdm", "mhm", "cbfs"} {
		rel, _ := protect(t, m, d, map[string]string{"k": "3"}, nil)
		if G := len(microagg.GroupSizes(rel.Labels)); G < 167 || G > 278 {
			t.Errorf("%s: %d groups, want 167..278", m, G)
		}
	}
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4}
	small := datasets.New("n12", []string{"a", "b"}, 12, 2, x)
	for _, m := range []string{"vmdav", "gsms", "fdm", "mhm", "cbfs"} {
		rel, _ := protect(t, m, small, map[string]string{"k": "3"}, nil)
		if G := len(microagg.GroupSizes(rel.Labels)); G < 3 || G > 4 {
			t.Errorf("%s on n=12: %d groups, want 3..4", m, G)
		}
	}
}
