package metrics

import "math"

// Loss returns il1s and sse_sst of in, the results IL1s(in) and SSESST(in) return (values,
// components and notes bit for bit), from one pass over the two tables instead of one each:
// protect's summary prints both (docs/datapath.md, "protect's summary without copies").
func Loss(in *Input) (il1s, sseSST Result) {
	cols := in.KeptColumns()
	n := in.Orig.N
	if n < 2 || len(cols) == 0 {
		return Result{Value: math.NaN()}, Result{Value: math.NaN()}
	}
	s := numericLoss(in, true)
	return s.il1s(), s.sseSST(in)
}

// lossSums are the sums il1s and sse_sst are made of (numericLoss).
type lossSums struct {
	l1    float64 // Σ_{l∈C} Σ_j |x_jl − x'_jl|/(√2·S_l) over the cells observed in both tables
	cells int     // the cells observed in both tables
	// in the metric space (z-scores, or raw values with Standardize "none"), over the cells
	// observed there in both tables; skip counts the others
	sse, sst float64
	skip     int
}

// il1s is IL1s's result from the sums.
func (s lossSums) il1s() Result {
	if s.cells == 0 {
		return nanNote(NoteMissing + "no cell observed in both tables")
	}
	return Result{Value: s.l1 / float64(s.cells)}
}

// sseSST is SSESST's result from the sums.
func (s lossSums) sseSST(in *Input) Result {
	if s.skip == in.Orig.N*len(in.KeptColumns()) {
		return nanNote(NoteMissing + "no cell observed in both tables")
	}
	res := Result{Value: 100 * s.sse / s.sst, Aux: map[string]float64{"sse": s.sse, "sst": s.sst}}
	if s.skip > 0 {
		res.Aux["nskip"] = float64(s.skip)
	}
	if k := in.Orig.P - len(in.KeptColumns()); k > 0 {
		res.Notes = append(res.Notes, constantNote(k))
	}
	return res
}

// zKind says how a column's cells are taken into the metric space.
type zKind uint8

const (
	zPlain zKind = iota // (v − Mean)/SD
	zRaw                // v itself (Standardize "none")
	zCell               // datasets.Scaling.Cell: a constant or rescaled column
)

// numericLoss computes the sums of il1s over the kept columns of in and, with sse, those of
// sse_sst, reading the tables row after row (a column at a time would read every row once
// per column): each sum adds the same terms in the same order as a column-by-column loop —
// il1s one partial sum per column, rows in order, then the columns in order; SSE and SST
// rows in order, columns in order within a row — so the results are those of the separate
// loops bit for bit (TestLossMatchesSeparateLoops). A cell of the metric space is computed
// as Z's tables hold it (datasets.Scaling.Cell), without making the tables.
func numericLoss(in *Input, sse bool) lossSums {
	cols := in.KeptColumns()
	sc := in.Scaling()
	n, p := in.Orig.N, in.Orig.P
	x, xm := in.Orig.Data, in.Masked.Data
	den := make([]float64, p)   // √2·S_l
	col := make([]float64, p)   // il1s's partial sum of column l
	kind := make([]zKind, p)    // how column l enters the metric space
	zmean := make([]float64, p) // mean of the original's observed cells in the metric space
	rescaled := make([]bool, p) // S_l from rescaled values: differences in rescaled units
	for _, l := range cols {
		den[l] = math.Sqrt2 * sc.SD[l]
		rescaled[l] = sc.Rescaled(l)
		switch {
		case in.Opt.Standardize == "none":
			kind[l] = zRaw
		case sc.SD[l] == 0 || rescaled[l]:
			kind[l] = zCell
		}
	}
	z := func(l int, v float64) float64 {
		switch kind[l] {
		case zPlain:
			return (v - sc.Mean[l]) / sc.SD[l]
		case zRaw:
			return v
		}
		return sc.Cell(l, v)
	}
	var s lossSums
	if sse {
		cnt := make([]int, p)
		for i := 0; i < n; i++ {
			row := x[i*p : (i+1)*p]
			for _, l := range cols {
				if v := z(l, row[l]); !math.IsNaN(v) {
					zmean[l] += v
					cnt[l]++
				}
			}
		}
		for _, l := range cols {
			zmean[l] /= float64(cnt[l])
		}
	}
	for i := 0; i < n; i++ {
		row, mrow := x[i*p:(i+1)*p], xm[i*p:(i+1)*p]
		for _, l := range cols {
			a, b := row[l], mrow[l]
			if both(a, b) {
				s.cells++
				if rescaled[l] { // values near the float64 limit: difference in rescaled units
					col[l] += math.Abs(sc.DiffSD(l, a, b)) / math.Sqrt2
				} else {
					col[l] += math.Abs(a-b) / den[l]
				}
			}
			if !sse {
				continue
			}
			za, zb := z(l, a), z(l, b)
			if !both(za, zb) {
				s.skip++
				continue
			}
			d := za - zb
			s.sse += float64(d * d)
			t := za - zmean[l]
			s.sst += float64(t * t)
		}
	}
	for _, l := range cols {
		s.l1 += col[l]
	}
	return s
}
