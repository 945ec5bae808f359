package metrics

import (
	"math"

	"github.com/sdcbench/sdcbench/datasets"
)

// Missing cells (metrics.md §0.4): a missing value is NaN in a numeric column. The numeric
// measures skip them as sdcMicro 5.8.1's dUtility and dRisk do (sum(…, na.rm = TRUE),
// sd(…, na.rm = TRUE), var(…, use = "pairwise.complete.obs")); the rule of each measure is
// stated in its section of metrics.md.

// scalingOf returns the column means and sample SDs of d over its observed (non-NaN) cells,
// as R's mean(x, na.rm = TRUE) and sd(x, na.rm = TRUE). A table without NaN gets
// datasets.ScalingOf unchanged (with its exact rescaling of extreme columns); a column with
// fewer than 2 observed values has SD NaN, so it is not among the kept columns.
func scalingOf(d *datasets.Dataset) datasets.Scaling {
	s := datasets.ScalingOf(d)
	n, p := d.N, d.P
	for j := 0; j < p; j++ {
		if !math.IsNaN(s.Mean[j]) {
			continue // a NaN cell makes the column's mean NaN: none here, no scan needed
		}
		missing := false
		for i := 0; i < n && !missing; i++ {
			missing = math.IsNaN(d.Data[i*p+j])
		}
		if !missing {
			continue
		}
		// A column with a NaN is never rescaled by datasets.ScalingOf (its largest magnitude
		// is NaN), so overwriting its plain mean and SD is consistent with Exp[j] == 0.
		var sum float64
		cnt := 0
		for i := 0; i < n; i++ {
			if v := d.Data[i*p+j]; !math.IsNaN(v) {
				sum += v
				cnt++
			}
		}
		mean := sum / float64(cnt)
		var ss float64
		for i := 0; i < n; i++ {
			if v := d.Data[i*p+j]; !math.IsNaN(v) {
				t := v - mean
				ss += float64(t * t)
			}
		}
		s.Mean[j], s.SD[j] = mean, math.Sqrt(ss/float64(cnt-1))
		if cnt < 2 {
			s.Mean[j], s.SD[j] = math.NaN(), math.NaN()
		}
	}
	return s
}

// both reports whether a cell pair is observed in the original and in the release.
func both(x, y float64) bool { return !math.IsNaN(x) && !math.IsNaN(y) }

// MissingCells counts, per column, the cells missing (NaN) in the release where the original
// has a value (Lost) and the cells missing in both tables (Both). Orig and masked must have
// the same shape; the release's missing cells are the ones the numeric measures skip
// (metrics.md §0.4).
type MissingCells struct {
	Names      []string
	Lost, Both []int
}

// CountMissing returns the missing cells of masked against orig (see MissingCells).
//
// The release is read in blocks of cells: the positions of its missing cells in a block are
// listed first, then the original is read at those positions in a loop of independent loads,
// so that their cache misses (a row of the original apart for each missing cell) overlap
// rather than each waiting behind the branch of its cell (docs/scaling.md, "Frequencies with
// missing key values").
func CountMissing(orig, masked *datasets.Dataset) MissingCells {
	n, p := orig.N, orig.P
	mc := MissingCells{Names: orig.Names, Lost: make([]int, p), Both: make([]int, p)}
	const block = 4096
	var at [block]int32
	md, od := masked.Data[:n*p], orig.Data[:n*p]
	for lo := 0; lo < len(md); lo += block {
		cells := md[lo:min(lo+block, len(md))]
		k := 0
		for c, v := range cells {
			if v != v {
				at[k] = int32(c)
				k++
			}
		}
		for _, c := range at[:k] {
			i := lo + int(c)
			if o := od[i]; o != o {
				mc.Both[i%p]++
			} else {
				mc.Lost[i%p]++
			}
		}
	}
	return mc
}

// pairwiseCov returns the p×p covariance matrix of the row-major n×p table x with R's
// use = "pairwise.complete.obs": entry (h, l) is the sample covariance (n_hl − 1) of columns
// h and l over the rows where both are observed, with the means of those rows. An entry with
// fewer than 2 such rows is NaN.
func pairwiseCov(x []float64, n, p int) []float64 {
	c := make([]float64, p*p)
	for h := 0; h < p; h++ {
		for l := h; l < p; l++ {
			var mh, ml float64
			cnt := 0
			for i := 0; i < n; i++ {
				if a, b := x[i*p+h], x[i*p+l]; both(a, b) {
					mh += a
					ml += b
					cnt++
				}
			}
			v := math.NaN()
			if cnt >= 2 {
				mh /= float64(cnt)
				ml /= float64(cnt)
				var s float64
				for i := 0; i < n; i++ {
					if a, b := x[i*p+h], x[i*p+l]; both(a, b) {
						s += (a - mh) * (b - ml)
					}
				}
				v = s / float64(cnt-1)
			}
			c[h*p+l], c[l*p+h] = v, v
		}
	}
	return c
}

// pairwiseCor returns R's cor(x, use = "pairwise.complete.obs"): entry (h, l) is the
// correlation of columns h and l over the rows where both are observed, each with the means
// and SDs of those rows. The diagonal is 1 for a column with two distinct observed values.
func pairwiseCor(x []float64, n, p int) []float64 {
	r := make([]float64, p*p)
	for h := 0; h < p; h++ {
		for l := h; l < p; l++ {
			var mh, ml float64
			cnt := 0
			for i := 0; i < n; i++ {
				if a, b := x[i*p+h], x[i*p+l]; both(a, b) {
					mh += a
					ml += b
					cnt++
				}
			}
			v := math.NaN()
			if cnt >= 2 {
				mh /= float64(cnt)
				ml /= float64(cnt)
				var shl, shh, sll float64
				for i := 0; i < n; i++ {
					if a, b := x[i*p+h], x[i*p+l]; both(a, b) {
						shl += (a - mh) * (b - ml)
						shh += (a - mh) * (a - mh)
						sll += (b - ml) * (b - ml)
					}
				}
				v = shl / math.Sqrt(shh*sll)
				if h == l && shh > 0 {
					v = 1
				}
			}
			r[h*p+l], r[l*p+h] = v, v
		}
	}
	return r
}

// scaleNA returns R's scale(x) of the given columns of a row-major n×p table: each column
// centred on its observed mean and divided by its observed SD (n_obs − 1); NaN cells stay NaN.
// The result is row-major n×len(cols).
func scaleNA(x []float64, n, p int, cols []int) []float64 {
	q := len(cols)
	out := make([]float64, n*q)
	for c, l := range cols {
		var sum float64
		cnt := 0
		for i := 0; i < n; i++ {
			if v := x[i*p+l]; !math.IsNaN(v) {
				sum += v
				cnt++
			}
		}
		mean := sum / float64(cnt)
		var ss float64
		for i := 0; i < n; i++ {
			if v := x[i*p+l]; !math.IsNaN(v) {
				ss += (v - mean) * (v - mean)
			}
		}
		sd := math.Sqrt(ss / float64(cnt-1))
		for i := 0; i < n; i++ {
			out[i*q+c] = (x[i*p+l] - mean) / sd
		}
	}
	return out
}

// completeCases is an Input restricted to the records observed on every evaluated column in
// both tables, R's complete.cases(X, X'); omitted counts the records left out.
type completeCases struct {
	sub     *Input
	omitted int
}

// NoteMissing begins every Result note about missing cells (a measure's value computed on
// the complete cases, or undefined because too few cells are observed), so that a caller such
// as eval can say what a measure skipped.
const NoteMissing = "missing cells: "

// noteComplete ends the note of a measure computed on the complete cases only.
const noteComplete = " records left out (complete cases, metrics.md §0.4)"

// complete returns the complete cases of in, or nil when neither table has a missing cell. The
// measures that have no rule of their own for a missing cell (linkage, rank and robust
// distances, il3, pil, the regression, the lower bound) are computed on them, as if the other
// records were not in the file: every statistic of such a measure (means, SDs, covariances,
// ranks) comes from the complete cases. The result is computed once per Input, so that the
// combined measures share it.
func (in *Input) complete() *completeCases {
	if !hasNaN(in.Orig.Data, in.Masked.Data) {
		return nil
	}
	return cached(in, "missing:complete", func(in *Input) *completeCases {
		n, p := in.Orig.N, in.Orig.P
		var rows []int
		for i := 0; i < n; i++ {
			ok := true
			for l := 0; l < p && ok; l++ {
				ok = both(in.Orig.Data[i*p+l], in.Masked.Data[i*p+l])
			}
			if ok {
				rows = append(rows, i)
			}
		}
		pick := func(d *datasets.Dataset) *datasets.Dataset {
			if d == nil {
				return nil
			}
			data := make([]float64, 0, len(rows)*d.P)
			for _, i := range rows {
				data = append(data, d.Row(i)...)
			}
			out := datasets.New(d.Name, d.Names, len(rows), d.P, data)
			out.Levels = d.Levels
			return out
		}
		sub := &Input{Orig: pick(in.Orig), Masked: pick(in.Masked), Diag: in.Diag, Opt: in.Opt,
			Control: in.Control}
		if in.MaskedAll != nil {
			sub.MaskedAll = pick(in.MaskedAll)
		}
		return &completeCases{sub: sub, omitted: n - len(rows)}
	})
}

// eval returns f on the complete cases, with Aux "nomit" (the records left out) and a note.
// No complete case gives NaN.
func (cc *completeCases) eval(f func(*Input) Result) Result {
	note := NoteMissing + itoa(cc.omitted) + noteComplete
	if cc.sub.Orig.N == 0 {
		return nanNote(NoteMissing + "no record observed on every column of both tables")
	}
	r := f(cc.sub)
	aux := make(map[string]float64, len(r.Aux)+1)
	for k, v := range r.Aux {
		aux[k] = v
	}
	aux["nomit"] = float64(cc.omitted)
	return Result{Value: r.Value, Aux: aux, Notes: append(append([]string(nil), r.Notes...), note)}
}
