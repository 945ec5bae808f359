package stats

import (
	"fmt"
	"math"
)

// maxConditional bounds the sample sizes of the exact conditional tests: fewer than 50
// non-zero differences for the signed-rank test, at most 60 observations for the rank-sum test
// (the counting costs O(n²·N²)).
const maxConditional = 60

// conditionalSignedRank is the exact permutation distribution of V given the ranks r of the
// non-zero |differences| (midranks for ties): every sign pattern equally likely. It counts the
// sums of doubled ranks, which are integers.
func conditionalSignedRank(r []float64, v float64) (p, pmin float64) {
	a := make([]int, len(r))
	total := 0
	for i, x := range r {
		a[i] = int(math.Round(2 * x))
		total += a[i]
	}
	c := make([]float64, total+1)
	c[0] = 1
	top := 0
	for _, ai := range a {
		top += ai
		for s := top; s >= ai; s-- {
			c[s] += c[s-ai]
		}
	}
	all := math.Ldexp(1, len(a))
	s2 := int(math.Round(2 * v))
	return twoSided(c, s2, float64(total)/2, all), math.Min(2*c[0]/all, 1)
}

// conditionalRankSum is the exact permutation distribution of the rank sum of the first n1 of
// the pooled ranks r (midranks for ties): every split into n1 and len(r)−n1 equally likely.
func conditionalRankSum(r []float64, n1 int) (p, pmin float64) {
	a := make([]int, len(r))
	total, t2 := 0, 0
	for i, x := range r {
		a[i] = int(math.Round(2 * x))
		total += a[i]
		if i < n1 {
			t2 += a[i]
		}
	}
	// c[j][s]: subsets of size j with doubled-rank sum s.
	c := make([][]float64, n1+1)
	for j := range c {
		c[j] = make([]float64, total+1)
	}
	c[0][0] = 1
	for _, ai := range a {
		for j := n1; j >= 1; j-- {
			for s := total; s >= ai; s-- {
				if v := c[j-1][s-ai]; v != 0 {
					c[j][s] += v
				}
			}
		}
	}
	var all float64
	for _, v := range c[n1] {
		all += v
	}
	mean := float64(n1) * float64(total) / float64(len(r))
	lo := 0 // smallest reachable sum
	for lo < len(c[n1]) && c[n1][lo] == 0 {
		lo++
	}
	return twoSided(c[n1], t2, mean, all), math.Min(2*c[n1][lo]/all, 1)
}

// twoSided returns min(2·P(S ≤ s), 1) or min(2·P(S ≥ s), 1) as s is below or above the mean,
// for the counts c of an integer statistic out of all.
func twoSided(c []float64, s int, mean, all float64) float64 {
	var acc float64
	if float64(s) > mean {
		for _, v := range c[s:] {
			acc += v
		}
	} else {
		for _, v := range c[:s+1] {
			acc += v
		}
	}
	return math.Min(2*acc/all, 1)
}

// conditional fills c with an exact conditional p-value computed by f when the data have ties
// (or zeros) and the sizes allow it; it reports whether it did.
func (c *Comparison) conditional(kind string, p, pmin float64) {
	c.Method = "Wilcoxon " + kind + " exact test, conditional on ties"
	c.Exact = true
	c.P = p
	c.Z = math.NaN()
	if pmin > c.Alpha {
		c.Warnings = append(c.Warnings, fmt.Errorf("%w: smallest p=%.4g > alpha=%g", ErrTooFew, pmin, c.Alpha))
	}
}
