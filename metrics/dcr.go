package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/kdtree"

	"github.com/sdcbench/sdcbench/datasets"
)

// Distance to the closest record and the nearest-neighbour distance ratio (docs/synthetic.md;
// SDGym's and synthcity's privacy checks of synthetic data): how close each released record
// lies to the original records, in the original's z-scores.
func init() {
	Register(Func(Info{ID: "dcr_median", Label: "Median DCR", Unit: "raw", Better: Higher,
		Columns: NumericColumns, Components: []string{"orig", "control", "share_zero"},
		Description: "median over released records of the Euclidean distance to the closest original record, in the original's z-scores"},
		DCRMedian))
	Register(Func(Info{ID: "nndr_median", Label: "Median NNDR", Unit: "frac", Better: Higher,
		Columns:     NumericColumns,
		Description: "median over released records of the ratio of the distances to the closest and the second-closest original record (z-scores)"},
		NNDRMedian))
}

// closest holds, for every complete released record, the distances to its closest and
// second-closest original record.
type closest struct {
	d1, d2 []float64
	orig   []float64 // for every complete original record, the distance to its closest other one
	ctl    []float64 // for every complete control record, the distance to the closest original
	note   string
}

// closestRecords computes the distances once per Input. Space: the original's non-constant
// columns, each standardised by the mean and the SD (n−1) of its observed values. A record
// with a missing value in these columns is left out (of the original, of the release or of
// the control set), with a note.
func closestRecords(in *Input) closest {
	return cached(in, "synth:nearest", func(in *Input) closest {
		s := in.Scaling()
		cols := in.KeptColumns()
		z := func(d *datasets.Dataset) (kdtree.Points, int) {
			var pts kdtree.Points
			skipped := 0
			for i := 0; i < d.N; i++ {
				p := make(kdtree.Point, len(cols))
				ok := true
				for c, j := range cols {
					v := d.At(i, j)
					if v != v {
						ok = false
						break
					}
					p[c] = (v - s.Mean[j]) / s.SD[j]
				}
				if ok {
					pts = append(pts, p)
				} else {
					skipped++
				}
			}
			return pts, skipped
		}
		var out closest
		orig, so := z(in.Orig)
		rel, sr := z(in.Masked)
		if so+sr > 0 {
			out.note = NoteMissing + itoa(so) + " original and " + itoa(sr) + " released records with a missing value left out"
		}
		if len(orig) < 2 || len(cols) == 0 {
			return out
		}
		tree := kdtree.New(slices.Clone(orig), false)
		two := func(p kdtree.Point) (float64, float64) {
			k := kdtree.NewNKeeper(2)
			tree.NearestSet(k, p)
			return math.Sqrt(k.Heap[0].Dist), math.Sqrt(k.Heap[1].Dist)
		}
		for _, p := range rel {
			a, b := two(p)
			if a > b {
				a, b = b, a
			}
			out.d1, out.d2 = append(out.d1, a), append(out.d2, b)
		}
		for _, p := range orig { // the closest other record is the second one (itself first)
			a, b := two(p)
			out.orig = append(out.orig, max(a, b))
		}
		if in.Control != nil {
			ctl, _ := z(in.Control)
			for _, p := range ctl {
				a, b := two(p)
				out.ctl = append(out.ctl, min(a, b))
			}
		}
		return out
	})
}

// median returns the median of x (the mean of the middle two for even length), NaN if empty.
func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// DCRMedian returns dcr_median, the median over the released records of the distance to
// the closest original record (the DCR of SDGym and synthcity), Euclidean in the original's
// z-scores (closestRecords). 0 means that half the release or more copies original records.
// Aux: "orig", the median distance of an original record to its closest other original
// record, the scale a release that does not copy should reach; "control", the median DCR of
// the held-out control records (NaN without a control set: a release closer than the
// control records are is closer than fresh records from the population); "share_zero", the
// share of released records at distance 0 (exact copies on the compared columns). NaN with
// fewer than two complete original records.
func DCRMedian(in *Input) Result {
	c := closestRecords(in)
	if len(c.d1) == 0 {
		return withNote(nan(), c.note)
	}
	zero := 0
	for _, d := range c.d1 {
		if d == 0 {
			zero++
		}
	}
	res := Result{Value: median(c.d1), Aux: map[string]float64{
		"orig": median(c.orig), "control": median(c.ctl), "share_zero": float64(zero) / float64(len(c.d1)),
	}}
	return withNote(res, c.note)
}

// NNDRMedian returns nndr_median, the median over the released records of d₁/d₂, the
// distances to the closest and second-closest original records (closestRecords). A ratio near 0
// means that the released record points at one original record; near 1, that it sits
// among several. d₂ = 0 (two identical original records at the released point) gives 1.
func NNDRMedian(in *Input) Result {
	c := closestRecords(in)
	if len(c.d1) == 0 {
		return withNote(nan(), c.note)
	}
	r := make([]float64, len(c.d1))
	for i := range r {
		if c.d2[i] == 0 {
			r[i] = 1
		} else {
			r[i] = c.d1[i] / c.d2[i]
		}
	}
	return withNote(Result{Value: median(r)}, c.note)
}

func withNote(r Result, note string) Result {
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	return r
}
