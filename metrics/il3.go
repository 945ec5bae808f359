package metrics

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/covariance"
)

// The Domingo-Ferrer–Torra five-component loss of metrics.md §2.6.
func init() {
	Register(Func(Info{ID: "il3", Unit: "%", Better: Lower,
		Description: "100·mean of 5 relative losses: values, means, covariances, variances, correlations (MAGGA study IL3; metrics.md §2.6)",
		Components:  []string{"c1", "c2", "c3", "c4", "c5"}},
		IL3))
	Register(Func(Info{ID: "il3_code", Unit: "%", Better: Lower,
		Description: "il3 with c5 = mean |r−r'| (no |r| denominator), as MAGGA study's code (metrics.md §2.6)",
		Components:  []string{"c1", "c2", "c3", "c4", "c5"}},
		IL3Code))
}

// IL3 returns il3 = 100·(c1+c2+c3+c4+c5)/5 in % (metrics.md §2.6; MAGGA study Eq. 2.9-2.14),
// with f columns, sample covariances v (n−1) and correlations r:
//
//	c1 = mean_{j,l} |x_jl − x'_jl|/|x_jl|       c2 = mean_l |x̄_l − x̄'_l|/|x̄_l|
//	c3 = mean_{h≤l} |v_hl − v'_hl|/|v_hl|       c4 = mean_l |v_ll − v'_ll|/v_ll
//	c5 = mean_{h≤l} |r_hl − r'_hl|/|r_hl|
//
// The components are fractions in Aux "c1".."c5". On raw values by default (Opt.IL3Space
// "zscore" uses X's z-scores for both tables). With Opt.IL3Zero "" or "exclude", a term whose
// denominator is 0 (or, for c5, undefined because a column of X is constant) is left out of
// its component's mean; Aux "nexcl" counts them and "nexcl_c1" the c1 ones. A component with
// no term left, a correlation of X' that is undefined where X's is defined, or a NaN input
// gives NaN. IL3Zero "literal" keeps R's x/0 = Inf, 0/0 = NaN. NaN if n < 2.
// Cost O(np²).
func IL3(in *Input) Result { return il3(in, false) }

// IL3Code returns il3_code, MAGGA study's public code: as IL3 but c5 = mean_{h≤l} |r_hl − r'_hl|
// (metrics.md §2.6).
func IL3Code(in *Input) Result { return il3(in, true) }

// il3Acc accumulates one component's mean under the zero-denominator policy.
type il3Acc struct {
	literal    bool
	sum        float64
	cnt, nexcl int
}

// add adds the term num/den. A den of 0 (or NaN, when the X-side statistic is undefined) is
// excluded unless the policy is literal.
func (a *il3Acc) add(num, den float64) {
	if !a.literal && (den == 0 || math.IsNaN(den)) {
		a.nexcl++
		return
	}
	a.sum += num / den
	a.cnt++
}

func (a *il3Acc) addPlain(v float64) { a.sum += v; a.cnt++ }

func (a *il3Acc) mean() float64 {
	if a.cnt == 0 {
		return math.NaN()
	}
	return a.sum / float64(a.cnt)
}

func il3(in *Input, code bool) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return il3(in, code) })
	}
	n, p := in.Orig.N, in.Orig.P
	ro, rm := in.Rescaled() // relative errors: the same on exactly rescaled columns
	x, xm := ro.Data, rm.Data
	if n < 2 || p == 0 || hasNaN(x, xm) {
		return nan()
	}
	if in.Opt.IL3Space == "zscore" {
		s := in.Scaling()
		x, xm = s.Apply(nil, in.Orig), s.Apply(nil, in.Masked)
	}
	lit := in.Opt.IL3Zero == "literal"
	var c [5]il3Acc
	for i := range c {
		c[i].literal = lit
	}
	for i, v := range x {
		c[0].add(math.Abs(v-xm[i]), math.Abs(v))
	}
	ma, mb := covariance.Means(x, n, p), covariance.Means(xm, n, p)
	va, vb := covariance.Matrix(x, n, p), covariance.Matrix(xm, n, p)
	ra, rb := covariance.Correlation(va, p), covariance.Correlation(vb, p)
	for l := 0; l < p; l++ {
		c[1].add(math.Abs(ma[l]-mb[l]), math.Abs(ma[l]))
		c[3].add(math.Abs(va[l*p+l]-vb[l*p+l]), va[l*p+l])
		for h := 0; h <= l; h++ {
			k := h*p + l
			c[2].add(math.Abs(va[k]-vb[k]), math.Abs(va[k]))
			d := math.Abs(ra[k] - rb[k])
			switch {
			case !code:
				c[4].add(d, math.Abs(ra[k]))
			case math.IsNaN(ra[k]) && !lit:
				c[4].nexcl++
			default:
				c[4].addPlain(d)
			}
		}
	}
	res := Result{Aux: map[string]float64{}}
	var sum float64
	nexcl := 0
	for i := range c {
		v := c[i].mean()
		res.Aux["c"+itoa(i+1)] = v
		sum += v
		nexcl += c[i].nexcl
	}
	res.Aux["nexcl"] = float64(nexcl)
	res.Aux["nexcl_c1"] = float64(c[0].nexcl)
	res.Value = 100 * sum / 5
	return res
}
