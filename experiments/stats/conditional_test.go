package stats

import (
	"math"
	"testing"
)

// bruteSignedRank enumerates every sign pattern of the non-zero differences d.
func bruteSignedRank(d []float64) float64 {
	var nz []float64
	for _, v := range d {
		if v != 0 {
			nz = append(nz, v)
		}
	}
	abs := make([]float64, len(nz))
	for i, v := range nz {
		abs[i] = math.Abs(v)
	}
	r := Rank(nil, abs)
	var v, total float64
	for i, x := range nz {
		total += r[i]
		if x > 0 {
			v += r[i]
		}
	}
	var le, ge, all float64
	for mask := 0; mask < 1<<len(nz); mask++ {
		var s float64
		for i := range nz {
			if mask>>i&1 == 1 {
				s += r[i]
			}
		}
		all++
		if s <= v+1e-9 {
			le++
		}
		if s >= v-1e-9 {
			ge++
		}
	}
	if v > total/2 {
		return math.Min(2*ge/all, 1)
	}
	return math.Min(2*le/all, 1)
}

// bruteRankSum enumerates every split of the pooled sample into groups of the sizes of x and y.
func bruteRankSum(x, y []float64) float64 {
	pooled := append(append([]float64(nil), x...), y...)
	r := Rank(nil, pooled)
	n1, n := len(x), len(pooled)
	var t, total float64
	for i, v := range r {
		total += v
		if i < n1 {
			t += v
		}
	}
	mean := float64(n1) * total / float64(n)
	var le, ge, all float64
	for mask := 0; mask < 1<<n; mask++ {
		if popcount(mask) != n1 {
			continue
		}
		var s float64
		for i := range n {
			if mask>>i&1 == 1 {
				s += r[i]
			}
		}
		all++
		if s <= t+1e-9 {
			le++
		}
		if s >= t-1e-9 {
			ge++
		}
	}
	if t > mean {
		return math.Min(2*ge/all, 1)
	}
	return math.Min(2*le/all, 1)
}

func popcount(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// TestExactTies checks the conditional exact tests against full enumeration, and the
// pseudo-replication case of four equal differences: p = 0.125, not R's approximate 0.072.
func TestExactTies(t *testing.T) {
	opt := &WilcoxonOptions{ExactTies: true}
	for i, d := range [][]float64{
		{-1, -1, -1, -1},
		{1, 2, 2, 3, -3, 0, 4},
		{0.5, 0.5, -0.5, 1, 1, 1, 2, -2, 3, 0},
		{1, 1, 1, 1, 1, 1, 1, -1, 2, 2, 2, 2},
	} {
		c := SignedRank(d, nil, opt)
		if want := bruteSignedRank(d); math.Abs(c.P-want) > 1e-12 || !c.Exact {
			t.Errorf("signed rank %d: p=%v (%s), enumeration %v", i, c.P, c.Method, want)
		}
	}
	if c := SignedRank([]float64{-1, -1, -1, -1}, nil, opt); c.P != 0.125 || len(c.Warnings) == 0 {
		t.Errorf("four tied differences: p=%v warnings %v, want 0.125 and a too-few warning", c.P, c.Warnings)
	}
	for i, xy := range [][2][]float64{
		{{1, 2, 2, 3}, {2, 3, 3, 4, 5}},
		{{1, 1, 1}, {2, 2, 2}},
		{{0.1, 0.2, 0.2, 0.2, 0.5, 0.9}, {0.2, 0.5, 0.5, 0.7, 1, 1, 1}},
	} {
		c := RankSum(xy[0], xy[1], opt)
		if want := bruteRankSum(xy[0], xy[1]); math.Abs(c.P-want) > 1e-12 || !c.Exact {
			t.Errorf("rank sum %d: p=%v (%s), enumeration %v", i, c.P, c.Method, want)
		}
	}
	// Without ties the conditional test is the ordinary exact test.
	if a, b := RankSum(x2, y2, opt).P, RankSum(x2, y2, nil).P; a != b {
		t.Errorf("no ties: %v vs %v", a, b)
	}
}
