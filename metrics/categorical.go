package metrics

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// Disclosure risk of categorical key variables, metrics.md §4.1-§4.5 (Morais (2022); sdcMicro
// freqCalc and measure_risk semantics). All of them are computed on the release.
func init() {
	for _, k := range []int{2, 3, 5} {
		k := k
		Register(Func(Info{ID: "kanon_viol_" + itoa(k), Unit: "count", Better: Lower, Components: []string{"pct"},
			Description: "records whose key combination has sample frequency < " + itoa(k) + " (Morais (2022) k-anonymity; metrics.md §4.2)"},
			func(in *Input) Result { return KAnonViolations(in, k) }))
	}
	Register(Func(Info{ID: "ind_risk_max", Unit: "frac", Better: Lower,
		Description: "largest individual re-identification risk 1/f, or Benedetti–Franconi with weights (Morais (2022) Eq. 3.6; metrics.md §4.3)"},
		IndRiskMax))
	Register(Func(Info{ID: "ind_risk_mean", Unit: "frac", Better: Lower,
		Description: "mean individual re-identification risk (Morais (2022) Eq. 3.6; metrics.md §4.3)"}, IndRiskMean))
	Register(Func(Info{ID: "global_risk_er", Unit: "count", Better: Lower,
		Description: "expected re-identifications Σ r_j (sdcMicro risk_ER; metrics.md §4.4)"}, GlobalRiskER))
	Register(Func(Info{ID: "global_risk_pct", Unit: "%", Better: Lower,
		Description: "global risk 100·mean r_j (Morais (2022) Eq. 3.7; metrics.md §4.4)"}, GlobalRiskPct))
	Register(Func(Info{ID: "hier_risk_er", Unit: "count", Better: Lower,
		Description: "expected re-identifications with household risk 1 − Π(1 − r_j) (Morais (2022) Eq. 3.8; metrics.md §4.4)"},
		HierRiskER))
	Register(Func(Info{ID: "hier_risk_pct", Unit: "%", Better: Lower,
		Description: "household risk 100·mean r^h (Morais (2022) Eq. 3.8; metrics.md §4.4)"}, HierRiskPct))
	Register(Func(Info{ID: "risky_obs", Unit: "count", Better: Lower,
		Description: "records with r > median + 2·MAD and r > 0.1 (Morais (2022) Eq. 7.1; metrics.md §4.4)"}, RiskyObs))
	Register(Func(Info{ID: "ldiv_distinct_min", Unit: "count", Better: Higher,
		Description: "distinct l-diversity of the release: min over records of distinct sensitive values in the key class (metrics.md §4.5)"},
		LDivMin))
	Register(Func(Info{ID: "ldiv_distinct_mean", Unit: "count", Better: Higher,
		Description: "mean over records of distinct sensitive values in the key class (metrics.md §4.5)"}, LDivMean))
	Register(Func(Info{ID: "ldiv_distinct_median", Unit: "count", Better: Higher, Components: []string{"q1", "q3"},
		Description: "median over records of distinct sensitive values in the key class; q1, q3 its quartiles (R's quantile type 7; metrics.md §4.5)"},
		LDivMedian))
	Register(Func(Info{ID: "ldiv_distinct_max", Unit: "count", Better: Higher,
		Description: "largest number of distinct sensitive values in a key class (metrics.md §4.5)"}, LDivMax))
}

// keyColumns returns the indices of the key columns of the release: Opt.Keys, or every
// column except Weight, Household and Sensitive. note is non-empty if a name is unknown.
func keyColumns(in *Input) (cols []int, note string) {
	names := in.keyTable().Names
	if len(in.Opt.Keys) == 0 {
		for j, n := range names {
			if n != in.Opt.Weight && n != in.Opt.Household && n != in.Opt.Sensitive {
				cols = append(cols, j)
			}
		}
		return cols, ""
	}
	for _, k := range in.Opt.Keys {
		j := colIndex(names, k)
		if j < 0 {
			return nil, "key column " + k + " not found"
		}
		cols = append(cols, j)
	}
	return cols, ""
}

// catRisk holds the frequencies and risks of the release per distinct key tuple
// (keyfreq.Frequencies): record i's are f[of[i]], F[of[i]] and r[of[i]].
type catRisk struct {
	of      []int32   // the tuple of each record
	f, F, r []float64 // per tuple: sample frequency, weighted frequency (= f unweighted), individual risk
	note    string    // why the risk is undefined, if it is
}

// records returns the per-tuple values x per record, in record order (a new slice).
func (c *catRisk) records(x []float64) []float64 {
	out := make([]float64, len(c.of))
	for i, t := range c.of {
		out[i] = x[t]
	}
	return out
}

// sumRisk returns Σ_j r_j over the records in record order, bit for bit the sum of the
// per-record risks.
func (c *catRisk) sumRisk() float64 {
	var s float64
	for _, t := range c.of {
		s += c.r[t]
	}
	return s
}

// frequencies returns, for each record j of the release, f(j), the number of records
// compatible with j on the key columns, and F(j), the sum of their weights (metrics.md §4.1,
// sdcMicro freqCalc; keyfreq.Frequencies): i is compatible with j iff on every key x_ik = x_jk
// or one of them is missing (NaN). With Opt.Weight "" F = f (the same slice). r(j) is 1/f(j),
// or bfRisk(f(j), F(j)) with a weight. All three are held per distinct key tuple (catRisk), and
// the weights are read from the table in place: at census scale fresh memory is dear here, and
// per tuple there are about a third as many values as records (docs/datapath.md "Census scale
// against sdcMicro"). The result is shared (cached per Input): read-only.
func frequencies(in *Input) *catRisk {
	t := in.keyTable()
	d, n, p := t.Data, t.N, t.P
	cols, note := keyColumns(in)
	if note != "" || len(cols) == 0 || n == 0 {
		if note == "" {
			note = "no key columns"
		}
		return &catRisk{note: note}
	}
	wc := -1
	if in.Opt.Weight != "" {
		if wc = colIndex(t.Names, in.Opt.Weight); wc < 0 {
			return &catRisk{note: "weight column " + in.Opt.Weight + " not found"}
		}
	}
	fr := keyfreq.Frequencies(d, n, p, cols, wc)
	c := &catRisk{of: fr.Of, f: fr.F, F: fr.FW, r: make([]float64, len(fr.F))}
	if wc < 0 {
		for t, ft := range c.f {
			c.r[t] = 1 / ft
		}
		return c
	}
	searched := false
	for t, ft := range c.f {
		// A missing weight makes its tuples' sums NaN (every tuple's F holds its own records'
		// weights), so the column is searched only if some sum is NaN.
		if Ft := c.F[t]; Ft != Ft && !searched {
			if hasMissingWeight(d, n, p, wc) {
				return &catRisk{note: "missing weights"}
			}
			searched = true
		}
		c.r[t] = bfRisk(ft, c.F[t])
	}
	return c
}

// hasMissingWeight reports whether column wc of the n×p table d has a missing value.
func hasMissingWeight(d []float64, n, p, wc int) bool {
	for i := range n {
		if v := d[i*p+wc]; v != v {
			return true
		}
	}
	return false
}

// bfRisk returns the Benedetti–Franconi individual risk of a record with sample frequency f
// and weighted frequency F, as sdcMicro's measure_risk reports it (metrics.md §4.3), with
// p = f/F: 1/f if F ≤ f; (p/(1−p))·ln(1/p) if f = 1; p/(1−p) − (p/(1−p))²·ln(1/p) if f = 2;
// p/(f − (1−p)) if f ≥ 3.
func bfRisk(f, F float64) float64 {
	if F <= f {
		return 1 / f
	}
	p := f / F
	q := p / (1 - p)
	switch {
	case f == 1:
		return q * math.Log(1/p)
	case f == 2:
		return q - q*q*math.Log(1/p)
	default:
		return p / (f - (1 - p))
	}
}

func riskOf(in *Input) *catRisk { return cached(in, "cat:risk", frequencies) }

// KAnonViolations returns kanon_viol_K = #{j : f(j) < K}, the number of records of the release
// that violate K-anonymity on the key columns (metrics.md §4.2; sample frequencies with
// missing-value wildcards), with Aux "pct" = 100·count/n. NaN if there is no key column.
func KAnonViolations(in *Input, k int) Result {
	c := riskOf(in)
	if c.note != "" {
		return nanNote(c.note)
	}
	cnt := 0
	for _, t := range c.of {
		if c.f[t] < float64(k) {
			cnt++
		}
	}
	return Result{Value: float64(cnt), Aux: map[string]float64{"pct": 100 * float64(cnt) / float64(len(c.of))}}
}

// riskSummary applies g to the individual risks (per tuple: catRisk) and the number of
// records, or returns NaN with the reason.
func riskSummary(in *Input, g func(c *catRisk, n float64) float64) Result {
	c := riskOf(in)
	if c.note != "" {
		return nanNote(c.note)
	}
	return Result{Value: g(c, float64(len(c.of)))}
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// IndRiskMax returns ind_risk_max = max_j r_j (metrics.md §4.3): r_j = 1/f(j) unweighted, the
// Benedetti–Franconi approximation with Opt.Weight. NaN without key columns.
func IndRiskMax(in *Input) Result {
	// Every tuple has a record, so the largest risk of a tuple is the largest of a record.
	return riskSummary(in, func(c *catRisk, _ float64) float64 { return slices.Max(c.r) })
}

// IndRiskMean returns ind_risk_mean = mean_j r_j (metrics.md §4.3).
func IndRiskMean(in *Input) Result {
	return riskSummary(in, func(c *catRisk, n float64) float64 { return c.sumRisk() / n })
}

// GlobalRiskER returns global_risk_er = Σ_j r_j, the expected number of re-identifications
// (metrics.md §4.4, sdcMicro risk_ER). Unweighted with no missing keys it is the number of
// distinct key combinations.
func GlobalRiskER(in *Input) Result {
	return riskSummary(in, func(c *catRisk, _ float64) float64 { return c.sumRisk() })
}

// GlobalRiskPct returns global_risk_pct = 100·mean_j r_j (metrics.md §4.4, Morais (2022) Eq. 3.7).
func GlobalRiskPct(in *Input) Result {
	return riskSummary(in, func(c *catRisk, n float64) float64 { return 100 * c.sumRisk() / n })
}

// hierRisk returns r^{h(j)} = 1 − Π_{i∈h(j)} (1 − r_i) per record, for the households of
// Opt.Household (a missing household ID is a household of its own).
func hierRisk(in *Input) ([]float64, string) {
	c := riskOf(in)
	if c.note != "" {
		return nil, c.note
	}
	if in.Opt.Household == "" {
		return nil, "no household column"
	}
	hc := colIndex(in.keyTable().Names, in.Opt.Household)
	if hc < 0 {
		return nil, "household column " + in.Opt.Household + " not found"
	}
	h := in.keyTable().Col(hc)
	prod := map[uint64]float64{}
	for i, v := range h {
		if v != v {
			continue
		}
		k := keyfreq.Bits(v)
		if _, ok := prod[k]; !ok {
			prod[k] = 1
		}
		prod[k] *= 1 - c.r[c.of[i]]
	}
	out := make([]float64, len(h))
	for i, v := range h {
		if v != v {
			out[i] = c.r[c.of[i]]
			continue
		}
		out[i] = 1 - prod[keyfreq.Bits(v)]
	}
	return out, ""
}

// HierRiskER returns hier_risk_er = Σ_j r^{h(j)} with the household risk
// r^h = 1 − Π_{j∈h}(1 − r_j) (metrics.md §4.4, Morais (2022) Eq. 3.8). NaN without Opt.Household.
func HierRiskER(in *Input) Result {
	r, note := hierRisk(in)
	if note != "" {
		return nanNote(note)
	}
	return Result{Value: sum(r)}
}

// HierRiskPct returns hier_risk_pct = 100·mean_j r^{h(j)} (metrics.md §4.4).
func HierRiskPct(in *Input) Result {
	r, note := hierRisk(in)
	if note != "" {
		return nanNote(note)
	}
	return Result{Value: 100 * sum(r) / float64(len(r))}
}

// RiskyObs returns risky_obs = #{j : r_j > median(r) + 2·MAD(r) and r_j > 0.1}, with
// MAD = 1.4826·median|r − median(r)| (Opt.RiskyMAD "raw": without 1.4826), sdcMicro's print
// rule and Morais (2022) Eq. 7.1 (metrics.md §4.4). Aux "threshold" holds median + 2·MAD.
func RiskyObs(in *Input) Result {
	c := riskOf(in)
	if c.note != "" {
		return nanNote(c.note)
	}
	r := c.records(c.r)
	slices.Sort(r)
	med := Quantile7(r, 0.5)
	dev := make([]float64, len(r))
	for i, v := range r {
		dev[i] = math.Abs(v - med)
	}
	slices.Sort(dev)
	mad := Quantile7(dev, 0.5)
	if in.Opt.RiskyMAD != "raw" {
		mad *= 1.4826
	}
	thr := med + 2*mad
	cnt := 0
	for _, t := range c.of {
		if v := c.r[t]; v > thr && v > 0.1 {
			cnt++
		}
	}
	return Result{Value: float64(cnt), Aux: map[string]float64{"threshold": thr}}
}

// lDiversity returns l_j, the number of distinct values of Opt.Sensitive in the class of
// records whose key tuple equals j's exactly (a missing value is its own category; values
// compared by keyfreq.Bits). The classes are keyfreq's exact key tuples (keyfreq.Exact, which
// skips the frequencies with a missing value as a wildcard), the sensitive values are numbered
// in one pass, and the distinct (class, value) pairs are counted in a bit set of classes × values, or, when that would be large, by sorting the pairs: the
// same counts as a set of sensitive values per class keyed by the tuple's bytes
// (TestLDiversityMatchesSets), at 10^6 records without a string or an inner map per class.
func lDiversity(in *Input) ([]float64, string) {
	d, n, p := in.keyTable().Data, in.keyTable().N, in.keyTable().P
	cols, note := keyColumns(in)
	switch {
	case note != "":
		return nil, note
	case len(cols) == 0 || n == 0:
		return nil, "no key columns"
	case in.Opt.Sensitive == "":
		return nil, "no sensitive column"
	}
	sc := colIndex(in.keyTable().Names, in.Opt.Sensitive)
	if sc < 0 {
		return nil, "sensitive column " + in.Opt.Sensitive + " not found"
	}
	ex := keyfreq.Exact(d, n, p, cols, false)
	of, classes := ex.Of, len(ex.Count)
	// The sensitive values numbered by first appearance (runs of one value looked up once).
	code := make([]uint32, n)
	values := map[uint64]uint32{}
	last, lastCode := uint64(0), uint32(0)
	for i := 0; i < n; i++ {
		b := keyfreq.Bits(d[i*p+sc])
		if i == 0 || b != last {
			c, ok := values[b]
			if !ok {
				c = uint32(len(values))
				values[b] = c
			}
			last, lastCode = b, c
		}
		code[i] = lastCode
	}
	cnt := make([]float64, classes)
	if s := len(values); classes*s <= 64*n {
		seen := make([]uint64, (classes*s+63)/64)
		for i, t := range of {
			k := int(t)*s + int(code[i])
			if bit := uint64(1) << (k & 63); seen[k>>6]&bit == 0 {
				seen[k>>6] |= bit
				cnt[t]++
			}
		}
	} else {
		pairs := make([]uint64, n)
		for i, t := range of {
			pairs[i] = uint64(t)<<32 | uint64(code[i])
		}
		slices.Sort(pairs)
		for i, v := range pairs {
			if i == 0 || v != pairs[i-1] {
				cnt[v>>32]++
			}
		}
	}
	l := make([]float64, n)
	for i, t := range of {
		l[i] = cnt[t]
	}
	return l, ""
}

// LDivMin returns ldiv_distinct_min = min_j l_j, the distinct l-diversity of the release for
// the sensitive column Opt.Sensitive (metrics.md §4.5). NaN without it.
func LDivMin(in *Input) Result {
	l, note := ldivOf(in)
	if note != "" {
		return nanNote(note)
	}
	return Result{Value: slices.Min(l)}
}

// LDivMean returns ldiv_distinct_mean = mean_j l_j (metrics.md §4.5).
func LDivMean(in *Input) Result {
	l, note := ldivOf(in)
	if note != "" {
		return nanNote(note)
	}
	return Result{Value: sum(l) / float64(len(l))}
}

// LDivMedian returns ldiv_distinct_median, the median of l_j over the records, with the
// quartiles as components q1 and q3 (R's quantile type 7, the one summary() prints; metrics.md §4.5).
func LDivMedian(in *Input) Result {
	l, note := ldivOf(in)
	if note != "" {
		return nanNote(note)
	}
	s := slices.Clone(l)
	slices.Sort(s)
	return Result{Value: Quantile7(s, 0.5), Aux: map[string]float64{"q1": Quantile7(s, 0.25), "q3": Quantile7(s, 0.75)}}
}

// LDivMax returns ldiv_distinct_max = max_j l_j (metrics.md §4.5).
func LDivMax(in *Input) Result {
	l, note := ldivOf(in)
	if note != "" {
		return nanNote(note)
	}
	return Result{Value: slices.Max(l)}
}

// Quantile7 returns R's quantile(x, p, type = 7) of the sorted, non-empty s: the linear
// interpolation between s[⌊h⌋] and s[⌊h⌋+1] at h = (n − 1)·p (0-based).
func Quantile7(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

type ldiv struct {
	l    []float64
	note string
}

// ldivOf returns lDiversity(in), computed once per Input.
func ldivOf(in *Input) ([]float64, string) {
	x := cached(in, "cat:ldiv", func(in *Input) ldiv { l, n := lDiversity(in); return ldiv{l, n} })
	return x.l, x.note
}
