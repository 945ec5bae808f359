package metrics

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/combin"

	"github.com/sdcbench/sdcbench/datasets"
)

// The k-marginal score of NIST's SDNist (docs/synthetic.md): for a set of k columns, the
// total variation distance between the original's and the release's k-way marginal
// distributions, averaged over column sets and mapped to 0 (disjoint) … 1000 (identical).
func init() {
	Register(Func(Info{ID: "kmarginal", Label: "k-marginal score", Unit: "raw", Better: Higher,
		Components:  []string{"k3", "worst2"},
		Description: "SDNist k-marginal score 1000·(1 − mean TVD) over all 2-way marginals (k3: over all 3-way ones); numeric columns in quantile bins"},
		KMarginal))
}

// KMarginal returns the SDNist k-marginal score for k = 2 over every pair of the compared
// columns, with Aux "k3" the score over every triple and "worst2" the score of the worst
// pair. For a set S of k columns the distance is the total variation distance
//
//	TVD_S = ½ Σ_cells |p_S(cell) − p'_S(cell)|
//
// between the proportions of the original's and the release's records in each cell of S's
// cross-classification, and the score is 1000·(1 − mean_S TVD_S), SDNist's (2 − mean L1)·500.
// SDNist averages over 50 to 100 column sets drawn at random; this takes every set of k
// distinct columns, which is what that draw estimates, so that the score needs no seed.
// Columns are discretised first (kmarginalBins); a missing value is a category of its own.
// NaN when fewer than k columns are compared.
func KMarginal(in *Input) Result {
	a, b := in.Orig, in.Masked
	bins := in.Opt.Synth.kmarginalBins()
	ca, cb := make([][]int, a.P), make([][]int, a.P)
	for j := 0; j < a.P; j++ {
		ca[j], cb[j] = kmarginalBins(a, b, j, bins)
	}
	s2, worst := meanMarginalScore(ca, cb, 2, in.Err)
	s3, _ := meanMarginalScore(ca, cb, 3, in.Err)
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	return Result{Value: s2, Aux: map[string]float64{"k3": s3, "worst2": worst}}
}

// kmarginalBins returns column j of a and b as category indices: a categorical column's
// codes; a numeric column with at most bins distinct observed values in a, the rank of
// the value among a's values (a release value a never takes is a category of its own);
// any other numeric column cut at a's quantiles 1/bins, …, (bins−1)/bins (R type 7), a
// value v falling in bin #{cut points < v}. A missing value is category −1.
func kmarginalBins(a, b *datasets.Dataset, j, bins int) (ca, cb []int) {
	if a.IsCategorical(j) {
		return codesOf(a, j), codesOf(b, j)
	}
	var obs []float64
	for i := 0; i < a.N; i++ {
		if v := a.At(i, j); v == v {
			obs = append(obs, v)
		}
	}
	slices.Sort(obs)
	distinct := slices.Compact(slices.Clone(obs))
	var bin func(v float64) int
	if len(distinct) <= bins {
		other := map[float64]int{} // release values a never takes: categories of their own
		bin = func(v float64) int {
			if v != v {
				return -1
			}
			if k, found := slices.BinarySearch(distinct, v); found {
				return k
			}
			k, ok := other[v]
			if !ok {
				k = len(distinct) + len(other)
				other[v] = k
			}
			return k
		}
	} else {
		cuts := make([]float64, bins-1)
		for q := range cuts {
			cuts[q] = Quantile7(obs, float64(q+1)/float64(bins))
		}
		bin = func(v float64) int {
			if v != v {
				return -1
			}
			k, _ := slices.BinarySearch(cuts, v) // the number of cut points < v
			return k
		}
	}
	ca, cb = make([]int, a.N), make([]int, b.N)
	for i := range ca {
		ca[i] = bin(a.At(i, j))
	}
	for i := range cb {
		cb[i] = bin(b.At(i, j))
	}
	return ca, cb
}

func codesOf(d *datasets.Dataset, j int) []int {
	c := make([]int, d.N)
	for i := range c {
		c[i] = d.Code(i, j)
	}
	return c
}

// meanMarginalScore returns 1000·(1 − mean TVD) over every set of k columns, and the
// score of the worst set; NaN when there are fewer than k columns or when stop returns an
// error (checked once per set).
func meanMarginalScore(ca, cb [][]int, k int, stop func() error) (score, worst float64) {
	p := len(ca)
	if p < k {
		return math.NaN(), math.NaN()
	}
	var sum float64
	maxTVD := 0.0
	sets := 0
	idx := make([]int, k)
	for g := combin.NewCombinationGenerator(p, k); g.Next(); { // lexicographic order
		if stop() != nil {
			return math.NaN(), math.NaN()
		}
		t := marginalTVD(ca, cb, g.Combination(idx))
		sum += t
		maxTVD = max(maxTVD, t)
		sets++
	}
	return 1000 * (1 - sum/float64(sets)), 1000 * (1 - maxTVD)
}

// marginalTVD returns ½ Σ |p − p'| over the cells of the columns idx.
func marginalTVD(ca, cb [][]int, idx []int) float64 {
	key := func(cols [][]int, i int) string {
		var buf []byte
		for _, j := range idx {
			buf = strconv.AppendInt(buf, int64(cols[j][i]), 36)
			buf = append(buf, ',')
		}
		return string(buf)
	}
	na, nb := len(ca[idx[0]]), len(cb[idx[0]])
	counts := map[string][2]int{}
	for i := 0; i < na; i++ {
		k := key(ca, i)
		c := counts[k]
		c[0]++
		counts[k] = c
	}
	for i := 0; i < nb; i++ {
		k := key(cb, i)
		c := counts[k]
		c[1]++
		counts[k] = c
	}
	// Σ |c/na − c'/nb| = Σ |c·nb − c'·na| / (na·nb): an exact integer sum, so that the
	// map's order does not change the result
	var l1 int64
	for _, c := range counts {
		d := int64(c[0])*int64(nb) - int64(c[1])*int64(na)
		l1 += max(d, -d)
	}
	return float64(l1) / (2 * float64(na) * float64(nb))
}
