package metrics

import "sort"

// Fast paths of prl for one compared attribute (the FCRM study's S3 and toy data): the pattern
// of a pair is 1 iff |x − y| ≤ τ, and for fixed x the values y that agree form one interval of
// the sorted released column (fl(x − y) is monotone in y), so each original record's agreeing
// count is two binary searches instead of n comparisons. Results are identical to the
// all-pairs loops (TestPRLSingleMatchesPairs).

// singleAgree returns, for each original value x_a, the number of released values y_b with
// |x_a − y_b| ≤ tau, using sorted (a sorted copy of y).
func singleAgree(x, sorted []float64, tau float64) []int64 {
	n := len(sorted)
	out := make([]int64, len(x))
	for a, v := range x {
		agree := func(y float64) bool { return pattern([]float64{v}, []float64{y}, tau) == 1 }
		lo := sort.Search(n, func(i int) bool { return sorted[i] >= v || agree(sorted[i]) })
		hi := sort.Search(n, func(i int) bool { return sorted[i] > v && !agree(sorted[i]) })
		out[a] = int64(hi - lo)
	}
	return out
}

// singleCredit returns the linkage credit of each original record for one attribute: with
// k1 agreeing released records (weight w[1]) and n − k1 others (w[0]), the intruder links to
// the records of maximal weight among those with weight ≥ tMu; credit 1/ties if the record's
// own release (pattern own[a]) is among them.
func singleCredit(k1 []int64, own []int, w []float64, tMu float64, n int) []float64 {
	credit := make([]float64, len(k1))
	for a, c1 := range k1 {
		best, ties := 0.0, int64(0)
		found := false
		for g, cnt := range [2]int64{int64(n) - c1, c1} {
			if cnt == 0 || w[g] < tMu {
				continue
			}
			switch {
			case !found || w[g] > best:
				best, ties, found = w[g], cnt, true
			case w[g] == best:
				ties += cnt
			}
		}
		if found && w[own[a]] >= tMu && w[own[a]] == best {
			credit[a] = 1 / float64(ties)
		}
	}
	return credit
}
