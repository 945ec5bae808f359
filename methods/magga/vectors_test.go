package magga

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// t21 is MAGGA study Table 2.1 (L835-857): age and income of 9 people (MA §5 TV-1).
func t21() *datasets.Dataset {
	age := []float64{24, 31, 32, 57, 49, 43, 39, 20, 51}
	inc := []float64{21000, 19500, 22000, 43480, 39220, 32285, 40500, 20000, 43050}
	data := make([]float64, 0, 18)
	for i := range age {
		data = append(data, age[i], inc[i])
	}
	return datasets.New("t21", []string{"idade", "renda"}, 9, 2, data)
}

func i32(xs ...int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

func TestDecoders(t *testing.T) {
	// docs/magga.md vectors 1-4.
	for i, tc := range []struct {
		dec  func([]int32, []float64, int, *decodeScratch)
		u    []float64
		k    int
		want []int32
	}{
		{Decode1, []float64{0.44, 0.14, 0.81, 0.75, 0.51, 0.79, 0.66, 0.26, 0.16, 0.06, 0.21, 0.43}, 3,
			i32(3, 0, 2, 3, 2, 3, 0, 1, 2, 1, 1, 0)},
		{Decode1, []float64{0.30, 0.70, 0.10, 0.90, 0.50, 0.20, 0.80, 0.40, 0.60, 0.05, 0.95, 0.35, 0.65, 0.15}, 3,
			i32(2, 0, 2, 1, 0, 2, 1, 0, 1, 2, 0, 1, 0, 2)},
		{Decode2, []float64{0.25, 0.75, 0.60, 0.10, 0.95, 0.30, 0.55, 0.05, 0.80, 0.40, 0.70, 0.20}, 3,
			i32(1, 0, 2, 0, 1, 2, 1, 0, 2, 0, 2, 1)},
		{Decode2, []float64{0.9, 0.3, 0.7, 0.1, 0.5, 0.2, 0.8, 0.6, 0.4, 0.05, 0.95}, 5,
			i32(1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1)},
	} {
		var s decodeScratch
		got := make([]int32, len(tc.u))
		tc.dec(got, tc.u, tc.k, &s)
		if !slices.Equal(got, tc.want) {
			t.Errorf("case %d: labels %v, want %v", i, got, tc.want)
		}
		if _, err := Feasible(got, tc.k); err != nil {
			t.Errorf("case %d: infeasible: %v", i, err)
		}
	}
	// vector 1's permutation
	var s decodeScratch
	pi := s.argsortKeys([]float64{0.44, 0.14, 0.81, 0.75, 0.51, 0.79, 0.66, 0.26, 0.16, 0.06, 0.21, 0.43})
	if want := i32(9, 1, 8, 10, 7, 11, 0, 4, 6, 3, 5, 2); !slices.Equal(pi, want) {
		t.Errorf("π = %v, want %v", pi, want)
	}
}

func TestTSPSegmentation(t *testing.T) {
	// §10 vector 5: farthest-insertion tour of T21 from record 0 and its cut at t = 7.
	pr := NewProblem(t21(), 3, true)
	order, edges := microagg.FarthestInsertion(pr.Z, 9, 2, 0)
	if want := []int{0, 1, 2, 5, 4, 3, 8, 6, 7}; !slices.Equal(order, want) {
		t.Fatalf("tour %v, want %v", order, want)
	}
	tr := NewTour(order, edges)
	wantP := []float64{0.072107, 0.031472, 0.164700, 0.102176, 0.094652, 0.060089, 0.123549, 0.309593, 0.041660}
	for i, w := range wantP {
		if p := edges[i] / tr.Cum[8]; math.Abs(p-w) > 1e-6 {
			t.Errorf("P(cut %d) = %.6f, want %.6f", i, p, w)
		}
	}
	for i, tc := range []struct {
		sizes []int
		want  []int32
	}{
		{[]int{3, 3, 3}, i32(0, 0, 1, 2, 1, 1, 2, 0, 2)},
		{[]int{4, 5}, i32(0, 0, 0, 1, 1, 1, 1, 0, 1)},
		{[]int{5, 4}, i32(0, 0, 0, 1, 1, 0, 1, 0, 1)},
	} {
		got := make([]int32, 9)
		PathLabels(got, order, 7, tc.sizes)
		if !slices.Equal(got, tc.want) {
			t.Errorf("case %d: labels %v, want %v", i, got, tc.want)
		}
	}
	// §10 vector 6: the size lists for n = 9, k = 3 are (3,3,3), (4,5), (5,4), each 1/3.
	rng := rand.New(rand.NewPCG(1, 1))
	count := map[string]int{}
	const draws = 30000
	for range draws {
		s := Sizes(nil, 9, 3, rng)
		count[fmtInts(s)]++
	}
	if len(count) != 3 {
		t.Fatalf("size lists %v, want exactly 3", count)
	}
	for _, key := range []string{"3,3,3", "4,5", "5,4"} {
		if f := float64(count[key]) / draws; math.Abs(f-1.0/3) > 0.015 {
			t.Errorf("P(%s) = %.4f, want 1/3", key, f)
		}
	}
	// the cut probability is proportional to the edge length
	cuts := make([]int, 9)
	for range draws {
		cuts[tr.Cut(rng)]++
	}
	for i, w := range wantP {
		if f := float64(cuts[i]) / draws; math.Abs(f-w) > 0.015 {
			t.Errorf("cut %d frequency %.4f, want %.4f", i, f, w)
		}
	}
}

func fmtInts(s []int) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ","
		}
		out += string(rune('0' + v))
	}
	return out
}

func TestCrossoverRepairVectors(t *testing.T) {
	pr := NewProblem(t21(), 3, true)
	// §10 vector 7: the child of the given coins, then its repair.
	a, b := i32(0, 0, 1, 2, 2, 1, 1, 0, 2), i32(0, 0, 0, 1, 1, 1, 1, 0, 1)
	coins := []float64{0.95, 0.10, 0.50, 0.92, 0.30, 0.99, 0.20, 0.70, 0.91}
	child := make([]int32, 9)
	for j, c := range coins {
		child[j] = b[j]
		if c <= 0.9 {
			child[j] = a[j]
		}
	}
	if want := i32(0, 0, 1, 1, 2, 1, 1, 0, 1); !slices.Equal(child, want) {
		t.Fatalf("child %v, want %v", child, want)
	}
	for i, tc := range []struct {
		in   []int32
		pick Pick
		want []int32
	}{
		{child, PickNearest, a},
		{child, PickLowestIndex, i32(0, 0, 2, 2, 2, 1, 1, 0, 1)},
		// vector 8: empty receptor and Gmin
		{i32(0, 0, 0, 0, 0, 0, 0, 0, 0), PickNearest, i32(0, 0, 0, 1, 1, 0, 1, 0, 1)},
		// vector 9
		{i32(0, 1, 2, 2, 2, 1, 1, 2, 2), PickNearest, i32(0, 1, 0, 2, 2, 1, 1, 0, 2)},
		{i32(0, 1, 2, 2, 2, 1, 1, 2, 2), PickLowestIndex, i32(0, 1, 0, 0, 2, 1, 1, 2, 2)},
	} {
		got := slices.Clone(tc.in)
		var s repairScratch
		G := Repair(got, pr.Z, pr.D, 3, tc.pick, &s)
		if !slices.Equal(got, tc.want) {
			t.Errorf("case %d: repaired %v, want %v", i, got, tc.want)
		}
		if g, err := Feasible(got, 3); err != nil || g != G {
			t.Errorf("case %d: G = %d (Repair %d), %v", i, g, G, err)
		}
	}
	// vector 10: the seed's example, 12 records, lowest_index, no data needed.
	z := make([]float64, 12)
	got := i32(2, 0, 2, 2, 2, 2, 0, 1, 1, 2, 1, 2)
	var s repairScratch
	Repair(got, z, 1, 3, PickLowestIndex, &s)
	if want := i32(0, 0, 0, 2, 2, 2, 0, 1, 1, 2, 1, 2); !slices.Equal(got, want) {
		t.Errorf("seed example: %v, want %v", got, want)
	}
}

func TestMetricsT21(t *testing.T) {
	// §10 vector 11 (metrics.md §7.1).
	pr := NewProblem(t21(), 3, true)
	all := [numMetrics]bool{true, true, true, true, true}
	s := pr.NewScratch()
	v := pr.Evaluate(i32(0, 0, 1, 2, 2, 1, 1, 0, 2), 3, &all, s)
	for m, want := range map[Metric]float64{SSESST: 16.4855756738, DLD: 100.0 / 3, IL1s: 0.201049021023,
		IL3: 8.8010, IL3Code: 8.7403} {
		tol := 1e-9 * want
		if m == IL3 || m == IL3Code {
			tol = 5e-5
		}
		if math.Abs(v[m]-want) > tol {
			t.Errorf("%s = %.10g, want %.10g", m, v[m], want)
		}
	}
	for name, want := range map[string]float64{"fobj2": 20.6975150887, "fobj3": 24.9094545036, "fobj4_cal": 29.1213939184} {
		o, err := ParseObjective(name)
		if err != nil {
			t.Fatal(err)
		}
		if f := o.Value(&v); math.Abs(f-want) > 1e-9 {
			t.Errorf("%s = %.10g, want %.10g", name, f, want)
		}
	}
	v = pr.Evaluate(i32(0, 0, 0, 1, 1, 1, 1, 0, 1), 2, &all, s)
	if math.Abs(v[SSESST]-16.2985) > 5e-5 || math.Abs(v[DLD]-200.0/9) > 1e-9 {
		t.Errorf("second partition: sse_sst %.6f dld %.6f, want 16.2985, 22.2222", v[SSESST], v[DLD])
	}
	// vector 12: both labelings hit the same cache key.
	if canonicalKey(i32(2, 2, 0, 1, 1, 0, 0, 2, 1), 3, s) != canonicalKey(i32(0, 0, 1, 2, 2, 1, 1, 0, 2), 3, s) {
		t.Error("canonical keys differ")
	}
}

func TestParseObjective(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Values
		bad  bool
	}{
		{in: "fobj1", want: Values{SSESST: 1}},
		{in: "fobj3", want: Values{SSESST: 0.5, DLD: 0.5}},
		{in: "FOBJ4_cal", want: Values{SSESST: 0.25, DLD: 0.75}},
		{in: "fobj4", want: Values{IL1s: 1}},
		{in: "fobj5", want: Values{IL3: 1}},
		{in: " 0.3*sse_sst + dld*0.7 ", want: Values{SSESST: 0.3, DLD: 0.7}},
		{in: "il3_code", want: Values{IL3Code: 1}},
		{in: "", bad: true},
		{in: "fobj6", bad: true},
		{in: "0.5*sse_sst+0.5*dlr", bad: true},
		{in: "0.5*sse_sst+0.4*dld", bad: true},
		{in: "0.5*sse_sst+", bad: true},
		{in: "0.5*sse_sst+0.5*sse_sst", bad: true},
		{in: "-0.5*sse_sst+1.5*dld", bad: true},
		{in: "0.5**sse_sst+0.5*dld", bad: true},
		{in: "half*sse_sst+0.5*dld", bad: true},
		{in: "NaN*sse_sst", bad: true},
		{in: "0.5*interval_disclosure+0.5*dld", bad: true},
	} {
		o, err := ParseObjective(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.in)
			} else if !errorsIs(err) {
				t.Errorf("%q: error %v does not wrap ErrObjective", tc.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if Values(o.W) != tc.want {
			t.Errorf("%q: weights %v, want %v", tc.in, o.W, tc.want)
		}
	}
	o, _ := ParseObjective("0.5*il1s+0.5*sse_sst")
	if len(o.Warnings) == 0 {
		t.Error("il1s with weight < 1: no warning")
	}
}

func errorsIs(err error) bool { return errors.Is(err, ErrObjective) }
