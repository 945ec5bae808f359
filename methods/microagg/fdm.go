package microagg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(partitionMethod{
		info: methods.Info{
			Name:          "fdm",
			Description:   "farthest-insertion TSP tour cut at its longest edge, then optimal segmentation into groups of k..2k−1",
			Params:        []methods.ParamSpec{kParam, standardizeParam},
			Partitions:    true,
			BoundedGroups: true,
		},
		part: func(ctx context.Context, z []float64, n, d, k int, _ methods.Params, _ *rand.Rand) ([]int32, map[string]any, error) {
			labels, err := FDM(ctx, z, n, d, k)
			return labels, nil, err
		},
	})
}

// FDM returns the canonical labels of the TSP-path method of docs/microaggregation.md
// §3.11 (MAGGA study L1150-1162) on the n×d row-major table z: a farthest-insertion tour is
// built from the record farthest from the centroid (ties: lowest index), cut at its longest
// edge (ties: lowest position) into a Hamiltonian path, and the path is segmented optimally
// with SegmentDP on all columns, so every group has k..2k−1 records.
//
// The tour does not depend on k; callers that need several k can call FarthestInsertion once
// and FDMPath per k. ctx is checked every 256 insertions. z is not modified; it panics if
// k < 1, n < k or len(z) != n·d. Cost O(n²·d) for the tour plus O(n·k·d).
func FDM(ctx context.Context, z []float64, n, d, k int) ([]int32, error) {
	if k < 1 || n < k || len(z) != n*d {
		panic("microagg: FDM: bad shape or k")
	}
	dist := make([]float64, n)
	distance.SqRows(dist, z, covariance.Means(z, n, d))
	start := 0
	for i, v := range dist {
		if v > dist[start] {
			start = i
		}
	}
	tour, edges, err := farthestInsertion(ctx, z, n, d, start)
	if err != nil {
		return nil, err
	}
	return FDMPath(z, d, tour, edges, k), nil
}

// FDMPath cuts the closed tour (edge t joining tour[t] and tour[t+1 mod n], of length
// edges[t]) at its longest edge (ties: lowest t), giving the path tour[t+1], …, tour[n−1],
// tour[0], …, tour[t], and returns the canonical labels of its SegmentDP segmentation on all
// columns of z (d columns). Cost O(n·k·d).
func FDMPath(z []float64, d int, tour []int, edges []float64, k int) []int32 {
	t := 0
	for i, e := range edges {
		if e > edges[t] {
			t = i
		}
	}
	path := append(slices.Clone(tour[t+1:]), tour[:t+1]...)
	ends, _ := SegmentDP(z, d, path, nil, k)
	return SegmentLabels(path, ends)
}

// FarthestInsertion returns a closed TSP tour through the n rows of the row-major n×d table
// z, built by farthest insertion from record start without improvement steps
// (docs/microaggregation.md §2.3), and its edge lengths: edges[t] = δ(tour[t],
// tour[(t+1) mod n]), δ being the true Euclidean distance. At each step the record farthest
// from the tour (ties: lowest index) is inserted where it lengthens the tour least (ties:
// lowest position).
//
// z is not modified; it panics if n < 1, start is out of range or len(z) != n·d. Cost
// O(n²·d) time and O(n) memory: one distance pass per insertion, no distance matrix.
func FarthestInsertion(z []float64, n, d, start int) (tour []int, edges []float64) {
	tour, edges, _ = farthestInsertion(context.Background(), z, n, d, start)
	return tour, edges
}

func farthestInsertion(ctx context.Context, z []float64, n, d, start int) (tour []int, edges []float64, err error) {
	if n < 1 || start < 0 || start >= n || len(z) != n*d {
		panic("microagg: FarthestInsertion: bad shape or start")
	}
	tour = make([]int, 1, n)
	edges = make([]float64, 1, n)
	tour[0] = start
	in := make([]bool, n)
	in[start] = true
	near := make([]float64, n) // distance from v to the tour (true Euclidean)
	dv := make([]float64, n)   // distance from the newest tour record to every record
	distance.SqRows(dv, z, z[start*d:(start+1)*d])
	for i := range near {
		near[i] = math.Sqrt(dv[i])
	}
	for m := 1; m < n; m++ {
		if m&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		v := -1
		for i, x := range near {
			if !in[i] && (v < 0 || x > near[v]) {
				v = i
			}
		}
		distance.SqRows(dv, z, z[v*d:(v+1)*d])
		for i, x := range dv {
			dv[i] = math.Sqrt(x)
		}
		if m == 1 {
			tour = append(tour, v)
			e := dv[start]
			edges = append(edges[:0], e, e)
		} else {
			best, bt := math.Inf(1), -1
			for t, a := range tour {
				b := tour[(t+1)%m]
				if c := dv[a] + dv[b] - edges[t]; c < best {
					best, bt = c, t
				}
			}
			b := tour[(bt+1)%m]
			tour = slices.Insert(tour, bt+1, v)
			edges = slices.Insert(edges, bt+1, dv[b])
			edges[bt] = dv[tour[bt]]
		}
		in[v] = true
		for i, x := range dv {
			if !in[i] {
				near[i] = min(near[i], x)
			}
		}
	}
	return tour, edges, nil
}
