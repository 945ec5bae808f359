package microagg_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/microagg"
)

// randomData returns an n×d table of coarse normal values with about n/5 duplicated rows and no
// constant column.
func randomData(rng *rand.Rand, n, d int) *datasets.Dataset {
	for {
		x := make([]float64, n*d)
		for i := range x {
			x[i] = math.Round(rng.NormFloat64()*4) / 4
		}
		for dup := 0; dup < n/5; dup++ {
			a, b := rng.IntN(n), rng.IntN(n)
			copy(x[a*d:(a+1)*d], x[b*d:(b+1)*d])
		}
		names := make([]string, d)
		for j := range names {
			names[j] = fmt.Sprint("x", j)
		}
		ds := datasets.New("random", names, n, d, x)
		if _, _, err := datasets.ZScore(ds); err == nil {
			return ds
		}
	}
}

// propMethods lists every partitioning method of this package with the parameters the
// property tests use.
var propMethods = []struct {
	name   string
	params map[string]string
}{
	{"simple", nil},
	{"single", nil},
	{"pca", nil},
	{"pppca", nil},
	{"mhm", nil},
	{"mhm", map[string]string{"cost": "multivariate"}},
	{"vmdav", nil},
	{"vmdav", map[string]string{"gamma": "1.1", "centroid": "global"}},
	{"cbfs", nil},
	{"cbfs", map[string]string{"centroid": "remaining"}},
	{"gsms", nil},
	{"fdm", nil},
	{"rmdm", map[string]string{"mcd_starts": "130"}},
	{"clustpppca", map[string]string{"nc_range": "1..3"}},
}

// TestProperties checks TV-6 for every partitioning method: group sizes in [k, 2k−1],
// canonical labels, the same result with 1 and 3 threads, and two-pass and one-pass SSE in
// z-space agreeing to 1e-9 relative, on random data with duplicated rows and n ∈ [k, 500].
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	trials := 12
	if testing.Short() {
		trials = 3
	}
	for trial := 0; trial < trials; trial++ {
		k := 2 + rng.IntN(5)
		n := 2*k + rng.IntN(500-2*k+1)
		if trial == 0 {
			n = 2 * k // the smallest input a method accepts (issue 2: fewer than 2k rows is an error)
		}
		d := 1 + rng.IntN(5)
		ds := randomData(rng, n, d)
		z, _, _ := datasets.ZScore(ds)
		for _, pm := range propMethods {
			t.Run(fmt.Sprintf("trial=%d/n=%d/k=%d/d=%d/%s%v", trial, n, k, d, pm.name, pm.params), func(t *testing.T) {
				m, err := methods.Lookup(pm.name)
				if err != nil {
					t.Fatal(err)
				}
				raw := map[string]string{"k": fmt.Sprint(k)}
				for key, v := range pm.params {
					raw[key] = v
				}
				p, err := m.Info().Resolve(raw)
				if err != nil {
					t.Fatal(err)
				}
				var labels [2][]int32
				for w, threads := range []int{1, 3} {
					ctx := methods.WithThreads(context.Background(), threads)
					rel, err := m.Protect(ctx, ds, p, rand.New(rand.NewPCG(uint64(trial), 1)))
					if err != nil {
						t.Fatal(err)
					}
					labels[w] = rel.Labels
				}
				assertGroups(t, labels[0], n, k)
				if !slices.Equal(labels[0], labels[1]) {
					t.Fatalf("labels differ between 1 and 3 threads")
				}
				two, one := sseTwoPass(z, d, labels[0]), sseOnePass(z, d, labels[0])
				if math.Abs(two-one) > 1e-9*max(math.Abs(two), 1) {
					t.Errorf("SSE two-pass %.15g, one-pass %.15g", two, one)
				}
			})
		}
	}
}

func sseTwoPass(z []float64, d int, labels []int32) float64 {
	G := len(microagg.GroupSizes(labels))
	c := make([]float64, G*d)
	cnt := make([]float64, G)
	for i, l := range labels {
		cnt[l]++
		for j := 0; j < d; j++ {
			c[int(l)*d+j] += z[i*d+j]
		}
	}
	for g := range cnt {
		for j := 0; j < d; j++ {
			c[g*d+j] /= cnt[g]
		}
	}
	var s float64
	for i, l := range labels {
		for j := 0; j < d; j++ {
			v := z[i*d+j] - c[int(l)*d+j]
			s += v * v
		}
	}
	return s
}

// sseOnePass is Σ_g (Σ‖z_i‖² − ‖S_g‖²/|g|) (§1 "useful identities").
func sseOnePass(z []float64, d int, labels []int32) float64 {
	G := len(microagg.GroupSizes(labels))
	S := make([]float64, G*d)
	Q := make([]float64, G)
	cnt := make([]float64, G)
	for i, l := range labels {
		cnt[l]++
		for j := 0; j < d; j++ {
			v := z[i*d+j]
			S[int(l)*d+j] += v
			Q[l] += v * v
		}
	}
	var s float64
	for g := range Q {
		var ss float64
		for j := 0; j < d; j++ {
			ss += S[g*d+j] * S[g*d+j]
		}
		s += Q[g] - ss/cnt[g]
	}
	return s
}

// TestMHMBruteForce checks that MHM's 1-D SSE equals the optimum over every partition (not
// only the consecutive ones) with sizes in [k, 2k−1], on small univariate inputs with ties.
func TestMHMBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 60; trial++ {
		k := 1 + rng.IntN(3)
		n := k + rng.IntN(10-k+1)
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(8))
		}
		labels := microagg.MHM(x, 1, k, 0, false)
		assertGroups(t, labels, n, k)
		got := sseTwoPass(x, 1, labels)
		want := bruteForceSSE(x, k)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("trial %d x=%v k=%d: MHM SSE %v, brute force %v", trial, x, k, got, want)
		}
	}
}

// bruteForceSSE enumerates every set partition of x (restricted growth strings) with group
// sizes in [k, 2k−1] and returns the minimum 1-D SSE.
func bruteForceSSE(x []float64, k int) float64 {
	n := len(x)
	lab := make([]int32, n)
	size := make([]int, n)
	best := math.Inf(1)
	var rec func(i, groups int)
	rec = func(i, groups int) {
		if i == n {
			for g := 0; g < groups; g++ {
				if size[g] < k {
					return
				}
			}
			best = min(best, sseTwoPass(x, 1, lab))
			return
		}
		for g := 0; g <= groups && g < n; g++ {
			if size[g] == 2*k-1 {
				continue
			}
			lab[i] = int32(g)
			size[g]++
			ng := groups
			if g == groups {
				ng++
			}
			rec(i+1, ng)
			size[g]--
		}
	}
	rec(0, 0)
	return best
}

// TestGSMSNaive checks GSMS's neighbour-list formulation against the naive O(n³·d/k)
// definition of docs/microaggregation.md §3.9, label for label.
func TestGSMSNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 30; trial++ {
		k := 1 + rng.IntN(4)
		n := k + rng.IntN(150)
		d := 1 + rng.IntN(4)
		z := make([]float64, n*d)
		for i := range z {
			z[i] = math.Round(rng.NormFloat64()*3) / 3
		}
		for dup := 0; dup < n/4; dup++ {
			a, b := rng.IntN(n), rng.IntN(n)
			copy(z[a*d:(a+1)*d], z[b*d:(b+1)*d])
		}
		got, err := microagg.GSMS(context.Background(), z, n, d, k, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveGSMS(z, n, d, k); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d k=%d d=%d): labels\n%v\nwant\n%v", trial, n, k, d, got, want)
		}
	}
}

func naiveGSMS(z []float64, n, d, k int) []int32 {
	row := func(i int) []float64 { return z[i*d : (i+1)*d] }
	dist := func(a, b int) float64 {
		var s float64
		for j := 0; j < d; j++ {
			t := z[a*d+j] - z[b*d+j]
			s += float64(t * t)
		}
		return s
	}
	sq := func(i int) float64 {
		var s float64
		for _, v := range row(i) {
			s += float64(v * v)
		}
		return s
	}
	R := make([]int, n)
	for i := range R {
		R[i] = i
	}
	labels := make([]int32, n)
	var groups [][]int
	for iter := 0; iter < n/k; iter++ {
		SR := make([]float64, d)
		var QR float64
		for _, i := range R {
			QR += sq(i)
			for j, v := range row(i) {
				SR[j] += v
			}
		}
		m := len(R)
		best, bestC := math.Inf(1), []int(nil)
		for _, i := range R {
			C := slices.Clone(R)
			slices.SortStableFunc(C, func(a, b int) int {
				da, db := dist(i, a), dist(i, b)
				switch {
				case da < db:
					return -1
				case da > db:
					return 1
				}
				return 0
			})
			C = C[:k]
			slices.Sort(C)
			var v float64
			if m > k {
				SC := make([]float64, d)
				var QC float64
				for _, x := range C {
					QC += sq(x)
					for j, u := range row(x) {
						SC[j] += u
					}
				}
				var ss float64
				for j := range SR {
					t := SR[j] - SC[j]
					ss += float64(t * t)
				}
				v = QR - QC - ss/float64(m-k)
			}
			if v < best {
				best, bestC = v, C
			}
		}
		for _, x := range bestC {
			labels[x] = int32(len(groups))
		}
		groups = append(groups, bestC)
		R = slices.DeleteFunc(R, func(i int) bool { return slices.Contains(bestC, i) })
	}
	cent := make([][]float64, len(groups))
	for g, members := range groups {
		cent[g] = make([]float64, d)
		for _, x := range members {
			for j, v := range row(x) {
				cent[g][j] += v
			}
		}
		for j := range cent[g] {
			cent[g][j] /= float64(len(members))
		}
	}
	for _, x := range R {
		bg, bd := 0, math.Inf(1)
		for g, c := range cent {
			var s float64
			for j, v := range row(x) {
				t := v - c[j]
				s += float64(t * t)
			}
			if s < bd {
				bg, bd = g, s
			}
		}
		labels[x] = int32(bg)
	}
	return microagg.Canonical(labels)
}
