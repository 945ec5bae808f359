package microagg

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:        "vmdav",
			Description: "variable-size MDAV: groups of k extended up to 2k−1 by the gain-factor rule (Solanas & Martínez-Ballesté 2006)",
			Params: []methods.ParamSpec{kParam, standardizeParam,
				{Name: "gamma", Kind: methods.Float, Default: "0.2", Min: 0, Max: math.Inf(1),
					Doc: "gain factor γ: extend with x when d_in(x) < γ·d_out(x); ≈0.2 scattered, ≈1.1 clustered data"},
				centroidParam("remaining")},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, p methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			labels, err := VMDAV(ctx, z, n, d, k, p.Float("gamma"), p.String("centroid") == "global")
			return labels, nil, err
		},
	})
}

// VMDAV returns the canonical labels of variable-size MDAV on the n×d row-major table z
// (docs/microaggregation.md §3.2, MAGGA study L1096-1126):
//
//	while |R| ≥ 2k:
//	    c = mean of R (or of all records when global)
//	    r = argmax_{i∈R} ‖z_i − c‖²;  g = the k nearest to z_r within R;  R = R \ g
//	    din[x] = min_{y∈g} δ(x,y)                        (true Euclidean δ)
//	    while |g| < 2k−1 and |R| − 1 ≥ k:
//	        x = argmin_{x∈R} din[x];  dout = min_{y∈R, y≠x} δ(x,y)
//	        if din[x] < gamma·dout: move x from R to g, update din; else stop
//	    emit g
//	emit R if non-empty
//
// Ties go to the lowest record index. Extension stops before fewer than k records would remain,
// so every group has k..2k−1 records without repair. gamma = 1 is the seed's own rule.
// ctx is checked once per group. z is not modified; it panics if k < 1, n < k or
// len(z) != n·d. Cost about that of MDAV, n²·d/(2k), plus O(|R|·d) per extension attempt.
func VMDAV(ctx context.Context, z []float64, n, d, k int, gamma float64, global bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: VMDAV: bad shape or k")
	}
	R := newActiveSet(z, n, d)
	labels := make([]int32, n)
	c := make([]float64, d)
	if global {
		R.mean(c)
	}
	din := make([]float64, n)
	dx := make([]float64, n)
	var g int32
	for R.len() >= 2*k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !global {
			R.mean(c)
		}
		R.distTo(c)
		r := R.idx[R.farthest()]
		R.distTo(R.row(r))
		near := R.nearest(k)
		size := len(near)
		for _, t := range near {
			labels[R.idx[t]] = g
		}
		// din over R \ g: the minimum distance to a member of g
		m := R.len()
		for t := range din[:m] {
			din[t] = math.Inf(1)
		}
		for _, t := range near {
			din[t] = -1 // removed below
		}
		for _, t := range near {
			q := R.row(R.idx[t])
			for u, i := range R.idx {
				if din[u] >= 0 {
					din[u] = min(din[u], dist2(R.row(i), q))
				}
			}
		}
		R.remove(near, din)
		m = R.len()
		for t := range din[:m] {
			din[t] = math.Sqrt(din[t])
		}
		for size < 2*k-1 && m-1 >= k {
			x := 0
			for t := 1; t < m; t++ {
				if din[t] < din[x] {
					x = t
				}
			}
			q := R.row(R.idx[x])
			dout := math.Inf(1)
			for u, i := range R.idx {
				dx[u] = dist2(R.row(i), q)
				if u != x {
					dout = min(dout, dx[u])
				}
			}
			if !(din[x] < gamma*math.Sqrt(dout)) {
				break
			}
			labels[R.idx[x]] = g
			size++
			for u := range din[:m] {
				din[u] = min(din[u], math.Sqrt(dx[u]))
			}
			R.remove([]int{x}, din)
			m--
		}
		g++
	}
	for _, i := range R.idx {
		labels[i] = g
	}
	return Canonical(labels), nil
}
