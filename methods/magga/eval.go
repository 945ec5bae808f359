package magga

import (
	"math"
	"runtime"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/internal/distance"
	"github.com/sdcbench/sdcbench/internal/kdtree"
)

// nearK is the length of the per-record neighbour lists of the DLD test.
const nearK = 256

// Problem is what a MAGGA run computes once from the data (docs/magga.md
// "precompute per run"): the raw table X, its z-scores Z, the statistics of the metrics and
// the k-d tree over Z for dld. A Problem is read-only after NewProblem and may be shared by
// any number of goroutines, each with its own Scratch.
type Problem struct {
	N, D, K    int
	Gmin, Gmax int
	X, Z       []float64 // n×d row-major, raw and standardized
	mean, sd   []float64 // X's column means and sample SDs (n−1)
	zm, zs     []float64 // the map from raw to Z: z = (x − zm)/zs (zs = 0: constant, z = 0)
	keep       []int     // non-constant columns
	sst        float64   // Σ_i Σ_{l∈keep} (z_il − z̄_l)²
	il1sDen    []float64 // √2·S_l
	tree       *kdtree.Tree
	near       *nnLists

	// il3 statistics of X (metrics.md §2.6, raw space, il3_zero exclude)
	c1cnt int       // cells with x ≠ 0
	xcov  []float64 // d×d sample covariance of X
	xcor  []float64 // d×d correlation of X (NaN where undefined)
}

// NewProblem prepares X (not modified) for minimum group size k ≥ 2. With standardize
// false, Z is a copy of X (spec §0 "read Z as X"). Cost O(n·d² + n·log²n·d).
func NewProblem(x *datasets.Dataset, k int, standardize bool) *Problem {
	n, d := x.N, x.P
	pr := &Problem{N: n, D: d, K: k, X: x.Data,
		Gmin: (n + 2*k - 2) / (2*k - 1), Gmax: n / k}
	s := datasets.ScalingOf(x)
	pr.mean, pr.sd = s.Mean, s.SD
	pr.zm, pr.zs = s.Mean, s.SD
	if standardize {
		pr.Z = s.Apply(nil, x)
	} else {
		pr.Z = datasets.PowerScaled(x.Data) // a copy; exactly rescaled when values are extreme
		pr.zm = make([]float64, d)
		pr.zs = make([]float64, d)
		for l := range pr.zs {
			pr.zs[l] = 1
		}
	}
	for l := 0; l < d; l++ {
		if s.SD[l] != 0 && !math.IsNaN(s.SD[l]) {
			pr.keep = append(pr.keep, l)
		}
	}
	zmean := make([]float64, d)
	for i := 0; i < n; i++ {
		for _, l := range pr.keep {
			zmean[l] += pr.Z[i*d+l]
		}
	}
	for _, l := range pr.keep {
		zmean[l] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for _, l := range pr.keep {
			t := pr.Z[i*d+l] - zmean[l]
			pr.sst += float64(t * t)
		}
	}
	pr.il1sDen = make([]float64, d)
	for l := range pr.il1sDen {
		pr.il1sDen[l] = math.Sqrt2 * s.SD[l]
	}
	for _, v := range x.Data {
		if v != 0 {
			pr.c1cnt++
		}
	}
	pr.xcov = covariance.Around(x.Data, n, d, s.Mean)
	pr.xcor = covariance.Correlation(pr.xcov, d)
	if d > 0 {
		pr.tree = kdtree.New(pr.Z, n, d)
	}
	pr.near = newNNLists(pr.Z, n, d, nearK, runtime.GOMAXPROCS(0))
	return pr
}

// Scratch is the workspace of one evaluation worker, sized for up to Gmax groups, so that
// Evaluate does not allocate. It is not safe for concurrent use.
type Scratch struct {
	cnt      []int32
	off      []int32   // member list offsets, G+1
	mem      []int32   // records sorted by group, ascending within a group
	cx, cz   []float64 // raw group means and their z-scores, G×d
	mb, vb   []float64 // il3: X' means and covariance
	rb, dev  []float64
	repair   repairScratch
	canon    []int32
	link     *linkQuery
	keyBytes []byte
	groups   *groupCache // DLD answers per member set
}

// NewScratch returns a workspace for p.
func (p *Problem) NewScratch() *Scratch {
	g, d := p.Gmax+1, p.D
	return &Scratch{
		cnt: make([]int32, g), off: make([]int32, g+1), mem: make([]int32, p.N),
		cx: make([]float64, g*d), cz: make([]float64, g*d),
		mb: make([]float64, d), vb: make([]float64, d*d), rb: make([]float64, d*d), dev: make([]float64, d),
		canon: make([]int32, g), keyBytes: make([]byte, 4*p.N),
		groups: newGroupCache(min(2*p.K-1, 255), min(max(512*p.Gmax, 1<<12), 1<<19)),
		link:   newLinkQuery(p.tree),
	}
}

// Values holds the metric values of one partition, indexed by Metric; metrics not asked for
// are NaN.
type Values [numMetrics]float64

// Evaluate returns the metrics in want of the partition labels (values in 0..G−1, every
// group non-empty, G ≤ Gmax). Every group's masked vector is its raw mean, standardized with
// X's means and SDs: bit-identical to metrics.md's z' (docs/magga.md
// "Microaggregation shortcuts"). Costs: sse_sst and il1s O(n·d); il3 O(n·d + G·d²); dld one
// bounded k-d tree query per group (§2.1). No allocation.
func (p *Problem) Evaluate(labels []int32, G int, want *[numMetrics]bool, s *Scratch) Values {
	n, d := p.N, p.D
	var v Values
	for m := range v {
		v[m] = math.NaN()
	}
	cnt, cx, cz := s.cnt[:G], s.cx[:G*d], s.cz[:G*d]
	clear(cnt)
	clear(cx)
	for i, g := range labels {
		cnt[g]++
		row := p.X[i*d : (i+1)*d]
		c := cx[int(g)*d : (int(g)+1)*d]
		for l, x := range row {
			c[l] += x
		}
	}
	for g := 0; g < G; g++ {
		c, z := cx[g*d:(g+1)*d], cz[g*d:(g+1)*d]
		for l := range c {
			c[l] /= float64(cnt[g])
			if p.zs[l] == 0 {
				z[l] = 0
			} else {
				z[l] = (c[l] - p.zm[l]) / p.zs[l]
			}
		}
	}
	if want[SSESST] && n >= 2 && len(p.keep) > 0 {
		var sse float64
		for i, g := range labels {
			row, c := p.Z[i*d:(i+1)*d], cz[int(g)*d:(int(g)+1)*d]
			for _, l := range p.keep {
				t := row[l] - c[l]
				sse += float64(t * t)
			}
		}
		v[SSESST] = 100 * sse / p.sst
	}
	if want[IL1s] && n >= 2 && len(p.keep) > 0 {
		var sum float64
		for i, g := range labels {
			row, c := p.X[i*d:(i+1)*d], cx[int(g)*d:(int(g)+1)*d]
			for _, l := range p.keep {
				sum += math.Abs(row[l]-c[l]) / p.il1sDen[l]
			}
		}
		v[IL1s] = sum / float64(n*len(p.keep))
	}
	if want[DLD] && n > 0 {
		v[DLD] = 100 * float64(p.dldHits(labels, G, s)) / float64(n)
	}
	if (want[IL3] || want[IL3Code]) && n >= 2 && d > 0 {
		v[IL3], v[IL3Code] = p.il3(labels, G, s)
	}
	return v
}

// dldHits returns the number of groups whose centroid's nearest original record (ties:
// lowest index) is one of its members: the linked records of metrics.md §3.1 by the
// group-centroid form of docs/magga.md
func (p *Problem) dldHits(labels []int32, G int, s *Scratch) int {
	d := p.D
	off, mem, cnt := s.off[:G+1], s.mem, s.cnt[:G]
	off[0] = 0
	for g := 0; g < G; g++ {
		off[g+1] = off[g] + cnt[g]
	}
	for i, g := range labels {
		mem[off[g]] = int32(i)
		off[g]++
	}
	for g := G; g > 0; g-- {
		off[g] = off[g-1]
	}
	off[0] = 0
	hits := 0
	for g := 0; g < G; g++ {
		members := mem[off[g]:off[g+1]]
		slot, key, found := s.groups.lookup(members)
		if found {
			if s.groups.hit[slot] {
				hits++
			}
			continue
		}
		q := s.cz[g*d : (g+1)*d]
		b, jb := math.Inf(1), int32(-1)
		for _, j := range members {
			if t := distance.Sq(q, p.Z[int(j)*d:(int(j)+1)*d]); t < b {
				b, jb = t, j
			}
		}
		if jb < 0 {
			continue
		}
		linked, ok := p.near.linkedNear(p.Z, d, q, b, jb, int32(g), labels)
		if !ok {
			linked = s.link.linked(q, b, jb, int32(g), labels)
		}
		s.groups.store(slot, key, members, linked)
		if linked {
			hits++
		}
	}
	return hits
}

// il3 returns il3 and il3_code in % (metrics.md §2.6, raw space, zero denominators
// excluded), using cov(X') = (1/(n−1)) Σ_g n_g (c_g − x̄')(c_g − x̄')ᵀ, O(n·d + G·d²).
func (p *Problem) il3(labels []int32, G int, s *Scratch) (il3, code float64) {
	n, d := p.N, p.D
	var c1 float64
	for i, g := range labels {
		row, c := p.X[i*d:(i+1)*d], s.cx[int(g)*d:(int(g)+1)*d]
		for l, x := range row {
			if x != 0 {
				c1 += math.Abs(x-c[l]) / math.Abs(x)
			}
		}
	}
	mb, vb, rb, dev := s.mb, s.vb, s.rb, s.dev
	clear(mb)
	for g := 0; g < G; g++ {
		w := float64(s.cnt[g])
		for l, x := range s.cx[g*d : (g+1)*d] {
			mb[l] += w * x
		}
	}
	for l := range mb {
		mb[l] /= float64(n)
	}
	clear(vb)
	for g := 0; g < G; g++ {
		w := float64(s.cnt[g])
		for l, x := range s.cx[g*d : (g+1)*d] {
			dev[l] = x - mb[l]
		}
		for h := 0; h < d; h++ {
			wh := w * dev[h]
			for l := h; l < d; l++ {
				vb[h*d+l] += float64(wh * dev[l])
			}
		}
	}
	for h := 0; h < d; h++ {
		for l := h; l < d; l++ {
			vb[h*d+l] /= float64(n - 1)
			vb[l*d+h] = vb[h*d+l]
		}
	}
	covariance.CorrelationTo(rb, vb, d)
	var acc [6]struct {
		sum float64
		cnt int
	}
	add := func(c int, num, den float64) {
		if den == 0 || math.IsNaN(den) {
			return
		}
		acc[c].sum += num / den
		acc[c].cnt++
	}
	if p.c1cnt > 0 {
		acc[0].sum, acc[0].cnt = c1, p.c1cnt
	}
	for l := 0; l < d; l++ {
		add(1, math.Abs(p.mean[l]-mb[l]), math.Abs(p.mean[l]))
		add(3, math.Abs(p.xcov[l*d+l]-vb[l*d+l]), p.xcov[l*d+l])
		for h := 0; h <= l; h++ {
			k := h*d + l
			add(2, math.Abs(p.xcov[k]-vb[k]), math.Abs(p.xcov[k]))
			r := math.Abs(p.xcor[k] - rb[k])
			add(4, r, math.Abs(p.xcor[k]))
			if !math.IsNaN(p.xcor[k]) {
				acc[5].sum += r
				acc[5].cnt++
			}
		}
	}
	mean := func(c int) float64 {
		if acc[c].cnt == 0 {
			return math.NaN()
		}
		return acc[c].sum / float64(acc[c].cnt)
	}
	base := mean(0) + mean(1) + mean(2) + mean(3)
	return 100 * (base + mean(4)) / 5, 100 * (base + mean(5)) / 5
}

// linkQuery is dldHits' exact test on the k-d tree over Z (docs/magga.md §2.1 "Static
// index"): is the record nearest to q (ties: lowest index, metrics.md §3.1) a member of group
// g? Given b, the squared distance from q to g's nearest member, and jb, the lowest index of a
// member at that distance, every other member of g comes after (b, jb) in (distance, index)
// order, so the nearest record is jb or a record outside g that beats it. The tree computes
// distances in column order, bit-identical to distance.Sq, so the answer does not depend on
// its shape; jb starts the search, which prunes with b from the first node.
type linkQuery struct {
	search *kdtree.Searcher // nil for a table without columns
}

// newLinkQuery returns the query state of a worker on t (nil for a table without columns).
func newLinkQuery(t *kdtree.Tree) *linkQuery {
	l := &linkQuery{}
	if t != nil {
		l.search = t.NewSearcher()
	}
	return l
}

// linked reports whether the nearest record to q (ties: lowest index) has label g, given b,
// the squared distance from q to the nearest member of group g, and jb, the lowest index of a
// member at that distance.
func (l *linkQuery) linked(q []float64, b float64, jb, g int32, labels []int32) bool {
	if l.search == nil { // no columns: every record is at distance 0, record 0 is the nearest
		return labels[0] == g
	}
	i, _ := l.search.NearestFrom(q, int(jb), b)
	return labels[i] == g
}
