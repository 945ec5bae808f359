package stats

import (
	"errors"
	"math"
	"slices"

	mfstats "github.com/montanaflynn/stats"
	"gonum.org/v1/gonum/stat"
)

// Thresholds holds the settings of a test decision.
type Thresholds struct {
	// Alpha is the significance level, in (0, 1), e.g. 0.05 for 5%.
	Alpha float64
}

// DefaultThresholds are the thresholds sdcbench uses unless a spec says otherwise: alpha 0.05,
// as in MAGGA study (000_cffa7d374931379d.txt L2341-2359). Copy and modify it; 0 is not a usable
// alpha, so functions taking an alpha treat 0 as DefaultThresholds.Alpha.
var DefaultThresholds = Thresholds{Alpha: 0.05}

func alphaOrDefault(a float64) float64 {
	if a == 0 {
		return DefaultThresholds.Alpha
	}
	if !(a > 0 && a < 1) {
		panic(badAlpha)
	}
	return a
}

const (
	badAlpha  = "stats: alpha outside (0, 1)"
	badLength = "stats: slice length mismatch"
	badProb   = "stats: probability outside [0, 1]"
)

// Sample is a set of observations of one quantity. Values are the finite observations sorted in
// increasing order; Missing counts the non-finite ones that were left out
// (docs/metrics.md §0.4: a non-finite value is missing for every comparison measure).
type Sample struct {
	Values  []float64
	Missing int
}

// NewSample returns the Sample of x. It copies x, so x is not modified.
func NewSample(x []float64) *Sample {
	s := &Sample{Values: make([]float64, 0, len(x))}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			s.Missing++
			continue
		}
		s.Values = append(s.Values, v)
	}
	slices.Sort(s.Values)
	return s
}

// Quantile returns the p-quantile of the sample by R's default definition (type 7, Hyndman &
// Fan 1996): with h = (n−1)p, the value x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]) of the sorted values,
// as quantile(x, p) in R. It returns NaN for an empty sample and panics if p is outside [0, 1].
func (s *Sample) Quantile(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(badProb)
	}
	n := len(s.Values)
	switch {
	case n == 0:
		return math.NaN()
	case p == 0:
		return s.Values[0]
	}
	// montanaflynn/stats.Percentile is type 7; it only rejects p = 0 and empty input.
	q, err := mfstats.Percentile(s.Values, 100*p)
	if err != nil {
		return math.NaN()
	}
	return q
}

// Median returns the sample median, Quantile(0.5).
func (s *Sample) Median() float64 { return s.Quantile(0.5) }

// Summary describes a sample: count, mean, standard deviation (n−1), and the five numbers
// min, Q1, median, Q3, max with R's type-7 quantiles.
type Summary struct {
	N       int // finite observations
	Missing int // non-finite observations left out
	Mean    float64
	SD      float64 // sample standard deviation (n−1); NaN when N < 2
	Min     float64
	Q1      float64
	Median  float64
	Q3      float64
	Max     float64
	// Warnings explains degenerate summaries (no data, a single value).
	Warnings []error
}

// ErrNoData is a Summary warning: the sample has no finite value, so every field is NaN.
var ErrNoData = errors.New("stats: no finite observations")

// ErrOneValue is a Summary warning: with a single value the standard deviation is NaN.
var ErrOneValue = errors.New("stats: one observation, no standard deviation")

// Summary returns the summary of s. The mean and SD are gonum's stat.Mean and stat.StdDev
// (two-pass, n−1), the quartiles are R's type 7 (mean(x), sd(x), quantile(x) in R).
func (s *Sample) Summary() Summary {
	nan := math.NaN()
	sum := Summary{N: len(s.Values), Missing: s.Missing}
	switch len(s.Values) {
	case 0:
		sum.Mean, sum.SD, sum.Min, sum.Q1, sum.Median, sum.Q3, sum.Max = nan, nan, nan, nan, nan, nan, nan
		sum.Warnings = append(sum.Warnings, ErrNoData)
		return sum
	case 1:
		sum.SD = nan
		sum.Warnings = append(sum.Warnings, ErrOneValue)
	default:
		sum.SD = stat.StdDev(s.Values, nil)
	}
	sum.Mean = stat.Mean(s.Values, nil)
	sum.Min = s.Values[0]
	sum.Max = s.Values[len(s.Values)-1]
	sum.Q1 = s.Quantile(0.25)
	sum.Median = s.Quantile(0.5)
	sum.Q3 = s.Quantile(0.75)
	return sum
}

// Rank returns the ranks of x in increasing order, 1-based, ties sharing their average rank, as
// rank(x) in R. NaN values are not allowed (their rank is undefined) and make Rank panic. If dst
// is nil a new slice is allocated; otherwise it must have the length of x. x is not modified.
func Rank(dst, x []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(x))
	} else if len(dst) != len(x) {
		panic(badLength)
	}
	idx := make([]int, len(x))
	for i := range idx {
		if math.IsNaN(x[i]) {
			panic("stats: NaN in Rank")
		}
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // average of ranks i+1..j
		for _, k := range idx[i:j] {
			dst[k] = r
		}
		i = j
	}
	return dst
}

// tieSizes returns the sizes of the groups of equal values in the ranks r (table(r) in R).
func tieSizes(r []float64) []float64 {
	s := slices.Clone(r)
	slices.Sort(s)
	var t []float64
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		t = append(t, float64(j-i))
		i = j
	}
	return t
}

// Spearman returns Spearman's rank correlation of x and y: Pearson's correlation of their
// average ranks (Rank), as R's cor(x, y, method = "spearman"). It is NaN when x and y hold fewer
// than 2 values, differ in length, contain NaN, or one of them is constant.
func Spearman(x, y []float64) float64 {
	if len(x) < 2 || len(x) != len(y) || slices.ContainsFunc(x, math.IsNaN) || slices.ContainsFunc(y, math.IsNaN) {
		return math.NaN()
	}
	return stat.Correlation(Rank(nil, x), Rank(nil, y), nil)
}
