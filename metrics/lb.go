package metrics

import (
	"math"

	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// The SSE/SST diagnostics of metrics.md §2.2 and §2.3.
func init() {
	Register(Func(Info{ID: "sse_sst_lb", Unit: "%", Better: None, Diag: true,
		Description: "nearest-neighbour lower bound on the sse_sst of any k-partition (diagnostic; metrics.md §2.2)"},
		SSESSTLowerBound))
	Register(Func(Info{ID: "imp", Unit: "%", Better: Higher, Diag: true,
		Description: "100·(IL_start − sse_sst)/IL_start, improvement over the search's start (DFO paper imp; metrics.md §2.3)"},
		Imp))
}

// groupSize returns the minimum group size k for sse_sst_lb: Opt.K, else the release's
// Diag.Partition.K, else the smallest group of Labels; 0 if none is known.
func groupSize(in *Input) int {
	if in.Opt.K > 0 {
		return in.Opt.K
	}
	if p := in.Diag.Partition; p != nil && p.K >= 1 {
		return p.K
	}
	if len(in.Labels) == in.Orig.N && in.Orig.N > 0 {
		size := map[int32]int{}
		for _, l := range in.Labels {
			size[l]++
		}
		k := in.Orig.N
		for _, s := range size {
			k = min(k, s)
		}
		return k
	}
	return 0
}

// SSESSTLowerBound returns sse_sst_lb, the harness's floor for the sse_sst of any partition
// with group sizes in [k, 2k−1] (metrics.md §2.2), in %:
//
//	LB = Σ_i min_{m=k..2k−1} D_i(m−1)/(2m),  sse_sst_lb = 100·LB/SST,
//
// where D_i(r) is the sum of the r smallest squared distances from z_i to the other original
// records, in the sse_sst space (z-scores, or raw with Standardize "none"). It depends on X
// only; a method whose sse_sst is below it has a bug. k comes from groupSize; Aux "k" holds
// it. NaN if k is unknown or k > n, n < 2 or no column is non-constant. With a missing cell
// it is the bound of the complete cases (metrics.md §0.4).
//
// Cost O(n²p) with a partial-distance early exit, parallel over fixed row blocks with one
// slot per row; the inner loop does not allocate.
func SSESSTLowerBound(in *Input) Result {
	n, p := in.Orig.N, in.Orig.P
	cols := in.KeptColumns()
	k := groupSize(in)
	if k < 1 {
		return nanNote("sse_sst_lb: unknown k (set Options.K)")
	}
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return SSESSTLowerBound(in) })
	}
	if n < 2 || k > n || len(cols) == 0 || hasNaN(in.Orig.Data) {
		return nan()
	}
	z, _ := in.Z()
	// compact copy of the kept columns
	q := len(cols)
	x := make([]float64, n*q)
	for i := 0; i < n; i++ {
		for c, l := range cols {
			x[i*q+c] = z[i*p+l]
		}
	}
	r := min(2*k-2, n-1) // neighbours needed
	lb := make([]float64, n)
	parallel.Blocks(n, rowBlock, 0, func(lo, hi int) {
		best := make([]float64, 0, r+1)
		for i := lo; i < hi; i++ {
			if in.Err() != nil {
				return
			}
			best = best[:0]
			xi := x[i*q : (i+1)*q]
			for j := 0; j < n; j++ {
				if j == i || r == 0 {
					continue
				}
				bound := math.Inf(1)
				if len(best) == r {
					bound = best[r-1]
				}
				s := distance.SqBound(xi, x[j*q:(j+1)*q], bound)
				if s >= bound {
					continue
				}
				// insert s into the sorted buffer
				pos := len(best)
				if pos < r {
					best = append(best, s)
				} else {
					pos = r - 1
				}
				for pos > 0 && best[pos-1] > s {
					best[pos] = best[pos-1]
					pos--
				}
				best[pos] = s
			}
			v := math.Inf(1)
			var cum float64
			for m := 1; m <= 2*k-1; m++ {
				if m >= 2 {
					if m-2 >= len(best) {
						break
					}
					cum += best[m-2] // cum = D_i(m−1)
				}
				if m >= k {
					v = min(v, cum/float64(2*m))
				}
			}
			lb[i] = v
		}
	})
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	var total float64
	for _, v := range lb {
		total += v
	}
	sst := sstOf(z, n, p, cols)
	return Result{Value: 100 * total / sst, Aux: map[string]float64{"k": float64(k)}}
}

// sstOf returns Σ_j Σ_{l∈cols} (z_jl − z̄_l)², as SSESST computes it.
func sstOf(z []float64, n, p int, cols []int) float64 {
	mean := covariance.Means(z, n, p)
	var sst float64
	for i := 0; i < n; i++ {
		for _, l := range cols {
			t := z[i*p+l] - mean[l]
			sst += t * t
		}
	}
	return sst
}

// Imp returns imp = 100·(IL_start − IL_final)/IL_start (metrics.md §2.3, DFO paper), where
// IL_final is the release's sse_sst and IL_start the sse_sst of the search's starting
// solution, read from the release's Diag.Search.ILStart. NaN if the start is unknown or 0.
func Imp(in *Input) Result {
	s := in.Diag.Search
	if s == nil || s.ILStart == 0 {
		return nanNote("imp: the release has no start sse_sst (Diag.Search)")
	}
	start := s.ILStart
	final := SSESST(in).Value
	return Result{Value: ImpOf(start, final)}
}

// ImpOf returns 100·(start − final)/start.
func ImpOf(start, final float64) float64 { return 100 * (start - final) / start }
