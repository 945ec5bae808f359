package metrics

import "math"

// The core metrics of docs/metrics.md §2.1, §2.4 and §3.2. dld is in dld.go.
func init() {
	Register(Func(Info{ID: "sse_sst", Unit: "%", Better: Lower,
		Description: "100·SSE/SST in z-space (MAGGA study IL1; metrics.md §2.1)"}, SSESST))
	Register(Func(Info{ID: "il1s", Unit: "raw", Better: Lower,
		Description: "mean of |x−x'|/(√2·S) over cells (MAGGA study IL2; metrics.md §2.4)"}, IL1s))
	Register(Func(Info{ID: "interval_disclosure", Unit: "%", Better: Lower,
		Description: "% of records inside x'±k·sd' on every attribute, k = 0.05 (sdcMicro dRisk; metrics.md §3.2)"},
		IntervalDisclosure))
}

// SSESST returns sse_sst = 100·SSE/SST over the non-constant columns C (metrics.md §2.1):
//
//	SSE = Σ_j Σ_{l∈C} (z_jl − z'_jl)²,  SST = Σ_j Σ_{l∈C} (z_jl − z̄_l)²
//
// in z-space (SST = |C|·(n−1)) or on raw values with Standardize "none". A cell missing in
// either table is left out of both sums, and z̄_l is the mean of the original's observed
// cells (metrics.md §2.1; Aux "nskip" counts the skipped cells). NaN if n < 2, every column
// is constant or no cell is observed in both tables. Aux holds "sse" and "sst".
func SSESST(in *Input) Result {
	cols := in.KeptColumns()
	if in.Orig.N < 2 || len(cols) == 0 {
		return Result{Value: math.NaN()}
	}
	return numericLoss(in, true).sseSST(in)
}

// IL1s returns il1s = (1/N)·Σ_{l∈C} Σ_j |x_jl − x'_jl|/(√2·S_l) over the non-constant
// columns C (metrics.md §2.4; MAGGA study Eq. 2.8), where a cell missing in either table is
// skipped and N counts the cells observed in both (n|C| without missing cells); S_l is the SD
// of the original's observed cells, as sdcMicro's sd(x, na.rm = TRUE). NaN if no column is
// left or no cell is observed in both.
func IL1s(in *Input) Result {
	cols := in.KeptColumns()
	if len(cols) == 0 || in.Orig.N < 2 {
		return Result{Value: math.NaN()}
	}
	return numericLoss(in, false).il1s()
}

// IntervalDisclosure returns interval_disclosure (metrics.md §3.2, sdcMicro dRisk): the
// percentage of records j such that for every column l,
//
//	x'_jl − k·sd'_l ≤ x_jl ≤ x'_jl + k·sd'_l,
//
// with sd'_l the sample SD of the released column's observed cells and k = Opt.IntervalK
// (0.05). A comparison with a missing value counts as satisfied, so a record with no cell
// observed in both tables is at risk: sdcMicro's rowSums(x < mi | x > ma, na.rm = TRUE) == 0.
func IntervalDisclosure(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	if n < 2 {
		return Result{Value: math.NaN()}
	}
	k := in.Opt.intervalK()
	ro, rm := in.Rescaled() // comparisons with k·sd': exact on rescaled columns, no overflow
	w := sampleSDs(rm.Data, n, p)
	for l := range w {
		w[l] *= k // the half-widths k·sd'_l
	}
	x, xm := ro.Data, rm.Data
	risky := 0
rows:
	for i := 0; i < n; i++ {
		xr, mr := x[i*p:(i+1)*p:(i+1)*p], xm[i*p:(i+1)*p:(i+1)*p]
		for l, v := range xr {
			m, h := mr[l], w[l]
			// written so that any NaN comparison counts as satisfied
			if v < m-h || v > m+h {
				continue rows
			}
		}
		risky++
	}
	return Result{Value: 100 * float64(risky) / float64(n)}
}

// sampleSDs returns the column SDs (n−1) of a row-major table, ignoring NaN cells.
func sampleSDs(data []float64, n, p int) []float64 {
	mean := make([]float64, p)
	cnt := make([]int, p)
	for i := 0; i < n; i++ {
		for l := 0; l < p; l++ {
			if v := data[i*p+l]; !math.IsNaN(v) {
				mean[l] += v
				cnt[l]++
			}
		}
	}
	for l := range mean {
		mean[l] /= float64(cnt[l])
	}
	sd := make([]float64, p)
	for i := 0; i < n; i++ {
		for l := 0; l < p; l++ {
			if v := data[i*p+l]; !math.IsNaN(v) {
				t := v - mean[l]
				sd[l] += float64(t * t)
			}
		}
	}
	for l := range sd {
		sd[l] = math.Sqrt(sd[l] / float64(cnt[l]-1))
	}
	return sd
}

func constantNote(k int) string {
	if k == 1 {
		return "1 constant column excluded"
	}
	return itoa(k) + " constant columns excluded"
}

func itoa(k int) string {
	if k == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for k > 0 {
		i--
		b[i] = byte('0' + k%10)
		k /= 10
	}
	return string(b[i:])
}
