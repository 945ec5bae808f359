package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sdcbench/sdcbench/internal/robust"
)

// Robust-Mahalanobis outlier risk of metrics.md §3.8 (sdcMicro dRiskRMD).
func init() {
	Register(Func(Info{ID: "rmd_risk1", Unit: "%", Better: Lower,
		Description: "% of records with a released value inside ±0.01·0.05·RMD of the original (sdcMicro dRiskRMD risk1; metrics.md §3.8)"},
		func(in *Input) Result { return rmdResult(in, 0) }))
	Register(Func(Info{ID: "rmd_risk2", Unit: "%", Better: Lower,
		Description: "rmd_risk1 records whose nearest other released record is farther than 0.05 (sdcMicro dRiskRMD risk2; metrics.md §3.8)"},
		func(in *Input) Result { return rmdResult(in, 1) }))
}

// RMD risk constants: sdcMicro dRiskRMD's defaults k and k2, the 0.05 factor of its distance,
// and the fixed seed of the FAST-MCD starts (sdcMicro's rmd microaggregation fixes
// set.seed(123); dRiskRMD itself leaves R's generator unseeded).
const (
	rmdK      = 0.01
	rmdK2     = 0.05
	rmdFactor = 0.05
	rmdSeed   = 123
)

// RMDRisk returns rmd_risk1 and rmd_risk2 (metrics.md §3.8), sdcMicro's dRiskRMD with k = 0.01
// and k2 = 0.05, in %. X and X' are each z-scored with their own means and sample SDs
// (x_s, x'_s); rmd_j = 0.05·√(MD_j), MD_j the squared Mahalanobis distance of x_s,j from the
// column means of x_s under robustbase's reweighted MCD covariance of x_s (robust.FastMCD
// with MCDOptions.Robustbase, 500 starts from the fixed seed 123). Record j is in set 1 if some
// attribute l has x_s,jl − k·rmd_j < x'_s,jl < x_s,jl + k·rmd_j, and in set 2 if moreover its
// nearest other released record (Euclidean on x'_s) is farther than k2; the values are 100·|set|/n.
//
// As in R, a constant released column makes its comparisons false and is left out of the
// distances (which are scaled by p/#used, R's dist). Differences from sdcMicro: a singular
// covariance (e.g. Census) is an error in R, here its null directions are dropped (a
// pseudo-inverse); and FAST-MCD draws from its own generator, so the MCD subset — and with
// it the risk — can differ from any one R run the way R runs with different seeds differ.
// Both are NaN if n ≤ p or an original column is constant; with a missing cell they are
// computed on the complete cases (metrics.md §0.4).
//
// Cost: FAST-MCD, O(n·p²), and the neighbour search of set 1 on x'_s sorted by its column
// with the most distinct values (O(n log n) plus the records within k2 along that column).
func RMDRisk(in *Input) (risk1, risk2 float64) {
	return rmdResult(in, 0).Value, rmdResult(in, 1).Value
}

// rmdResult returns rmd_risk1 (set 0) or rmd_risk2 (set 1); with a missing cell both are
// computed on the complete cases (metrics.md §0.4).
func rmdResult(in *Input, set int) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return rmdResult(in, set) })
	}
	return Result{Value: cached(in, "rmd_risk", rmdRisk)[set]}
}

func rmdRisk(in *Input) [2]float64 {
	undef := [2]float64{math.NaN(), math.NaN()}
	n, p := in.Orig.N, in.Orig.P
	x, xm := in.Orig.Data, in.Masked.Data
	if n <= p || p < 1 || hasNaN(x, xm) {
		return undef
	}
	xs, ok := ownScale(x, n, p)
	if !ok {
		return undef
	}
	xms, _ := ownScale(xm, n, p)
	cent := make([]float64, p)
	for i := 0; i < n; i++ {
		for l := range cent {
			cent[l] += xs[i*p+l]
		}
	}
	for l := range cent {
		cent[l] /= float64(n)
	}
	mcd, err := robust.FastMCD(context.Background(), xs, n, p,
		robust.MCDOptions{Starts: 500, Robustbase: true}, rand.New(rand.NewPCG(rmdSeed, rmdSeed)))
	if err != nil {
		return undef
	}
	md, ok := mahalanobisAll(xs, n, p, cent, mcd)
	if !ok {
		return undef
	}
	var set1 []int
	for j := 0; j < n; j++ {
		rmd := math.Sqrt(md[j]) * rmdFactor
		w := rmdK * rmd
		for l := 0; l < p; l++ {
			v, o := xms[j*p+l], xs[j*p+l]
			if v > o-w && v < o+w {
				set1 = append(set1, j)
				break
			}
		}
	}
	set2 := 0
	if len(set1) > 0 {
		nn := newSortedNeighbours(xms, n, p)
		for _, j := range set1 {
			if !nn.within(j, rmdK2) {
				set2++
			}
		}
	}
	return [2]float64{100 * float64(len(set1)) / float64(n), 100 * float64(set2) / float64(n)}
}

// ownScale returns x z-scored with its own column means and sample SDs (R's scale). A
// constant column becomes NaN (0/0), as in R; ok is false if there is one.
func ownScale(x []float64, n, p int) (z []float64, ok bool) {
	ok = true
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for l := range mean {
			mean[l] += x[i*p+l]
		}
	}
	for l := range mean {
		mean[l] /= float64(n)
	}
	sd := make([]float64, p)
	for i := 0; i < n; i++ {
		for l := range sd {
			d := x[i*p+l] - mean[l]
			sd[l] += d * d
		}
	}
	for l := range sd {
		sd[l] = math.Sqrt(sd[l] / float64(n-1))
		if sd[l] == 0 {
			ok = false
		}
	}
	z = make([]float64, n*p)
	for i := 0; i < n; i++ {
		for l := range sd {
			z[i*p+l] = (x[i*p+l] - mean[l]) / sd[l]
		}
	}
	return z, ok
}

// mahalanobisAll returns every row's squared Mahalanobis distance from cent under the MCD
// scatter, in the MCD's coordinates (its Basis when it dropped null directions).
func mahalanobisAll(z []float64, n, d int, cent []float64, m *robust.MCDResult) ([]float64, bool) {
	q := m.Scatter.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(m.Scatter) {
		return nil, false
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, false
	}
	dev := make([]float64, d)
	y := make([]float64, q)
	md := make([]float64, n)
	for i := 0; i < n; i++ {
		for l := range dev {
			dev[l] = z[i*d+l] - cent[l]
		}
		if m.Basis != nil {
			for c := range y {
				var s float64
				for r, v := range dev {
					s += v * m.Basis.At(r, c)
				}
				y[c] = s
			}
		} else {
			copy(y, dev)
		}
		var s float64
		for a := 0; a < q; a++ {
			var t float64
			for b := 0; b < q; b++ {
				t += inv.At(a, b) * y[b]
			}
			s += t * y[a]
		}
		md[i] = s
	}
	return md, true
}

// sortedNeighbours answers "is another row within Euclidean distance r of row j" on a
// row-major table that may hold NaN columns (left out, distances scaled by p/#used as R's
// dist does), by scanning the rows sorted on the usable column with the most distinct values.
type sortedNeighbours struct {
	z       []float64
	n, p    int
	key     int     // sort column
	scale   float64 // p/#usable columns
	order   []int   // rows by (z[·, key], index)
	pos     []int   // row → position in order
	useCols []int
}

func newSortedNeighbours(z []float64, n, p int) *sortedNeighbours {
	s := &sortedNeighbours{z: z, n: n, p: p, key: -1}
	best := -1
	col := make([]float64, n)
	for l := 0; l < p; l++ {
		if math.IsNaN(z[l]) {
			continue
		}
		s.useCols = append(s.useCols, l)
		for i := range col {
			col[i] = z[i*p+l]
		}
		slices.Sort(col)
		distinct := len(slices.Compact(col))
		if distinct > best {
			best, s.key = distinct, l
		}
	}
	if s.key < 0 {
		return s
	}
	s.scale = float64(p) / float64(len(s.useCols))
	s.order = make([]int, n)
	for i := range s.order {
		s.order[i] = i
	}
	k := s.key
	slices.SortStableFunc(s.order, func(a, b int) int {
		va, vb := z[a*p+k], z[b*p+k]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	s.pos = make([]int, n)
	for t, i := range s.order {
		s.pos[i] = t
	}
	return s
}

// within reports whether some row other than j has distance ≤ r from row j (R: not
// min(dist) > r). With no usable column every distance is NA and it reports false.
func (s *sortedNeighbours) within(j int, r float64) bool {
	if s.key < 0 {
		return false
	}
	p, k := s.p, s.key
	// |Δkey|·√scale ≤ distance, so rows farther than r along key cannot qualify; the slack
	// keeps rounding from cutting the scan short.
	reach := r / math.Sqrt(s.scale) * (1 + 1e-9)
	vj := s.z[j*p+k]
	check := func(i int) bool {
		var sum float64
		for _, l := range s.useCols {
			d := s.z[j*p+l] - s.z[i*p+l]
			sum += d * d
		}
		if s.scale != 1 {
			sum *= s.scale
		}
		return !(math.Sqrt(sum) > r)
	}
	t := s.pos[j]
	for u := t - 1; u >= 0; u-- {
		i := s.order[u]
		if vj-s.z[i*p+k] > reach {
			break
		}
		if check(i) {
			return true
		}
	}
	for u := t + 1; u < s.n; u++ {
		i := s.order[u]
		if s.z[i*p+k]-vj > reach {
			break
		}
		if check(i) {
			return true
		}
	}
	return false
}
