package microagg

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/mdavindex"
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
// From indexMinRows rows (and up to indexMaxDims columns) every query comes from MDAV's exact
// indexes instead (same labels, vmdavIndexed, docs/scaling.md); only the remaining centroid
// stays a pass over R.
func VMDAV(ctx context.Context, z []float64, n, d, k int, gamma float64, global bool) ([]int32, error) {
	return vmdav(ctx, z, n, d, k, gamma, global, useIndex(n, d))
}

// vmdav is VMDAV; with indexed, the queries come from an mdavindex.Index.
func vmdav(ctx context.Context, z []float64, n, d, k int, gamma float64, global, indexed bool) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: VMDAV: bad shape or k")
	}
	R := newActiveSet(z, n, d)
	labels := make([]int32, n)
	c := make([]float64, d)
	if global {
		R.mean(c)
	}
	if indexed {
		return vmdavIndexed(ctx, R, k, gamma, global, c)
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
					din[u] = min(din[u], distance.Sq(R.row(i), q))
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
				dx[u] = distance.Sq(R.row(i), q)
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

// vmdavIndexed is VMDAV's loop with every query answered by an mdavindex.Index over the live
// records R (c is the global centroid when global). The scan's din[x] is √ of the minimum
// squared distance from x to a member y of g (√ is monotone, so the minimum of the roots is
// the root of the minimum). Its argmin is found as follows. Each member y keeps its nearest
// live record and that squared distance D_y (valid until that record leaves R), or a lower
// bound of D_y (D_y only grows as R shrinks) when a query bounded by a smaller distance of
// another member found nothing. With D = min_y D_y, every x whose din equals √D has its
// squared distance to some y in [D, sqrtTies(D)], so x is the lowest record found by the
// radius queries of sqrtTies(D) around the members whose D_y (or bound) is ≤ sqrtTies(D).
// dout is the first other record of x's 2-NN.
func vmdavIndexed(ctx context.Context, R *activeSet, k int, gamma float64, global bool, c []float64) ([]int32, error) {
	n, d := len(R.idx), R.d
	z := R.z
	row := R.row
	ix := mdavindex.New(z, n, d, indexOptions)
	live := newLiveRows(R.z, n, d)
	var seeds []int // global: records by decreasing distance to c, ties by index
	if global {
		R.distTo(c)
		neg := make([]float64, n)
		for i, v := range R.dist[:n] {
			neg[i] = -v
		}
		seeds = sortedBy(neg)
	}
	labels := make([]int32, n)
	members := make([]int, 0, 2*k)
	// per member: its nearest live record and that squared distance D_y (exact while the
	// record lives); −2 with a lower bound of D_y; −1 unknown
	nnRec := make([]int, 0, 2*k)
	nnD := make([]float64, 0, 2*k)
	var qs mdavindex.Query
	var buf []int
	add := func(i int, g int32) {
		labels[i] = g
		live.kill(i)
		ix.Delete(i)
		members = append(members, i)
		nnRec = append(nnRec, -1)
		nnD = append(nnD, 0)
	}
	var g int32
	for ix.Alive() >= 2*k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := nextSeed(global, &seeds, live, ix, c)
		members, nnRec, nnD = members[:0], nnRec[:0], nnD[:0]
		buf = append(buf[:0], ix.Nearest(r, k)...)
		for _, i := range buf {
			add(i, g)
		}
		for len(members) < 2*k-1 && ix.Alive()-1 >= k {
			// D = min_y D_y: exact cached values first, then the other members with a
			// query bounded by the best so far (a miss leaves a lower bound of D_y)
			best := math.Inf(1)
			for j := range members {
				if nnRec[j] >= 0 && !live.dead[nnRec[j]] {
					best = min(best, nnD[j])
				}
			}
			for j, y := range members {
				if nnRec[j] >= 0 && !live.dead[nnRec[j]] {
					continue
				}
				if nnRec[j] != -1 { // a lower bound (or a dead record's distance, one too)
					nnRec[j] = -2
					if nnD[j] >= best {
						continue
					}
				}
				u, s := ix.Tree().NearestBelow(&qs, row(y), best)
				if u >= 0 {
					nnRec[j], nnD[j], best = u, s, s
				} else {
					nnRec[j], nnD[j] = -2, best
				}
			}
			hi := sqrtTies(best)
			x := -1
			for j, y := range members {
				if nnD[j] <= hi {
					if u := ix.Tree().LowestWithin(&qs, row(y), hi); u >= 0 && (x < 0 || u < x) {
						x = u
					}
				}
			}
			dout := math.Inf(1)
			for _, u := range ix.Tree().Nearest(&qs, buf[:0], row(x), 2) {
				if u != x {
					dout = distance.Sq(row(u), row(x))
					break
				}
			}
			if !(math.Sqrt(best) < gamma*math.Sqrt(dout)) {
				break
			}
			add(x, g)
		}
		g++
	}
	for _, i := range live.records() {
		labels[i] = g
	}
	return Canonical(labels), nil
}
